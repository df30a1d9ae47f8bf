import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DeputyError } from '../../shared/contract';

/** An empty SQLite file whose exclusive lock says "a Deputy has this data folder open". */
export const LOCK_FILE = 'deputy.lock';

export interface FolderLock {
  release(): void;
}

/**
 * Takes the data folder for this process, or throws a `conflict` saying another Deputy has it.
 *
 * Two hosts on one folder would each resume the runs the other is still running, and repeat their side
 * effects. The desktop app keeps to one copy of itself, but `npm run serve` can be started beside it on the
 * same folder. The lock is SQLite's own (POSIX advisory locks, LockFileEx on Windows), held by an open
 * transaction that never writes: the operating system drops it when the process ends, however it ends, so a
 * crash leaves no stale lock behind.
 */
export function lockDataFolder(dataDir: string): FolderLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, LOCK_FILE);
  closeSync(openSync(file, 'a', 0o600));
  const db = new Database(file, { timeout: 0 });
  try {
    // Nothing is ever written: the rollback journal stays in memory, not in a second file beside this one.
    db.pragma('journal_mode = MEMORY');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DeputyError(
        'conflict',
        `Another Deputy is already using the data folder ${dataDir}. Quit it first, or give this one another folder with DEPUTY_DATA_DIR.`,
      );
    }
    throw error;
  }
  return {
    release: () => {
      // Closing ends the transaction, and with it the lock.
      if (db.open) db.close();
    },
  };
}
