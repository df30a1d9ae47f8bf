import type { Approval } from '../../shared/contract';
import { expiredRunWords } from '../../shared/rejection-words';
import { rejectAction } from '../engine/call-approval';
import type { RunFailure } from '../engine/model-failure';
import { failRun } from '../engine/run-endings';
import type { RunState } from '../engine/run-state';
import type { StoredApproval } from '../store/approvals-repo';
import type { ApprovalDeskDeps } from './approval-desk-deps';
import { loadRunState } from './paused-runs';

/** Why Deputy settled a waiting call itself and ended its run: the note kept with the approval, and the run's words. */
export const ENDED_BY_DEPUTY = {
  /** The person wrote again instead of deciding. */
  superseded: {
    note: 'superseded: the user sent a new message instead of deciding',
    message: 'Cancelled: you sent a new message while this was waiting for your approval.',
  },
  planCancelled: 'Cancelled: you cancelled the plan.',
  /** An agent's call that waited past its time. */
  outOfTime: 'The agent that asked for this waited longer than a day, so Deputy did not do it.',
  stoppedWithParent: 'Stopped with the run that started it, so Deputy did not do it.',
} as const;

/** What a run ended for an expired approval says; `expiresAt` as stored. */
export const expiredFailure = (approval: StoredApproval): RunFailure => ({
  code: 'approval_expired',
  message: expiredRunWords(approval.preview.title, new Date(approval.expiresAt).toISOString()),
});

/**
 * How the run should end that waited for `approval`, when Deputy itself settled it (it expired, the person wrote
 * again, the plan or the run's parent was stopped): exactly as the live run ended. Null for an approval still
 * waiting or decided by the person, after which a run goes on. After a restart, a run found paused on such an
 * approval was stopped between the approval being settled and the run being ended; it is ended now, so the model
 * is never told of a decision the live run never told it.
 */
export function endingAfterRestart(approval: StoredApproval): RunFailure | null {
  if (approval.status === 'expired') return expiredFailure(approval);
  if (approval.status !== 'rejected') return null;
  const note = approval.decisionNote;
  if (note === ENDED_BY_DEPUTY.superseded.note)
    return { code: 'cancelled', message: ENDED_BY_DEPUTY.superseded.message };
  const { planCancelled, outOfTime, stoppedWithParent } = ENDED_BY_DEPUTY;
  return note === planCancelled || note === outOfTime || note === stoppedWithParent
    ? { code: 'cancelled', message: note }
    : null;
}

/**
 * Ends a run paused for approval because Deputy settled that approval itself (it expired, the person wrote
 * again, the plan was cancelled): the call is refused, and whatever else of its turn was held with it, and the
 * run fails with `failure`. Answers the run's state as it ended, or null when it was not paused any more.
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
  if (!run || run.status !== 'awaiting_confirmation' || !state) return null;
  const spec = deskDeps.specFor(run, new AbortController().signal);
  const scope = { deps, spec, state };
  rejectAction(scope, approval.actionId, approval.tool, failure.message);
  // The run ends here, so whatever else of its turn was held is refused with it.
  for (const other of state.awaiting) {
    if (other.approvalId === approval.id) continue;
    const now = deskDeps.now().toISOString();
    if (!store.approvals.claim(other.approvalId, 'rejected', now, 'the run ended')) continue;
    rejectAction(scope, other.actionId, other.call.name, failure.message);
    const stored = store.approvals.get(other.approvalId);
    if (stored) deskDeps.publish(view(stored));
  }
  failRun(deps, spec, state, failure);
  return state;
}
