import type { LedgerEntry } from '../store/action-rows';
import type { ReconcileOutcome, ToolOutcome } from '../tools/registry';
import { toolContext, type CallScope, type HandedAs } from './call-context';
import { executeAction, settle } from './call-execution';
import { noteFailure } from './call-retries';
import type { CallOutcome } from './call-processor';
import { requestApproval } from './call-approval';
import { undoFieldsOf } from './audit-entries';
import { logRuntime } from './journal';
import { errorSignature } from './retry';
import type { CheckedCall } from './run-deps';
import type { CallPart, LastAction } from './run-state';

/**
 * A call that was `started` when Deputy stopped. A read-only one simply runs again. A side effect is looked for
 * first (the tool's `reconcile`, by the call's idempotency key): found → committed with what was found; not
 * found, or not checkable → `unknown`, and the user is asked. It is never blindly sent again.
 */
export async function reconcileStarted(
  scope: CallScope,
  call: CallPart,
  entry: LedgerEntry,
): Promise<CallOutcome> {
  const { deps, spec, state } = scope;
  const check = deps.registry.check(entry.tool, entry.args);
  if (!check.ok) {
    const message = `Deputy stopped while this call was running and can no longer check it: ${check.message}`;
    deps.store.transaction(() => {
      deps.store.actions.finish(entry.id, { state: 'unknown', error: message }, deps.now().toISOString());
      logRuntime(
        deps,
        spec,
        'recovery',
        state.step,
        { tool: entry.tool, reconciled: 'uncheckable' },
        call.callId,
      );
      settle(scope, call, { error: { code: 'outcome_unknown', message } }, null);
    });
    return { kind: 'settled' };
  }
  if (!check.tool.hasSideEffects) {
    deps.store.transaction(() =>
      logRuntime(deps, spec, 'recovery', state.step, { tool: entry.tool, reconciled: 'rerun' }, call.callId),
    );
    await executeAction(scope, entry.id, call, check, { notify: null, reach: null, isConfirmed: false });
    return { kind: 'settled' };
  }

  const found = await lookUp(scope, call, entry, check);
  const ids = { runId: spec.runId, threadId: spec.threadId };
  if (found.kind === 'found') {
    const action: LastAction = { id: entry.id, tool: entry.tool };
    deps.store.transaction(() => {
      commitFound(scope, call, entry, check.tool, found.result);
      settle(scope, call, found.result, action);
    });
    return { kind: 'settled' };
  }

  const why =
    found.kind === 'absent'
      ? `Deputy stopped while doing this and found no trace that it happened.`
      : found.kind === 'unsupported'
        ? `Deputy stopped while doing this and cannot check whether it happened.`
        : `Deputy stopped while doing this and could not check whether it happened (${found.message}).`;
  const reason = `${why} Approve to do it now${
    found.kind === 'absent' || found.kind === 'failed'
      ? ' (if it did happen, it is found and not done twice)'
      : ''
  }, or reject to leave it.`;
  // `unknown` and the question to the user land together: a crash between them must not leave an old approval.
  return deps.store.transaction((): CallOutcome => {
    deps.store.actions.setState(entry.id, 'unknown', deps.now().toISOString());
    deps.emit({
      type: 'tool_call',
      ...ids,
      actionId: entry.id,
      tool: entry.tool,
      args: check.args,
      state: 'awaiting_confirmation',
    });
    logRuntime(deps, spec, 'recovery', state.step, { tool: entry.tool, reconciled: found.kind }, call.callId);
    const approval = requestApproval(scope, call, entry.id, check, {
      level: 'confirm',
      reason,
      rule: RESUME_RULE,
    });
    return { kind: 'held', approval };
  });
}

/** The rule of an approval that asks whether to do again what may not have happened. */
export const RESUME_RULE = 'resume.outcome_unknown';

/**
 * Records a `started` call's effect as found by its look-up: committed with what was found, its audit entry
 * completed, its card done. The caller holds the transaction (and puts the result where its run needs it).
 */
export function commitFound(
  scope: CallScope,
  call: CallPart,
  entry: LedgerEntry,
  tool: CheckedCall['tool'],
  result: Record<string, unknown>,
): void {
  const { deps, spec, state } = scope;
  const now = deps.now().toISOString();
  deps.store.actions.finish(entry.id, { state: 'committed', result }, now);
  deps.store.audit.settle(
    entry.id,
    { status: 'completed', output: result, outputRef: `ledger:${entry.id}` },
    now,
  );
  deps.emit({
    type: 'tool_result',
    runId: spec.runId,
    threadId: spec.threadId,
    actionId: entry.id,
    tool: entry.tool,
    state: 'completed',
    result,
    ...undoFieldsOf(tool),
  });
  logRuntime(deps, spec, 'recovery', state.step, { tool: entry.tool, reconciled: 'found' }, call.callId);
  logRuntime(
    deps,
    spec,
    'tool_call_end',
    state.step,
    { tool: entry.tool, actionId: entry.id, ok: true, reconciled: true },
    call.callId,
  );
}

/**
 * The tool's look-up for the effect a `started` call may have made. The key the effect carries is the one
 * recorded when it started (recomputing it from stored arguments could differ).
 */
export function lookUpOnce(
  scope: CallScope,
  call: CallPart,
  entry: LedgerEntry,
  check: CheckedCall,
  signal: AbortSignal = scope.spec.signal,
): Promise<ReconcileOutcome> {
  const context = toolContext(scope, entry.id, call, check, {
    key: entry.idempotencyKey ?? undefined,
    names: entry.names,
  });
  return scope.deps.registry.reconcile(check, { ...context, signal });
}

/** The tool's look-up, retried like any call while it fails transiently (the service may still be waking up). */
async function lookUp(
  scope: CallScope,
  call: CallPart,
  entry: LedgerEntry,
  check: CheckedCall,
): Promise<ReconcileOutcome> {
  const { deps, spec } = scope;
  for (let retries = 0; ; retries += 1) {
    const outcome = await lookUpOnce(scope, call, entry, check);
    if (outcome.kind !== 'failed') return outcome;
    const verdict = noteFailure(
      scope,
      {
        transient: outcome.transient,
        retryAfterSeconds: outcome.retryAfterSeconds,
        signature: errorSignature(`${entry.tool}.reconcile`, 'failed', outcome.message),
      },
      retries,
      call,
      { tool: entry.tool, reconcile: true },
    );
    if (!verdict.retry) return outcome;
    try {
      await deps.sleep(verdict.delayMs, spec.signal);
    } catch {
      return outcome;
    }
  }
}

/** How long the look-up for a side effect cut off on its way may take: a stopped run should end soon. */
export const CUT_OFF_LOOK_UP_MS = 10_000;

/**
 * A side effect cut off on its way is looked for at once, by its idempotency key (the tool's `reconcile`), so
 * the ledger does not say "failed" of an email that went or an event that exists. Found: it is recorded as
 * done, with what was found. Not found, or no way to look: it stays failed, and the person and the model are
 * told it may have been sent. The look-up has a short time limit of its own and goes on when the run was
 * cancelled: that is when it matters.
 */
export async function lookForCutOff(
  scope: CallScope,
  actionId: string,
  call: CallPart,
  check: CheckedCall,
  handed: HandedAs,
  outcome: Extract<ToolOutcome, { ok: false }>,
): Promise<ToolOutcome> {
  const { deps, spec, state } = scope;
  // Deputy is closing (its database already is): the call stays `started`, and the next start looks for it.
  if (!deps.store.db.open) return outcome;
  const signal = AbortSignal.timeout(CUT_OFF_LOOK_UP_MS);
  const context = { ...toolContext(scope, actionId, call, check, handed), signal };
  const found = await deps.registry.reconcile(check, context, (error) =>
    deps.logError(`tool ${check.tool.name} failed unexpectedly while looking for what it did`, error),
  );
  deps.store.transaction(() =>
    logRuntime(
      deps,
      spec,
      'recovery',
      state.step,
      { tool: check.tool.name, reconciled: found.kind, cutOff: outcome.errorCode },
      call.callId,
    ),
  );
  if (found.kind === 'found') return { ok: true, tool: check.tool, args: check.args, result: found.result };
  // The request may be with the service still, so "not found yet" is not "did not happen".
  const after =
    found.kind === 'absent'
      ? 'It may have been sent before it was stopped: Deputy found no sign of it yet, but it may still happen.'
      : 'It may have been sent before it was stopped, and Deputy could not check whether it happened.';
  return { ...outcome, message: `${outcome.message} ${after}` };
}
