import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openContextDb } from '../../electron/context/context-db';
import type { Db } from '../../electron/store/database';
import { Store } from '../../electron/store/store';

/** Where the frozen databases are (test/fixtures/databases). */
export const FIXTURE_DATABASES = join(import.meta.dirname, '..', 'fixtures', 'databases');

/**
 * Opens a database in a folder of its own, one per call; after each test, closes those the test left open (a
 * store's folder lock and log with it), then removes the folders.
 */
function useFolders<T>(prefix: string, close: (opened: T) => void): (open: (dir: string) => T) => T {
  const dirs: string[] = [];
  const opened: T[] = [];
  afterEach(() => {
    for (const item of opened.splice(0)) close(item);
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (open) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    const item = open(dir);
    opened.push(item);
    return item;
  };
}

function useStoreFolders(prefix: string): (open: (file: string) => Store) => Store {
  const openIn = useFolders<Store>(prefix, (store) => {
    if (store.db.open) store.close();
  });
  return (open) => openIn((dir) => open(join(dir, 'deputy.db')));
}

/**
 * Opens copies of frozen databases (a fixture is never written: opening migrates), each in a folder of its own
 * that is removed after each test.
 */
export function useFixtureCopies(): (fixture: string) => Store {
  const openIn = useStoreFolders('deputy-fixture-');
  return (fixture) =>
    openIn((file) => {
      copyFileSync(join(FIXTURE_DATABASES, fixture), file);
      return Store.open(file);
    });
}

/** Opens new, empty stores on disk, each in a folder of its own that is removed after each test. */
export function useTempStores(): () => Store {
  const openIn = useStoreFolders('deputy-store-');
  return () => openIn((file) => Store.open(file));
}

/**
 * Opens copies of frozen context.db files (opening brings them up to date; the fixture itself is never written),
 * each in a folder of its own that is removed after each test.
 */
export function useContextFixtureCopies(): (fixture: string) => Db {
  const openIn = useFolders<Db>('deputy-context-fixture-', (db) => {
    if (db.open) db.close();
  });
  return (fixture) =>
    openIn((dir) => {
      const file = join(dir, 'context.db');
      copyFileSync(join(FIXTURE_DATABASES, fixture), file);
      return openContextDb(file);
    });
}
