import { redactedJson, redactKnownSecretsJson, redactSecrets } from '../vault/redactor';
import { contractStateOf, type ActionRecord, type LedgerState } from '../../shared/contract';
import type { Db } from './database';
import { asRecord, parseStoredJson } from './json';

interface ActionRow {
  id: string;
  run_id: string;
  thread_id: string;
  tool: string;
  args_json: string;
  state: LedgerState;
  result_json: string | null;
  error: string | null;
  policy_decision: string | null;
  policy_rule: string | null;
  policy_reason: string | null;
  created_at: string;
}

const toAction = (row: ActionRow): ActionRecord => ({
  id: row.id,
  runId: row.run_id,
  threadId: row.thread_id,
  tool: row.tool,
  args: asRecord(parseStoredJson(row.args_json)),
  state: contractStateOf(row.state),
  ledgerState: row.state,
  ...(row.result_json !== null && { result: parseStoredJson(row.result_json) }),
  error: row.error,
  policy:
    row.policy_decision && row.policy_rule
      ? { decision: row.policy_decision, rule: row.policy_rule, reason: row.policy_reason ?? '' }
      : null,
  createdAt: row.created_at,
});

export interface NewAction {
  id: string;
  runId: string;
  threadId: string;
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  state: LedgerState;
  fingerprint?: string | null;
  /** Sent with the call so the service can drop a repeat; derived from run, call and arguments by the engine. */
  idempotencyKey?: string | null;
  meta?: Record<string, unknown> | null;
  hasSideEffects?: boolean;
  isExternal?: boolean;
  /** The policy's decision, when it is known as the row is made (see `setPolicy`). */
  policy?: PolicyOutcome;
}

export interface PolicyOutcome {
  decision: string;
  rule: string;
  reason: string;
}

/**
 * What resuming a run needs to know about one call: whether it already happened (`committed`, with its stored
 * result to replay), may have happened (`started`, `unknown`), and how to look for its effect.
 */
export interface LedgerEntry {
  id: string;
  runId: string;
  threadId: string;
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  ledgerState: LedgerState;
  result: Record<string, unknown> | null;
  error: string | null;
  fingerprint: string | null;
  idempotencyKey: string | null;
  hasSideEffects: boolean;
  attempts: number;
}

interface LedgerRow {
  id: string;
  run_id: string;
  thread_id: string;
  call_id: string;
  tool: string;
  args_json: string;
  state: LedgerState;
  result_json: string | null;
  error: string | null;
  fingerprint: string | null;
  idempotency_key: string | null;
  has_side_effects: number;
  attempts: number;
}

const toLedgerEntry = (row: LedgerRow): LedgerEntry => ({
  id: row.id,
  runId: row.run_id,
  threadId: row.thread_id,
  callId: row.call_id,
  tool: row.tool,
  args: asRecord(parseStoredJson(row.args_json)),
  ledgerState: row.state,
  result: row.result_json === null ? null : asRecord(parseStoredJson(row.result_json)),
  error: row.error,
  fingerprint: row.fingerprint,
  idempotencyKey: row.idempotency_key,
  hasSideEffects: row.has_side_effects === 1,
  attempts: row.attempts,
});

const ACTION_COLUMNS =
  'id, run_id, thread_id, tool, args_json, state, result_json, error, policy_decision, policy_rule, policy_reason, created_at';

/** The ledger of tool calls: one row per (run, call). */
export class ActionsRepo {
  private readonly insertAction;
  private readonly updateState;
  private readonly finishAction;
  private readonly selectByThread;
  private readonly selectOne;
  private readonly updatePolicy;
  private readonly updateArgs;
  private readonly selectByCall;
  private readonly updateIfIn;
  private readonly startIfIn;
  private readonly incrementAttempts;

  constructor(db: Db) {
    this.insertAction = db.prepare(
      `INSERT INTO actions (id, run_id, thread_id, call_id, tool, args_json, state, fingerprint, idempotency_key,
         meta_json, has_side_effects, is_external, policy_decision, policy_rule, policy_reason, created_at,
         updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectByCall = db.prepare<[string, string], LedgerRow>(
      `SELECT id, run_id, thread_id, call_id, tool, args_json, state, result_json, error, fingerprint,
         idempotency_key, has_side_effects, attempts
       FROM actions WHERE run_id = ? AND call_id = ?`,
    );
    // One statement, so two resumers racing for the same call cannot both move it.
    this.updateIfIn = db.prepare(
      'UPDATE actions SET state = ?, updated_at = ? WHERE id = ? AND state IN (SELECT value FROM json_each(?))',
    );
    this.startIfIn = db.prepare(
      `UPDATE actions SET state = 'started', idempotency_key = ?, attempts = attempts + 1, updated_at = ?
       WHERE id = ? AND state IN (SELECT value FROM json_each(?))`,
    );
    this.incrementAttempts = db.prepare<[string, string], { attempts: number }>(
      'UPDATE actions SET attempts = attempts + 1, updated_at = ? WHERE id = ? RETURNING attempts',
    );
    this.updatePolicy = db.prepare(
      'UPDATE actions SET policy_decision = ?, policy_rule = ?, policy_reason = ?, updated_at = ? WHERE id = ?',
    );
    this.updateArgs = db.prepare(
      'UPDATE actions SET args_json = ?, fingerprint = ?, updated_at = ? WHERE id = ?',
    );
    this.updateState = db.prepare('UPDATE actions SET state = ?, updated_at = ? WHERE id = ?');
    this.finishAction = db.prepare(
      'UPDATE actions SET state = ?, result_json = ?, error = ?, updated_at = ? WHERE id = ?',
    );
    this.selectByThread = db.prepare<[string], ActionRow>(
      // An undo taken from the audit trail is not a call of the conversation: its card is the original's.
      `SELECT ${ACTION_COLUMNS} FROM actions WHERE thread_id = ? AND call_id NOT LIKE 'undo:%' ORDER BY seq`,
    );
    this.selectOne = db.prepare<[string], ActionRow>(`SELECT ${ACTION_COLUMNS} FROM actions WHERE id = ?`);
  }

  create(action: NewAction, now: string): void {
    this.insertAction.run(
      action.id,
      action.runId,
      action.threadId,
      action.callId,
      action.tool,
      redactKnownSecretsJson(action.args),
      action.state,
      action.fingerprint ?? null,
      action.idempotencyKey ?? null,
      action.meta ? redactedJson(action.meta) : null,
      action.hasSideEffects ? 1 : 0,
      action.isExternal ? 1 : 0,
      action.policy?.decision ?? null,
      action.policy?.rule ?? null,
      action.policy?.reason ?? null,
      now,
      now,
    );
  }

  /** Records which policy rule decided the call, and why: every decision is explained. */
  setPolicy(id: string, outcome: PolicyOutcome, now: string): void {
    this.updatePolicy.run(outcome.decision, outcome.rule, outcome.reason, now, id);
  }

  replaceArgs(id: string, args: Record<string, unknown>, fingerprint: string, now: string): void {
    this.updateArgs.run(redactKnownSecretsJson(args), fingerprint, now, id);
  }

  setState(id: string, state: LedgerState, now: string): void {
    this.updateState.run(state, now, id);
  }

  /**
   * Writes `started` with the idempotency key the side effect will carry (the key of the arguments actually
   * run, after any edit) and counts the attempt, only from one of `from`. True when this call changed the row.
   */
  markStarted(id: string, from: readonly LedgerState[], idempotencyKey: string, now: string): boolean {
    return this.startIfIn.run(idempotencyKey, now, id, JSON.stringify(from)).changes === 1;
  }

  /**
   * Moves a call to `to` only when it is still in one of `from`: the check and the write are one statement,
   * so a state is claimed once (a call is `started` once, a `started` call is reconciled once).
   * True when this call changed the row.
   */
  transition(id: string, from: readonly LedgerState[], to: LedgerState, now: string): boolean {
    return this.updateIfIn.run(to, now, id, JSON.stringify(from)).changes === 1;
  }

  /** Counts one more try at running the call (retries, resumes) and returns the new count, to cap them. */
  countAttempt(id: string, now: string): number {
    const row = this.incrementAttempts.get(now, id);
    if (!row) throw new Error(`Cannot count an attempt of action ${id}: it is not in the ledger.`);
    return row.attempts;
  }

  finish(id: string, outcome: { state: LedgerState; result?: unknown; error?: string }, now: string): void {
    const resultJson = outcome.result === undefined ? null : redactedJson(outcome.result);
    this.finishAction.run(
      outcome.state,
      resultJson,
      outcome.error === undefined ? null : redactSecrets(outcome.error),
      now,
      id,
    );
  }

  /** The ledger entry of a model call in a run, found by the key a resumed run knows it by. */
  byCall(runId: string, callId: string): LedgerEntry | null {
    const row = this.selectByCall.get(runId, callId);
    return row ? toLedgerEntry(row) : null;
  }

  get(id: string): ActionRecord | null {
    const row = this.selectOne.get(id);
    return row ? toAction(row) : null;
  }

  byThread(threadId: string): ActionRecord[] {
    return this.selectByThread.all(threadId).map(toAction);
  }
}
