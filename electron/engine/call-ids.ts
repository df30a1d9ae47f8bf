import { inventCallId } from '../llm/gemini-call-ids';
import type { RunLoopDeps } from './run-deps';
import type { CallPart } from './run-state';

/**
 * A turn's calls, each with an id no other call of the run has. The ledger keys a call by its id within the run,
 * and a resumed run finds a call it already made by that id: a call whose id the model gave twice (in the same
 * turn, or after an earlier turn's call) would be taken for that other call, so it would never run and the model
 * would be sent the other call's result. It gets an id of its own instead, as a call sent without one does.
 */
export function withOwnIds(deps: Pick<RunLoopDeps, 'store'>, runId: string, calls: CallPart[]): CallPart[] {
  if (calls.length === 0) return calls;
  const given = new Set<string>();
  let changed: CallPart[] | null = null;
  calls.forEach((call, index) => {
    const isTaken = given.has(call.callId) || deps.store.actions.byCall(runId, call.callId) !== null;
    given.add(call.callId);
    if (!isTaken) return;
    changed ??= [...calls];
    changed[index] = { ...call, callId: inventCallId() };
  });
  return changed ?? calls;
}
