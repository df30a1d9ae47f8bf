import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../../electron/host/create-host';
import {
  DataFolderInUseError,
  LOCK_FILE,
  lockDataFolder,
  type FolderLock,
} from '../../../electron/store/folder-lock';
import { Store } from '../../../electron/store/store';

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
const refusal = (dir: string): DataFolderInUseError => {
  try {
    take(dir);
  } catch (error) {
    expect(error).toBeInstanceOf(DataFolderInUseError);
    return error as DataFolderInUseError;
  }
  throw new Error('the lock was granted twice');
};

/**
 * Another process asks for the folder's lock the way Deputy does (SQLite's exclusive lock, no waiting) and
 * says whether it got it: the lock is the operating system's, which one process cannot see from inside.
 */
function otherProcessGetsLock(dir: string): boolean {
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  const script = `
    const Database = require(${JSON.stringify(sqlite)});
    const db = new Database(${JSON.stringify(join(dir, LOCK_FILE))}, { timeout: 0 });
    try { db.pragma('journal_mode = MEMORY'); db.exec('BEGIN EXCLUSIVE'); process.stdout.write('granted'); }
    catch (error) { process.stdout.write(error.code); }`;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  expect(child.stderr).toBe('');
  if (child.stdout !== 'granted') expect(child.stdout).toBe('SQLITE_BUSY');
  return child.stdout === 'granted';
}

describe('the data folder lock', () => {
  it('keeps another process out, in words, until it is released', () => {
    const dir = folder();
    const lock = take(dir);
    expect(otherProcessGetsLock(dir)).toBe(false);
    lock.release();
    expect(otherProcessGetsLock(dir)).toBe(true);
  });

  it('refuses a second taker in the same process without touching the file, so the lock is not lost', () => {
    const dir = folder();
    take(dir);
    const error = refusal(dir);
    // On Linux and macOS, opening and closing the file again in this process would have dropped the lock.
    expect(otherProcessGetsLock(dir)).toBe(false);
    expect(error.code).toBe('conflict');
    expect(error.message).toBe(`This Deputy already has the data folder ${dir} open.`);
  });

  it('is free again once released; other folders are not affected', () => {
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
