import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { Store } from '../../electron/store/store';

/** Where the frozen databases are (test/fixtures/databases). */
export const FIXTURE_DATABASES = join(import.meta.dirname, '..', 'fixtures', 'databases');

/**
 * Opens a store in a folder of its own, one per call; after each test, closes the stores the test left open
 * (their folder locks and logs with them), then removes the folders.
 */
function useStoreFolders(prefix: string): (open: (file: string) => Store) => Store {
  const dirs: string[] = [];
  const stores: Store[] = [];
  afterEach(() => {
    for (const store of stores.splice(0)) if (store.db.open) store.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (open) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    const store = open(join(dir, 'deputy.db'));
    stores.push(store);
    return store;
  };
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
