/** The columns `audit_fts` indexes (migration 7), as its statements name them. */
export const AUDIT_FTS_COLUMNS =
  'action_type, intent, reasoning, target, input_json, output_json, error_message';
const COLUMNS = AUDIT_FTS_COLUMNS;
const OLD = COLUMNS.split(', ')
  .map((column) => `old.${column}`)
  .join(', ');

/**
 * Migration 16: the audit trail's full-text index is brought up to date after the fact, not inside each step.
 *
 * Until now, triggers fed `audit_fts` in the statement that wrote an entry, and FTS5 wrote its index pages at
 * every savepoint and commit of a step: a fifth of a step's time. Now a trigger only notes the entry in
 * `audit_fts_pending`, and AuditSearchIndex indexes what is noted, in batches: before every full-text search
 * (so a search never misses an entry) and a little at a time in the background.
 *
 * `audit_fts` keeps its content in `audit_entries`: to take an entry out of it, FTS5 must be given the values
 * it was indexed with. A pending row therefore holds them when the index has the entry (`is_new` = 0), copied
 * from the entry as it was just before its first change since it was last indexed; `is_new` = 1 means the
 * index does not have the entry at all. The index and the pending rows are consistent at migration time: the
 * old triggers kept the index whole, so nothing is pending.
 */
export const AUDIT_SEARCH_SQL = `
  CREATE TABLE audit_fts_pending (
    seq INTEGER PRIMARY KEY,
    is_new INTEGER NOT NULL CHECK (is_new IN (0, 1)),
    action_type TEXT, intent TEXT, reasoning TEXT, target TEXT, input_json TEXT, output_json TEXT,
    error_message TEXT
  );
  DROP TRIGGER audit_entries_ai;
  DROP TRIGGER audit_entries_au;
  DROP TRIGGER audit_entries_ad;
  CREATE TRIGGER audit_entries_ai AFTER INSERT ON audit_entries BEGIN
    INSERT INTO audit_fts_pending (seq, is_new) VALUES (new.seq, 1);
  END;
  CREATE TRIGGER audit_entries_au AFTER UPDATE OF ${COLUMNS} ON audit_entries
    WHEN NOT EXISTS (SELECT 1 FROM audit_fts_pending WHERE seq = old.seq) BEGIN
    INSERT INTO audit_fts_pending (seq, is_new, ${COLUMNS}) VALUES (old.seq, 0, ${OLD});
  END;
  -- A deleted entry leaves the index at once, with the values the index has for it.
  CREATE TRIGGER audit_entries_ad AFTER DELETE ON audit_entries BEGIN
    INSERT INTO audit_fts (audit_fts, rowid, ${COLUMNS})
      SELECT 'delete', old.seq, ${OLD} WHERE NOT EXISTS (SELECT 1 FROM audit_fts_pending WHERE seq = old.seq);
    INSERT INTO audit_fts (audit_fts, rowid, ${COLUMNS})
      SELECT 'delete', seq, ${COLUMNS} FROM audit_fts_pending WHERE seq = old.seq AND is_new = 0;
    DELETE FROM audit_fts_pending WHERE seq = old.seq;
  END;
`;
