import { contractStateOf, type ActionState, type AuditStatus, type LedgerState } from '../../shared/contract';
import type { LedgerEntry } from '../store/action-rows';
import { logRuntime } from './journal';
import type { RunLoopDeps, RunSpec } from './run-deps';
import type { RunState } from './run-state';

/** What the ledger, the card and the audit trail say of a read still running when its run ended. */
export const READ_CUT_OFF =
  'Deputy stopped this because of an internal error. It only reads, so nothing was changed. The details are in the log.';

/** What they say of a side effect still running when its run ended: it may have happened, so it did not "fail". */
export const EFFECT_CUT_OFF =
  'Deputy stopped while doing this because of an internal error and cannot tell whether it happened. Check before asking for it again.';

/**
 * A run that ends while a call of it is still `started` in the ledger (the call threw: a bug, or a write the disk
 * refused) settles it, or it would read as running for ever. A read is marked failed: nothing happened that
 * matters. A side effect may have happened, so it is marked `unknown`, as a call cut off by a crash is when it
 * cannot be looked for (reconcile.ts): the person is told Deputy cannot tell, never that it failed. Inside the
 * ending's transaction; an ending that is a pause has no call running.
 */
export function settleCutOffCalls(deps: RunLoopDeps, spec: RunSpec, state: RunState): void {
  for (const entry of deps.store.actions.startedInRun(spec.runId)) {
    settleAs(deps, spec, entry, entry.hasSideEffects ? UNKNOWN : FAILED);
    logRuntime(
      deps,
      spec,
      'tool_call_end',
      state.step,
      { tool: entry.tool, actionId: entry.id, ok: false, errorCode: 'internal', cutOff: true },
      entry.callId,
    );
  }
}

interface CutOff {
  ledgerState: LedgerState;
  /** What the card shows until the thread is read again (`unknown` waits for the person, as the contract says). */
  cardState: ActionState;
  /** The audit trail has no "not sure": an unknown call's entry stays pending, with the same words. */
  auditStatus: AuditStatus;
  words: string;
  code: string;
}

const FAILED: CutOff = {
  ledgerState: 'failed',
  cardState: 'failed',
  auditStatus: 'failed',
  words: READ_CUT_OFF,
  code: 'internal',
};
const UNKNOWN: CutOff = {
  ledgerState: 'unknown',
  cardState: contractStateOf('unknown'),
  auditStatus: 'pending',
  words: EFFECT_CUT_OFF,
  code: 'outcome_unknown',
};

function settleAs(deps: RunLoopDeps, spec: RunSpec, entry: LedgerEntry, how: CutOff): void {
  const now = deps.now().toISOString();
  const { words, code } = how;
  deps.store.actions.finish(entry.id, { state: how.ledgerState, error: words, errorCode: code }, now);
  deps.store.audit.settle(entry.id, { status: how.auditStatus, errorMessage: words }, now);
  deps.emit({
    type: 'tool_result',
    runId: spec.runId,
    threadId: spec.threadId,
    actionId: entry.id,
    tool: entry.tool,
    state: how.cardState,
    error: words,
    code,
  });
}
