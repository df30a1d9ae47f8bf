import type { Approval, RunStatus } from '../../shared/contract';
import type { RunFailure } from '../engine/model-failure';
import type { RunState } from '../engine/run-state';
import { RUN_ENDED_NOTE } from '../../shared/rejection-words';
import { endForSettled } from '../engine/settled-by-deputy';
import type { StoredApproval } from '../store/approvals-repo';
import type { ApprovalDeskDeps } from './approval-desk-deps';
import { isEnded, loadRunState } from './paused-runs';

/**
 * Ends a run paused for approval because Deputy settled that approval itself (it expired, the person wrote
 * again, the plan was cancelled): the call is refused, and whatever else of its turn was held with it, and the
 * run fails with `failure`. Answers the run's state as it ended, or null when it was not paused any more: a run
 * still running its turn's other calls ends itself once they are done (`settledByDeputy` in its loop).
 */
export function endPausedRun(
  view: (approval: StoredApproval) => Approval,
  deskDeps: ApprovalDeskDeps,
  approval: StoredApproval,
  failure: RunFailure,
): RunState | null {
  const { store } = deskDeps;
  const deps = deskDeps.runDeps();
  const run = store.runs.get(approval.runId);
  let state: RunState | null = null;
  try {
    state = run ? loadRunState(store, run.id) : null;
  } catch (error) {
    deps.logError(`could not read the state of run ${approval.runId}`, error);
  }
  deskDeps.publish(
    view({ ...approval, status: failure.code === 'approval_expired' ? 'expired' : 'rejected' }),
  );
  if (run && isGoing(run.status)) turnDownTheRest(view, deskDeps, approval);
  if (!run || run.status !== 'awaiting_confirmation' || !state) return null;
  const spec = deskDeps.specFor(run, new AbortController().signal);
  endForSettled({ deps, spec, state }, approval, failure, (other) => deskDeps.publish(view(other)));
  return state;
}

/** A run still running its turn's other calls (or not picked up again yet after a restart): neither paused nor ended. */
const isGoing = (status: RunStatus): boolean => status !== 'awaiting_confirmation' && !isEnded(status);

/**
 * What else of `approval`'s run waits is turned down now, as a paused run's is when it ends: the run ends once its
 * other calls are done, so none of these can be done, and none is left in the inbox for the person to approve.
 */
function turnDownTheRest(
  view: (approval: StoredApproval) => Approval,
  deskDeps: ApprovalDeskDeps,
  approval: StoredApproval,
): void {
  const { store } = deskDeps;
  for (const other of store.approvals.pendingInRun(approval)) {
    if (other.id === approval.id) continue;
    const now = deskDeps.now().toISOString();
    if (!store.approvals.claim(other.id, 'rejected', now, RUN_ENDED_NOTE, 'deputy')) continue;
    const stored = store.approvals.get(other.id);
    if (stored) deskDeps.publish(view(stored));
  }
}
