/**
 * The audit trail's filter indexes that migration 17 keeps out of a run's step, with their columns. The viewer
 * walks them (see AuditQuery's `indexFor`); nothing on a run's path reads them. The indexes by run and by tool
 * stay whole: spec 002's tool-invocation log (the `tool_invocations` view) is read through them.
 */
export const LISTED_AUDIT_INDEXES: readonly (readonly [name: string, columns: string])[] = [
  ['audit_entries_by_agent', 'agent_id, seq'],
  ['audit_entries_by_category', 'action_category, seq'],
  ['audit_entries_by_risk', 'risk, seq'],
  ['audit_entries_by_decision', 'decision, seq'],
  ['audit_entries_by_time', 'created_at'],
  ['audit_entries_by_decision_type', 'decision, action_type, seq'],
  ['audit_entries_by_decision_category', 'decision, action_category, seq'],
  ['audit_entries_by_decision_risk', 'decision, risk, seq'],
];

/**
 * Migration 17: an audit entry joins the viewer's filter indexes after the fact, as it joins the full-text
 * index since migration 16.
 *
 * Every entry was written into thirteen indexes inside the step that made it: a tenth of a step's time, and
 * ten pages of its commit. Eight of them serve only the viewer's filters. They now hold only entries that are
 * `is_listed`: an entry is written with `is_listed` = 0 and listed by AuditSearchIndex in the batches that
 * index its words (its row in `audit_fts_pending`, `is_new` = 1, says it waits), before any filtered page is
 * read and a little at a time in the background. The indexes a run or the app itself reads (by id, by ledger
 * action, by conversation, by status, by run, by tool) stay whole.
 *
 * Entries already written are listed (the column's default), so the indexes hold what they held. `is_listed`
 * is bookkeeping, not content: the chain's hashes do not cover it.
 */
export const AUDIT_LISTING_SQL = `
  ALTER TABLE audit_entries ADD COLUMN is_listed INTEGER NOT NULL DEFAULT 1 CHECK (is_listed IN (0, 1));
  ${LISTED_AUDIT_INDEXES.map(
    ([name, columns]) =>
      `DROP INDEX ${name};
  CREATE INDEX ${name} ON audit_entries (${columns}) WHERE is_listed = 1;`,
  ).join('\n  ')}
`;
