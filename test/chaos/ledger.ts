import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * What the host's database says, read directly (read-only) between two lives of the host, so the checks see
 * what a restart would start from, not what the API chooses to show.
 */
export interface LedgerRun {
  id: string;
  prompt: string;
  status: string;
  errorCode: string | null;
  errorMessage: string | null;
}

export interface LedgerAction {
  id: string;
  runId: string;
  callId: string;
  tool: string;
  state: string;
  error: string | null;
}

export interface LedgerSnapshot {
  /** PRAGMA user_version: 4 and later have the ledger states (`committed`…). */
  schemaVersion: number;
  runs: LedgerRun[];
  actions: LedgerAction[];
  approvals: LedgerApproval[];
  /** Run ids with at least one pending approval: a run waiting on one of these can still go on. */
  runsWithPendingApproval: Set<string>;
}

export interface LedgerApproval {
  id: string;
  runId: string;
  tool: string;
  status: string;
}

/** The ledger state of a side effect that happened and was recorded; before the v4 migration it was `completed`. */
export const committedState = (schemaVersion: number): string =>
  schemaVersion >= 4 ? 'committed' : 'completed';

export const databasePath = (dataDir: string): string => join(dataDir, 'deputy.db');

export function readLedger(dataDir: string, tools: readonly string[]): LedgerSnapshot {
  const path = databasePath(dataDir);
  if (!existsSync(path)) throw new Error(`there is no database at ${path} yet`);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    const runs = db
      .prepare('SELECT id, prompt, status, error_code AS errorCode, error_message AS errorMessage FROM runs')
      .all() as LedgerRun[];
    const placeholders = tools.map(() => '?').join(', ');
    const actions = db
      .prepare(
        `SELECT id, run_id AS runId, call_id AS callId, tool, state, error FROM actions
         WHERE tool IN (${placeholders}) ORDER BY seq`,
      )
      .all(...tools) as LedgerAction[];
    const approvals = db
      .prepare('SELECT id, run_id AS runId, tool, status FROM approvals ORDER BY created_at')
      .all() as LedgerApproval[];
    const pending = approvals.filter((approval) => approval.status === 'pending');
    return {
      schemaVersion,
      runs,
      actions,
      approvals,
      runsWithPendingApproval: withWaitingParents(db, new Set(pending.map((approval) => approval.runId))),
    };
  } finally {
    db.close();
  }
}

/** A model turn started again after its answer was logged: the issue says the model is never asked twice. */
export interface ReaskedTurn {
  runId: string;
  turn: number;
}

/**
 * Turns whose `turn_start` was logged after a `turn_end` of the same run and turn. Asking again for a turn cut
 * off mid-answer is expected after a kill; asking again for one whose answer is already in the log is not.
 */
export function readReaskedTurns(dataDir: string): ReaskedTurn[] {
  const db = new Database(databasePath(dataDir), { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // Rows of the old events table (before migration 15), then the journal's, in the order they were written.
    const hasJournal = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'journal_events'").get();
    const logged = `SELECT run_id, event_type, json_extract(payload, '$.turn') AS turn, 0 AS era, id AS seq
       FROM events
       ${hasJournal ? 'UNION ALL SELECT run_id, event_type, turn, 1 AS era, seq FROM journal_events' : ''}`;
    return db
      .prepare(
        `WITH logged AS (${logged})
         SELECT started.run_id AS runId, started.turn AS turn
         FROM logged AS started
         WHERE started.event_type = 'turn_start'
           AND EXISTS (
             SELECT 1 FROM logged AS ended
             WHERE ended.run_id = started.run_id AND ended.event_type = 'turn_end'
               AND (ended.era, ended.seq) < (started.era, started.seq) AND ended.turn = started.turn)`,
      )
      .all() as ReaskedTurn[];
  } finally {
    db.close();
  }
}

/**
 * A parent waits while its agent child waits for an approval: it too can still go on. The lineage table came
 * with agents (migration 12); older databases have none.
 */
function withWaitingParents(db: Database.Database, waiting: Set<string>): Set<string> {
  const hasLineage = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'agent_lineage'")
    .get();
  if (!hasLineage) return waiting;
  const parentOf = new Map(
    (
      db.prepare('SELECT run_id AS runId, parent_run_id AS parentRunId FROM agent_lineage').all() as {
        runId: string;
        parentRunId: string | null;
      }[]
    ).map((row) => [row.runId, row.parentRunId]),
  );
  for (const runId of [...waiting]) {
    for (let parent = parentOf.get(runId); parent; parent = parentOf.get(parent)) waiting.add(parent);
  }
  return waiting;
}
