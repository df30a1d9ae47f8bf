import { redactedJson, redactKnownSecretsJson, redactSecrets } from '../vault/redactor';
import type { ActionRecord, ActionState } from '../../shared/contract';
import type { Db } from './database';
import { asRecord, parseStoredJson } from './json';

interface ActionRow {
  id: string;
  run_id: string;
  thread_id: string;
  tool: string;
  args_json: string;
  state: ActionState;
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
  state: row.state,
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
  state: ActionState;
  fingerprint?: string | null;
  meta?: Record<string, unknown> | null;
  hasSideEffects?: boolean;
  isExternal?: boolean;
}

export interface PolicyOutcome {
  decision: string;
  rule: string;
  reason: string;
}

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
  private readonly selectCallId;
  private readonly updateArgs;

  constructor(db: Db) {
    this.selectCallId = db.prepare<[string], { call_id: string }>('SELECT call_id FROM actions WHERE id = ?');
    this.insertAction = db.prepare(
      `INSERT INTO actions (id, run_id, thread_id, call_id, tool, args_json, state, fingerprint, meta_json,
         has_side_effects, is_external, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      `SELECT ${ACTION_COLUMNS} FROM actions WHERE thread_id = ? ORDER BY seq`,
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
      action.meta ? redactedJson(action.meta) : null,
      action.hasSideEffects ? 1 : 0,
      action.isExternal ? 1 : 0,
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

  setState(id: string, state: ActionState, now: string): void {
    this.updateState.run(state, now, id);
  }

  finish(id: string, outcome: { state: ActionState; result?: unknown; error?: string }, now: string): void {
    const resultJson = outcome.result === undefined ? null : redactedJson(outcome.result);
    this.finishAction.run(
      outcome.state,
      resultJson,
      outcome.error === undefined ? null : redactSecrets(outcome.error),
      now,
      id,
    );
  }

  /** The model's call id for an action, which with the run and the arguments makes its idempotency key. */
  callIdOf(id: string): string | null {
    return this.selectCallId.get(id)?.call_id ?? null;
  }

  get(id: string): ActionRecord | null {
    const row = this.selectOne.get(id);
    return row ? toAction(row) : null;
  }

  byThread(threadId: string): ActionRecord[] {
    return this.selectByThread.all(threadId).map(toAction);
  }
}
