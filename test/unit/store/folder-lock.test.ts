import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeputyError } from '../../../shared/contract';
import { lockDataFolder, type FolderLock } from '../../../electron/store/folder-lock';
import { Store } from '../../../electron/store/store';
import { DATABASE_FILE } from '../../../electron/host/create-host';

const dirs: string[] = [];
const held: FolderLock[] = [];
afterEach(() => {
  for (const lock of held.splice(0)) lock.release();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const folder = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-lock-'));
  dirs.push(dir);
  return dir;
};
const take = (dir: string): FolderLock => {
  const lock = lockDataFolder(dir);
  held.push(lock);
  return lock;
};
const refusal = (dir: string): DeputyError => {
  try {
    take(dir);
  } catch (error) {
    return error as DeputyError;
  }
  throw new Error('the second lock was granted');
};

describe('the data folder lock', () => {
  it('refuses a second taker with a conflict that names the folder and what to do', () => {
    const dir = folder();
    take(dir);
    const error = refusal(dir);
    expect(error).toBeInstanceOf(DeputyError);
    expect(error.code).toBe('conflict');
    expect(error.message).toBe(
      `Another Deputy is already using the data folder ${dir}. Quit it first, or give this one another folder with DEPUTY_DATA_DIR.`,
    );
  });

  it('is free again once released, and other folders are not affected', () => {
    const dir = folder();
    const first = take(dir);
    expect(() => take(folder())).not.toThrow();
    first.release();
    first.release();
    expect(() => take(dir)).not.toThrow();
  });

  it('is given up when the store that holds it closes, or fails to open', () => {
    const dir = folder();
    const store = Store.open(join(dir, DATABASE_FILE), lockDataFolder(dir));
    expect(refusal(dir).code).toBe('conflict');
    store.close();
    take(dir).release();

    // A database from a newer Deputy does not open; its lock must not stay behind.
    const newer = Store.open(join(dir, DATABASE_FILE));
    newer.db.pragma('user_version = 9999');
    newer.close();
    expect(() => Store.open(join(dir, DATABASE_FILE), lockDataFolder(dir))).toThrow(/newer than this Deputy/);
    expect(() => take(dir)).not.toThrow();
  });
});
