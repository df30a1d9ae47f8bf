import { APPROVAL_EXPIRED_OUTCOME, CANCELLED_OUTCOME } from '../../shared/audit-status';

/*
 * The WHERE of each partial index below, as the viewer's pages say it (SQLite uses a partial index only for a
 * query that states its WHERE's terms): released with migration 24, so never edited; a change is a new index.
 */

/** A call held back to ask a question or blocked (the Status choice "Not done"): `audit_entries_not_done`. */
export const NOT_DONE_TERMS = [
  "e.status = 'failed'",
  'e.is_listed = 1',
  "e.kind <> 'decision'",
  "(e.decision = 'clarify' OR e.decision = 'deny')",
] as const;

/** A run that ended stopped or for an approval that expired, by its `rule`: `audit_entries_run_endings`. */
export const RUN_ENDING_TERMS = [
  "e.status = 'failed'",
  'e.is_listed = 1',
  "e.kind = 'decision'",
  `(e.rule = '${CANCELLED_OUTCOME}' OR e.rule = '${APPROVAL_EXPIRED_OUTCOME}')`,
] as const;

/** An index's WHERE as its CREATE INDEX says it: the terms above without the table's alias. */
const where = (terms: readonly string[]): string => terms.join(' AND ').replace(/\be\./g, '');

/**
 * Migration 24: each Status choice the trail stores as `failed` ("Turned down", "Expired", "Not done",
 * "Stopped") reaches its own entries through an index that holds only them, instead of reading every failed
 * entry to find them (on a year's trail, ten thousand for a page that has none).
 *
 * - A call held back or blocked, and a run that ended stopped or expired, is known from the entry itself: two
 *   partial indexes hold those entries and no other. Like the filter indexes of migration 17 they hold listed
 *   entries only, so a step writes neither; an entry enters as it is listed, after the fact.
 * - A call whose approval was turned down or expired is known from its approval, in another table, which no
 *   index of `audit_entries` can read. `audit_approval_endings` notes such an entry by its place in the trail:
 *   triggers add it when its approval ends, or when it is filed after its approval ended (a step holds its
 *   entries in the inbox). A note is a hint, never the answer: the viewer still asks the approval, so a note
 *   left by an approval asked again (reopened after a crash) lists nothing.
 *
 * No stored row changes: the indexes and the notes are derived from what is stored, and built for the trail as
 * it is. A step writes nothing more (a filed entry costs one look-up of its approval).
 */
export const AUDIT_STATUSES_SQL = `
  CREATE INDEX audit_entries_not_done ON audit_entries (seq) WHERE ${where(NOT_DONE_TERMS)};
  CREATE INDEX audit_entries_run_endings ON audit_entries (rule, seq) WHERE ${where(RUN_ENDING_TERMS)};
  CREATE TABLE audit_approval_endings (
    ending TEXT NOT NULL CHECK (ending IN ('rejected', 'expired')),
    -- the entry's audit_entries.seq
    entry_seq INTEGER NOT NULL,
    PRIMARY KEY (ending, entry_seq)
  ) WITHOUT ROWID;
  INSERT INTO audit_approval_endings (ending, entry_seq)
    SELECT a.status, e.seq FROM approvals a JOIN audit_entries e ON e.action_id = a.action_id
    WHERE a.status IN ('rejected', 'expired');
  CREATE TRIGGER audit_entries_approval_ending AFTER INSERT ON audit_entries WHEN new.action_id IS NOT NULL BEGIN
    INSERT OR IGNORE INTO audit_approval_endings (ending, entry_seq)
      SELECT status, new.seq FROM approvals WHERE action_id = new.action_id AND status IN ('rejected', 'expired');
  END;
  CREATE TRIGGER approvals_ending AFTER UPDATE OF status ON approvals WHEN new.status IN ('rejected', 'expired')
  BEGIN
    INSERT OR IGNORE INTO audit_approval_endings (ending, entry_seq)
      SELECT new.status, seq FROM audit_entries WHERE action_id = new.action_id;
  END;
  CREATE TRIGGER approvals_ended AFTER INSERT ON approvals WHEN new.status IN ('rejected', 'expired') BEGIN
    INSERT OR IGNORE INTO audit_approval_endings (ending, entry_seq)
      SELECT new.status, seq FROM audit_entries WHERE action_id = new.action_id;
  END;
`;
