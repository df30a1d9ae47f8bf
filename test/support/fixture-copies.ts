import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { Store } from '../../electron/store/store';

/** Where the frozen databases are (test/fixtures/databases). */
export const FIXTURE_DATABASES = join(import.meta.dirname, '..', 'fixtures', 'databases');

/** Makes folders for one test each, removed after each test; answers where a new folder's database goes. */
function useTempFolders(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return join(dir, 'deputy.db');
  };
}

/**
 * Opens copies of frozen databases (a fixture is never written: opening migrates), each in a folder of its own
 * that is removed after each test.
 */
export function useFixtureCopies(): (fixture: string) => Store {
  const newFile = useTempFolders('deputy-fixture-');
  return (fixture) => {
    const file = newFile();
    copyFileSync(join(FIXTURE_DATABASES, fixture), file);
    return Store.open(file);
  };
}

/** Opens new, empty stores on disk, each in a folder of its own that is removed after each test. */
export function useTempStores(): () => Store {
  const newFile = useTempFolders('deputy-store-');
  return () => Store.open(newFile());
}
