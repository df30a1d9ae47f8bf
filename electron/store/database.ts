import Database from 'better-sqlite3';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrations as allMigrations, type Migration } from './migrations';

export type Db = Database.Database;

// Statements on a step's path write some parameters as `CAST(? AS TEXT)` or `CAST(? AS INTEGER)`. A bare
// parameter that SQLite weighs while planning (`LIMIT ?`, `? = 'all'`, `? IS NULL`, a `col = ?` that an ORDER BY
// or max() leans on) makes it compile the statement again every time a new value is bound: 10–100 µs each
// time, measured. (The switch that stops this, SQLITE_DBCONFIG_ENABLE_QPSG, is not reachable from
// better-sqlite3.) A cast is an expression, not a parameter, so the statement is planned once.

/** Where SQLite keeps temporary data once the database is open (see openDatabase). */
export const TEMP_STORE_WHILE_RUNNING = 'MEMORY';

/** Opens (creating if needed) the one SQLite database: WAL, foreign keys on, migrated to the latest version. */
export function openDatabase(file: string, migrations: readonly Migration[] = allMigrations): Db {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // SQLite would create the file 0644; made owner-only first, its WAL and SHM take the same mode.
    createOwnerOnly(file);
  }
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commits.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Deleted and overwritten rows are zeroed, not left in free pages: a deleted conversation is gone from disk.
  db.pragma('secure_delete = ON');
  // Migrations run with temporary files on disk: an index built over a large table sorts its keys there.
  migrate(db, migrations);
  // A group inside a step is a savepoint, and SQLite keeps the pages it changes in a sub-journal. Past 64 KiB it
  // moved that to a temporary file until the transaction ended: a call's settlement passes that size, so every
  // step opened a file and wrote each page to it with a system call. Kept in memory, it costs none. (Sorts that
  // no index covers are held in memory too; VACUUM goes back to a file: see DataRepo.compact.)
  db.pragma(`temp_store = ${TEMP_STORE_WHILE_RUNNING}`);
  return db;
}

/** Brings a database up to the last of `migrations`, each in its own transaction; a failing one changes nothing. */
export function migrate(db: Db, migrations: readonly Migration[]): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new Error(
      `The database is at version ${current}, newer than this Deputy knows (${latest}). Update Deputy to open it.`,
    );
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    if (migration.foreignKeysOff) applyWithoutForeignKeys(db, migration);
    else apply(db, migration);
  }
}

function apply(db: Db, migration: Migration): void {
  db.transaction(() => {
    db.exec(migration.sql);
    db.pragma(`user_version = ${migration.version}`);
  })();
}

interface ForeignKeyProblem {
  table: string;
  rowid: number | null;
  parent: string;
}

/**
 * SQLite ignores `PRAGMA foreign_keys` inside a transaction, so it is switched off around the migration's
 * transaction, and every reference is checked inside it: a rebuild that lost a parent row rolls back instead
 * of committing rows that point nowhere.
 */
function applyWithoutForeignKeys(db: Db, migration: Migration): void {
  if (db.inTransaction) {
    throw new Error(
      `Migration ${migration.version} must not run inside a transaction: it turns foreign keys off.`,
    );
  }
  db.pragma('foreign_keys = OFF');
  try {
    if (db.pragma('foreign_keys', { simple: true }) !== 0) {
      throw new Error(`Migration ${migration.version} could not turn foreign keys off; nothing was changed.`);
    }
    db.transaction(() => {
      db.exec(migration.sql);
      const problems = db.pragma('foreign_key_check') as ForeignKeyProblem[];
      const first = problems[0];
      if (first) {
        throw new Error(
          `Migration ${migration.version} (${migration.name}) would leave ${problems.length} row(s) pointing at ` +
            `missing rows (first: ${first.table} row ${first.rowid ?? '?'} → ${first.parent}); nothing was changed.`,
        );
      }
      db.pragma(`user_version = ${migration.version}`);
    })();
  } finally {
    db.pragma('foreign_keys = ON');
  }
}

/**
 * Creates `file` empty and owner-only (0600) unless it exists. An existing file is not opened: on Linux and
 * macOS, closing any handle to a file drops every SQLite lock this process holds on it (POSIX advisory locks).
 */
export function createOwnerOnly(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
}
