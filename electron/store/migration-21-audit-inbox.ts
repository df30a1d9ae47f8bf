/**
 * Migration 21: a run's step notes its audit entries in an inbox, and they are filed into `audit_entries`
 * after the fact, as they are indexed for search (migration 16) and listed (migration 17).
 *
 * An entry in `audit_entries` is a row in eight B-trees: the table, its id, and its indexes by ledger action,
 * conversation, run, tool and status, with its row in `audit_fts_pending`. Written inside every step, they were
 * a third of the pages the step's commit wrote. The inbox is one B-tree: a row keyed by the entry's chain link,
 * which the step still writes, so the entry's content is chained at once and a crash loses nothing. Every read
 * of the audit trail files the inbox first (`AuditInbox.file`), so no reader ever misses an entry; the host
 * also files it in the background, with the search index.
 *
 * A row's `entry` is a JSON object of the entry's values by the names the insert gives them (`entryValues`):
 * `id`, `kind`, `actionId`, … `now` (its creation time), `updatedAt`. A name a later version adds is filed as
 * NULL when an older row lacks it.
 */
export const AUDIT_INBOX_SQL = `
  CREATE TABLE audit_inbox (
    -- the entry's chain link (audit_chain.seq), already written
    chain_seq INTEGER PRIMARY KEY,
    entry TEXT NOT NULL
  );
`;
