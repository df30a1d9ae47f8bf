import { redactedJson, redactKnownSecretsJson, redactSecrets } from '../vault/redactor';
import type { ActionRecord, LedgerState } from '../../shared/contract';
import type { Db } from './database';
import { NO_UNIT, type UnitHooks } from './write-unit';
import {
  ACTION_COLUMNS,
  heldEntry,
  toAction,
  toLedgerEntry,
  type ActionRow,
  type ActionValues,
  type LedgerEntry,
  type LedgerRow,
  type NewAction,
  type PolicyOutcome,
} from './action-rows';

const isUndoCall = (callId: string): boolean => callId.startsWith('undo:');

/** What a resumed run or an ending reads of a call (a `LedgerRow`). */
const LEDGER_COLUMNS = `id, run_id, thread_id, call_id, tool, args_json, state, result_json, error, fingerprint,
  idempotency_key, has_side_effects, attempts, names_json`;

/**
 * The ledger of tool calls: one row per (run, call).
 *
 * A read call allowed inside a unit of work is held in memory from its decision to its outcome and written
 * once, finished, instead of inserted and then updated twice: `started` matters only before a side effect, and
 * no one outside the unit could have read the row before it commits. If the unit commits first (the read waits
 * on the network), the row is written as it stands then. Anything else asked of a held row writes it first.
 * Calls with side effects, calls that reach outside (both counted by the rate limits) and calls waiting for
 * approval (an approval points at its row) are written at once, as before.
 */
export class ActionsRepo {
  private readonly insertAction;
  private readonly updateState;
  private readonly finishAction;
  private readonly selectByThread;
  private readonly selectOne;
  private readonly updatePolicy;
  private readonly updateArgs;
  private readonly selectByCall;
  private readonly selectStarted;
  private readonly updateIfIn;
  private readonly startIfIn;
  private readonly incrementAttempts;
  private readonly held = new Map<string, ActionValues>();

  /**
   * `unit`: the store's unit of work: whether one is open, a write to make just before it commits, and memory
   * to undo if the group running now fails. Without one, every row is written at once.
   */
  constructor(
    db: Db,
    private readonly unit: UnitHooks = NO_UNIT,
  ) {
    this.insertAction = db.prepare(
      `INSERT INTO actions (id, run_id, thread_id, call_id, tool, args_json, state, result_json, error, error_code,
         fingerprint, idempotency_key, meta_json, names_json, has_side_effects, is_external, policy_decision,
         policy_rule, policy_reason, attempts, created_at, updated_at)
       VALUES (@id, @runId, @threadId, @callId, @tool, @argsJson, @state, @resultJson, @error, @errorCode,
         @fingerprint, @idempotencyKey, @metaJson, @namesJson, @hasSideEffects, @isExternal, @policyDecision,
         @policyRule, @policyReason, @attempts, @createdAt, @updatedAt)`,
    );
    this.selectByCall = db.prepare<[string, string], LedgerRow>(
      `SELECT ${LEDGER_COLUMNS} FROM actions WHERE run_id = ? AND call_id = ?`,
    );
    this.selectStarted = db.prepare<[string], LedgerRow>(
      `SELECT ${LEDGER_COLUMNS} FROM actions WHERE run_id = ? AND state = 'started' AND call_id NOT LIKE 'undo:%' ORDER BY seq`,
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
      'UPDATE actions SET state = ?, result_json = ?, error = ?, error_code = ?, updated_at = ? WHERE id = ?',
    );
    this.selectByThread = db.prepare<[string], ActionRow>(
      // An undo taken from the audit trail is not a call of the conversation: its card is the original's.
      `SELECT ${ACTION_COLUMNS} FROM actions WHERE thread_id = ? AND call_id NOT LIKE 'undo:%' ORDER BY seq`,
    );
    this.selectOne = db.prepare<[string], ActionRow>(`SELECT ${ACTION_COLUMNS} FROM actions WHERE id = ?`);
  }

  create(action: NewAction, now: string): void {
    const values: ActionValues = {
      id: action.id,
      runId: action.runId,
      threadId: action.threadId,
      callId: action.callId,
      tool: action.tool,
      argsJson: redactKnownSecretsJson(action.args),
      state: action.state,
      resultJson: null,
      error: null,
      errorCode: null,
      fingerprint: action.fingerprint ?? null,
      idempotencyKey: action.idempotencyKey ?? null,
      metaJson: action.meta ? redactedJson(action.meta) : null,
      namesJson: action.names ? redactedJson(action.names) : null,
      hasSideEffects: action.hasSideEffects ? 1 : 0,
      isExternal: action.isExternal ? 1 : 0,
      policyDecision: action.policy?.decision ?? null,
      policyRule: action.policy?.rule ?? null,
      policyReason: action.policy?.reason ?? null,
      attempts: 0,
      createdAt: now,
      updatedAt: now,
    };
    const isHeld =
      action.state === 'approved' &&
      !action.hasSideEffects &&
      !action.isExternal &&
      this.unit.openUnit !== null;
    if (!isHeld) {
      this.insertAction.run(values);
      return;
    }
    this.hold(action.id, values);
    this.unit.atCommit(`action:${action.id}`, () => this.writeHeld(action.id));
  }

  /** Holds `values` as the row's newest version; the one before comes back if the group running now fails. */
  private hold(id: string, values: ActionValues): void {
    const before = this.held.get(id);
    this.held.set(id, values);
    this.unit.onRollback(() => {
      if (this.held.get(id) !== values) return;
      if (before) this.held.set(id, before);
      else this.held.delete(id);
    });
  }

  /**
   * Writes a held row (if the call's row is held). Written inside a group that then fails (or refused by the
   * disk), the row goes back and is held again; the write `create` left for the commit still stands for it.
   */
  private writeHeld(id: string): void {
    const values = this.held.get(id);
    if (!values) return;
    this.held.delete(id);
    this.unit.onRollback(() => {
      if (!this.held.has(id)) this.held.set(id, values);
    });
    this.insertAction.run(values);
  }

  private writeAllHeld(): void {
    for (const id of [...this.held.keys()]) this.writeHeld(id);
  }

  /** Records which policy rule decided the call, and why: every decision is explained. */
  setPolicy(id: string, outcome: PolicyOutcome, now: string): void {
    this.writeHeld(id);
    this.updatePolicy.run(outcome.decision, outcome.rule, outcome.reason, now, id);
  }

  replaceArgs(id: string, args: Record<string, unknown>, fingerprint: string, now: string): void {
    this.writeHeld(id);
    this.updateArgs.run(redactKnownSecretsJson(args), fingerprint, now, id);
  }

  setState(id: string, state: LedgerState, now: string): void {
    this.writeHeld(id);
    this.updateState.run(state, now, id);
  }

  /**
   * Writes `started` with the idempotency key the side effect will carry (the key of the arguments actually
   * run, after any edit) and counts the attempt, only from one of `from`. True when this call changed the row.
   */
  markStarted(id: string, from: readonly LedgerState[], idempotencyKey: string, now: string): boolean {
    const held = this.held.get(id);
    if (held) {
      if (!from.includes(held.state)) return false;
      this.hold(id, {
        ...held,
        state: 'started',
        idempotencyKey,
        attempts: held.attempts + 1,
        updatedAt: now,
      });
      return true;
    }
    return this.startIfIn.run(idempotencyKey, now, id, JSON.stringify(from)).changes === 1;
  }

  /**
   * Moves a call to `to` only when it is still in one of `from`: the check and the write are one statement,
   * so a state is claimed once (a call is `started` once, a `started` call is reconciled once).
   * True when this call changed the row.
   */
  transition(id: string, from: readonly LedgerState[], to: LedgerState, now: string): boolean {
    this.writeHeld(id);
    return this.updateIfIn.run(to, now, id, JSON.stringify(from)).changes === 1;
  }

  /** Counts one more try at running the call (retries, resumes) and returns the new count, to cap them. */
  countAttempt(id: string, now: string): number {
    this.writeHeld(id);
    const row = this.incrementAttempts.get(now, id);
    if (!row) throw new Error(`Cannot count an attempt of action ${id}: it is not in the ledger.`);
    return row.attempts;
  }

  /** `errorCode`: what `error` says, for a reader to tell apart (`cancelled`: cut off because its run stopped). */
  finish(
    id: string,
    outcome: { state: LedgerState; result?: unknown; error?: string; errorCode?: string },
    now: string,
  ): void {
    const resultJson = outcome.result === undefined ? null : redactedJson(outcome.result);
    const error = outcome.error === undefined ? null : redactSecrets(outcome.error);
    const errorCode = outcome.errorCode ?? null;
    const held = this.held.get(id);
    if (held) {
      // The call's one write: the row as it ends.
      this.hold(id, { ...held, state: outcome.state, resultJson, error, errorCode, updatedAt: now });
      this.writeHeld(id);
      return;
    }
    this.finishAction.run(outcome.state, resultJson, error, errorCode, now, id);
  }

  /** The ledger entry of a model call in a run, found by the key a resumed run knows it by. */
  byCall(runId: string, callId: string): LedgerEntry | null {
    for (const values of this.held.values()) {
      if (values.runId === runId && values.callId === callId) return heldEntry(values);
    }
    const row = this.selectByCall.get(runId, callId);
    return row ? toLedgerEntry(row) : null;
  }

  /**
   * The run's calls still `started` (a held one too), for its ending to settle (cut-off-calls.ts). An undo taken
   * from the audit trail carries its original's run but is not a call of it: it may still be running, and is its own.
   */
  startedInRun(runId: string): LedgerEntry[] {
    const held = [...this.held.values()]
      .filter((values) => values.runId === runId && values.state === 'started' && !isUndoCall(values.callId))
      .map(heldEntry);
    return [...this.selectStarted.all(runId).map(toLedgerEntry), ...held];
  }

  get(id: string): ActionRecord | null {
    this.writeHeld(id);
    const row = this.selectOne.get(id);
    return row ? toAction(row) : null;
  }

  byThread(threadId: string): ActionRecord[] {
    this.writeAllHeld();
    return this.selectByThread.all(threadId).map(toAction);
  }
}
