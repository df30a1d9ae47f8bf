import type { CallScope } from '../call-context';
import { answerUnrun } from '../call-execution';

/** Whether the person cancelled this run's plan (a run picked up after a crash must not go on with it). */
export function isPlanCancelled(scope: CallScope): boolean {
  return scope.deps.store.plans.ofRun(scope.spec.runId)?.status === 'cancelled';
}

/**
 * After a cancel, only a call whose side effect may already have started goes on, to be finished or reconciled
 * as the ledger says; every other open call is answered as not run. Returns whether any call is left.
 */
export function keepStartedOnly(scope: CallScope): boolean {
  const { deps, spec, state } = scope;
  for (const call of [...state.pendingCalls]) {
    const entry = deps.store.actions.byCall(spec.runId, call.callId);
    const mayHaveStarted = entry?.ledgerState === 'started' || entry?.ledgerState === 'approved';
    if (!mayHaveStarted)
      answerUnrun(scope, call, 'cancelled', 'The person cancelled the plan; this was not run.');
  }
  return state.pendingCalls.length > 0;
}
