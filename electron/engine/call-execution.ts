import { isoTime } from '../../shared/iso-time';
import { noteResult } from './sop';
import { redactValue } from '../vault/redactor';
import type { Reach, ToolEffect } from '../tools/tool';
import { keyOf, toolContext, type CallScope } from './call-context';
import { errorForModel, isCutOff, runWithRetries } from './call-retries';
import { undoFieldsOf } from './audit-entries';
import { logRuntime } from './journal';
import { lookForCutOff } from './reconcile';
import type { CheckedCall } from './run-deps';
import type { CallPart, LastAction, RunState } from './run-state';

/**
 * Puts a call's result into the state and checkpoints it. Always called inside the transaction that records
 * the call's outcome in the ledger, so the ledger and the checkpoint never disagree.
 */
export function settle(
  scope: CallScope,
  call: CallPart,
  result: Record<string, unknown>,
  action: LastAction | null,
): void {
  const { state } = scope;
  putResult(state, call, result);
  state.awaiting = state.awaiting.filter((entry) => entry.call.callId !== call.callId);
  if (action) state.lastAction = { id: action.id, tool: action.tool };
  // A result that ran (a replayed one too) counts toward the SOP phase's gate, in the same checkpoint.
  if (action && !('error' in result)) noteResult(scope.spec, state);
  scope.deps.checkpoints.save(scope.spec, state);
}

/** Answers a call that is not run (contract broken, one call per turn) without touching the ledger. */
export function answerUnrun(scope: CallScope, call: CallPart, code: string, message: string): void {
  putResult(scope.state, call, { error: { code, message } });
}

/** A control call's answer (`state_intent`): it goes back to the model with the turn's other results. */
export function answerControl(scope: CallScope, call: CallPart, result: Record<string, unknown>): void {
  putResult(scope.state, call, result);
}

/**
 * The call leaves the open calls with its result among the turn's (replacing one it may already have). A result
 * enters the state redacted (a token inside a mail, a key in a service's error), so the model never sees it and
 * the checkpoint, the ledger and the events hold the same text.
 */
function putResult(state: RunState, call: CallPart, result: Record<string, unknown>): void {
  state.pendingCalls = state.pendingCalls.filter((pending) => pending.callId !== call.callId);
  state.turnResults = [
    ...state.turnResults.filter((part) => part.callId !== call.callId),
    // Frozen: what a result says is read once for the run's provenance and kept (run-provenance.ts).
    Object.freeze({
      kind: 'result',
      callId: call.callId,
      name: call.name,
      result: redactValue(result),
    } as const),
  ];
}

/** Holds a call for the user's decision (inside the transaction that created or found its approval). */
export function hold(scope: CallScope, call: CallPart, actionId: string, approvalId: string): void {
  const { state } = scope;
  state.pendingCalls = state.pendingCalls.filter((pending) => pending.callId !== call.callId);
  if (!state.awaiting.some((entry) => entry.call.callId === call.callId))
    state.awaiting = [...state.awaiting, { call, actionId, approvalId }];
  scope.deps.checkpoints.save(scope.spec, state);
}

/**
 * Runs an approved call: `started` is written (with its checkpoint) before the tool is called and `committed`
 * or `failed` (with the result, the events and the checkpoint) after, each in one transaction. Transient
 * failures are retried with backoff and the same idempotency key, so a retried side effect is found, not
 * repeated; the final error goes back to the model.
 */
export async function executeAction(
  scope: CallScope,
  actionId: string,
  call: CallPart,
  check: CheckedCall,
  how: {
    /** The notice to show once it is done ("notify" autonomy), or null. */
    notify: string | null;
    /** Whom it reaches, as read before the decision; they count as contacted once it is done. */
    reach: Reach | null;
    /** The person approved this very call. */
    isConfirmed: boolean;
  },
): Promise<Record<string, unknown> | null> {
  const { notify, reach } = how;
  const { deps, spec, state } = scope;
  const ids = { runId: spec.runId, threadId: spec.threadId };
  const { tool } = check;
  // A call asked about again after a crash keeps the key its first attempt carried, so that attempt is found.
  const known = deps.store.actions.byCall(spec.runId, call.callId);
  const key =
    known?.ledgerState === 'unknown' && known.idempotencyKey
      ? known.idempotencyKey
      : keyOf(spec, call, check);
  deps.store.transaction(() => {
    deps.store.actions.markStarted(
      actionId,
      ['approved', 'awaiting_confirmation', 'unknown', 'started'],
      key,
      isoTime(deps.now()),
    );
    logRuntime(deps, spec, 'tool_call_start', state.step, { tool: tool.name, actionId }, call.callId);
    deps.checkpoints.save(spec, state);
  });
  // `started` is on disk before a side effect begins (a read may simply run again after a crash). A write to
  // this database alone commits with its record instead (Tool.isStoreOnly).
  if (tool.hasSideEffects && !tool.isStoreOnly) deps.store.writes.boundary();
  // The unit holding `started` (null outside a step): while it stays open, a store-only write is in it too.
  const startedIn = deps.store.writes.openUnit;

  const startedAt = deps.now();
  const before = await readBefore(scope, actionId, call, check, key);
  // Handed the names the call was decided with, as stored: a result says the same after a restart as before one.
  const handed = { key, isConfirmed: how.isConfirmed, names: known?.names };
  const tried = await runWithRetries(scope, actionId, call, check, handed);
  const { attempts } = tried;
  const outcome =
    !tried.outcome.ok && tool.hasSideEffects && isCutOff(tried.outcome)
      ? await lookForCutOff(scope, actionId, call, check, handed, tried.outcome)
      : tried.outcome;
  const action: LastAction = { id: actionId, tool: tool.name };
  // Something committed that unit during the call (a retry's wait, a call beside this one): `started` and maybe
  // the write are on disk without the outcome, which is then made durable at once, as an outside effect's is.
  const isOneUnit =
    tool.isStoreOnly === true && startedIn !== null && deps.store.writes.openUnit === startedIn;
  deps.store.transaction(() => {
    const now = isoTime(deps.now());
    if (outcome.ok) {
      deps.store.actions.finish(actionId, { state: 'committed', result: outcome.result }, now);
      deps.store.audit.settle(
        actionId,
        {
          status: 'completed',
          output: outcome.result,
          outputRef: `ledger:${actionId}`,
          effect: effectOf(tool, check.input, outcome.result, before),
          ...timing(startedAt, now),
        },
        now,
      );
      // Everyone the effect reached counts as contacted from now on, not only the addresses in the call.
      const recipients = [
        ...(tool.recipients?.(check.input) ?? []),
        ...(reach?.recipients.map((recipient) => recipient.address) ?? []),
      ];
      if (recipients.length > 0) deps.store.policy.rememberRecipients([...new Set(recipients)], now);
      deps.emit({
        type: 'tool_result',
        ...ids,
        actionId,
        tool: tool.name,
        state: 'completed',
        result: outcome.result,
        ...undoFieldsOf(tool),
      });
      settle(scope, call, outcome.result, action);
    } else {
      const { message, errorCode } = outcome;
      deps.store.actions.finish(actionId, { state: 'failed', error: message, errorCode }, now);
      deps.store.audit.settle(
        actionId,
        { status: 'failed', errorMessage: outcome.message, ...timing(startedAt, now) },
        now,
      );
      deps.emit({
        type: 'tool_result',
        ...ids,
        actionId,
        tool: tool.name,
        state: 'failed',
        error: outcome.message,
        code: outcome.errorCode,
      });
      settle(scope, call, errorForModel(outcome, attempts, tool.hasSideEffects), action);
    }
    logRuntime(
      deps,
      spec,
      'tool_call_end',
      state.step,
      {
        tool: tool.name,
        actionId,
        ok: outcome.ok,
        attempts,
        ...(!outcome.ok && { errorCode: outcome.errorCode }),
      },
      call.callId,
    );
  });
  // A side effect's outcome is made durable at once: redoing it would mean reconciling with the service. A write
  // to this database alone, still in the unit that holds its `started`, commits with its outcome at the step's
  // next boundary: a crash before then loses all three together.
  if (tool.hasSideEffects && !isOneUnit) deps.store.writes.boundary();
  if (outcome.ok && notify) deps.emit({ type: 'notice', ...ids, actionId, tool: tool.name, message: notify });
  return outcome.ok ? outcome.result : null;
}

/**
 * The thing the call will change, as it is now, for the entry's before/after and for undo. The audit trail
 * must never stop an action: a failed read is logged and the entry simply has no "before".
 */
async function readBefore(
  scope: CallScope,
  actionId: string,
  call: CallPart,
  check: CheckedCall,
  key: string,
): Promise<unknown> {
  const read = check.tool.before?.bind(check.tool);
  if (!read) return null;
  try {
    return (await read(check.input, toolContext(scope, actionId, call, check, { key }))) ?? null;
  } catch (error) {
    scope.deps.logError(`reading what ${check.tool.name} will change failed`, error);
    return null;
  }
}

function timing(startedAt: Date, now: string): { startedAt: string; durationMs: number } {
  return {
    startedAt: isoTime(startedAt),
    durationMs: Math.max(0, Date.parse(now) - startedAt.getTime()),
  };
}

function effectOf(
  tool: CheckedCall['tool'],
  input: unknown,
  output: Record<string, unknown>,
  before: unknown,
): ToolEffect | null {
  return tool.effect ? tool.effect(input, output, before) : null;
}
