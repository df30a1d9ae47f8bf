import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { Store } from '../../electron/store/store';

/** Where the frozen databases are (test/fixtures/databases). */
export const FIXTURE_DATABASES = join(import.meta.dirname, '..', 'fixtures', 'databases');

/**
 * Opens copies of frozen databases (a fixture is never written: opening migrates), each in a folder of its own
 * that is removed after each test.
 */
export function useFixtureCopies(): (fixture: string) => Store {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (fixture) => {
    const dir = mkdtempSync(join(tmpdir(), 'deputy-fixture-'));
    dirs.push(dir);
    copyFileSync(join(FIXTURE_DATABASES, fixture), join(dir, 'deputy.db'));
    return Store.open(join(dir, 'deputy.db'));
  };
}

/** Opens new, empty stores on disk, each in a folder of its own that is removed after each test. */
export function useTempStores(): () => Store {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), 'deputy-store-'));
    dirs.push(dir);
    return Store.open(join(dir, 'deputy.db'));
  };
}
