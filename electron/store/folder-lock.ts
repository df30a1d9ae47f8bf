import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DeputyError } from '../../shared/contract';
import { createOwnerOnly } from './database';

/**
 * An empty SQLite file whose exclusive lock says "a Deputy has this data folder open". Nothing in the process
 * that holds it may open it by other means: on Linux and macOS, closing any handle to a file drops every lock
 * the process has on it (POSIX advisory locks), and the folder would be free while Deputy still runs.
 */
export const LOCK_FILE = 'deputy.lock';

/**
 * How long a second taker waits for the lock. On Windows the lock of a process that died is freed a moment
 * after it, not at once, and a Deputy restarted at once after a crash must still get its folder.
 */
const WAIT_MS = 2_000;

export interface FolderLock {
  release(): void;
}

/** The data folder is held by another Deputy, or already by this one. */
export class DataFolderInUseError extends DeputyError {
  constructor(message: string) {
    super('conflict', message);
    this.name = 'DataFolderInUseError';
  }
}

/** The folders this process holds: asked again, it answers from here, without touching the lock file. */
const held = new Set<string>();

/**
 * Takes the data folder for this process, or throws `DataFolderInUseError`.
 *
 * Two hosts on one folder would each resume the runs the other is still running, and repeat their side
 * effects. The desktop app keeps to one copy of itself, but `npm run serve` can be started beside it on the
 * same folder. The lock is SQLite's own (POSIX advisory locks, LockFileEx on Windows), held by an open
 * transaction that never writes: the operating system drops it when the process ends, however it ends, so a
 * crash leaves no stale lock behind.
 */
export function lockDataFolder(dataDir: string): FolderLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const folder = realpathSync(dataDir);
  if (held.has(folder)) {
    throw new DataFolderInUseError(`This Deputy already has the data folder ${dataDir} open.`);
  }
  const file = join(folder, LOCK_FILE);
  createOwnerOnly(file);
  const db = new Database(file, { timeout: WAIT_MS });
  try {
    // Nothing is ever written: the rollback journal stays in memory, not in a second file beside this one.
    db.pragma('journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DataFolderInUseError(
        `Another Deputy (the app, or npm run serve) is already using the data folder ${dataDir}. Quit it first.`,
      );
    }
    throw error;
  }
  held.add(folder);
  return {
    release: () => {
      if (!db.open) return;
      // Closing ends the transaction, and with it the lock.
      db.close();
      held.delete(folder);
    },
  };
}
