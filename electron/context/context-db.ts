import { rmSync } from 'node:fs';
import { openDatabase, type Db } from '../store/database';
import type { Migration } from '../store/migrations';

/**
 * The context index is its own file beside deputy.db: everything in it can be rebuilt from the person's
 * accounts, so clearing it (Settings → Data) loses nothing, and its schema moves without touching the
 * database that holds runs, the ledger and the audit trail.
 */
export const CONTEXT_FILE = 'context.db';

export const contextMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'contacts, upcoming events and vectors',
    sql: `
      CREATE TABLE contacts (
        id INTEGER PRIMARY KEY,
        address TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL DEFAULT '',
        -- mail the person sent to them, events the person organised with them or accepted from them
        dealt_count INTEGER NOT NULL DEFAULT 0,
        -- appearances the person did not choose: mail from them, invitations not accepted, workspace members
        seen_count INTEGER NOT NULL DEFAULT 0,
        last_at TEXT NOT NULL,
        evidence TEXT NOT NULL DEFAULT '[]'
      );
      CREATE INDEX contacts_rank ON contacts (dealt_count, seen_count, last_at);
      CREATE VIRTUAL TABLE contacts_fts USING fts5 (name, address, tokenize = 'unicode61 remove_diacritics 2');
      CREATE TABLE upcoming_events (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        start TEXT NOT NULL,
        attendees TEXT NOT NULL DEFAULT '[]'
      );
      CREATE INDEX upcoming_events_start ON upcoming_events (start);
      -- Embeddings of the person's memories (float32, little-endian), keyed by what they embed; the model and
      -- the hash of the text say when one is stale.
      CREATE TABLE vectors (
        kind TEXT NOT NULL,
        ref TEXT NOT NULL,
        model TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY (kind, ref)
      );
    `,
  },
  {
    version: 2,
    name: 'recent mail, when the person opts in to finding it by meaning',
    sql: `
      -- The subjects and snippets of the newest received mail (bounded; replaced at each refresh), kept only
      -- while Settings → Data's "find recent mail by meaning" is on. Their vectors are kind 'mail'.
      CREATE VIRTUAL TABLE recent_mail USING fts5 (
        id UNINDEXED, sender, subject, snippet, at UNINDEXED,
        tokenize = 'unicode61 remove_diacritics 2'
      );
    `,
  },
  {
    version: 3,
    name: 'contacts found by name and the address before the @, not its domain',
    sql: `
      -- "example" is no one's name: the domain of an address (and a Slack user id) is no longer searched as one.
      -- The same rule as addressName() in contacts-index.ts.
      DELETE FROM contacts_fts;
      INSERT INTO contacts_fts (rowid, name, address)
        SELECT id, name, CASE
          WHEN address LIKE 'slack:%' THEN ''
          WHEN instr(address, '@') = 0 THEN address
          ELSE substr(address, 1, instr(address, '@') - 1)
        END FROM contacts;
    `,
  },
  {
    version: 4,
    name: 'kinds changed since their vectors were last brought up to date',
    sql: `
      -- A row while some memories (or tasks) changed and no sync has embedded them since: kept across restarts,
      -- so a search in a later session still says the newest are matched by words only until one has.
      CREATE TABLE unindexed_changes (kind TEXT PRIMARY KEY);
    `,
  },
];

export function openContextDb(file: string): Db {
  return openDatabase(file, contextMigrations);
}

/**
 * Opens the index, or starts it afresh when the file cannot be opened (damaged, or written by a newer Deputy):
 * everything in it is rebuilt from the accounts, so a bad cache must never keep Deputy from starting. Until it
 * is rebuilt, fewer people count as known, which only means more questions, never fewer.
 */
export function openOrRebuildContextDb(
  file: string,
  logError: (message: string, error: unknown) => void,
): Db {
  try {
    return openContextDb(file);
  } catch (error) {
    logError(`the context index ${file} could not be opened; it is rebuilt from your accounts`, error);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    return openContextDb(file);
  }
}
