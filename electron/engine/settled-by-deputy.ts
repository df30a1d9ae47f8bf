import type { RunResponse } from '../../shared/contract';
import { expiredRunWords, PLAN_CANCELLED_WORDS, RUN_ENDED_NOTE } from '../../shared/rejection-words';
import type { StoredApproval } from '../store/approvals-repo';
import { rejectAction } from './call-approval';
import type { CallScope } from './call-context';
import type { RunFailure } from './model-failure';
import { failRun } from './run-endings';

/*
 * A held call whose approval Deputy settled itself (it expired, the person wrote again, the plan or the run's
 * parent was stopped) ends its run; one the person decided lets the run go on. Whether the run was paused or
 * still running its turn's other calls, and whether Deputy stopped in between, it ends the same way.
 */

/** Why Deputy settled a waiting call itself and ended its run: the note kept with the approval, and the run's words. */
export const ENDED_BY_DEPUTY = {
  /** The person wrote again instead of deciding. */
  superseded: {
    note: 'superseded: the user sent a new message instead of deciding',
    message: 'Cancelled: you sent a new message while this was waiting for your approval.',
  },
  planCancelled: PLAN_CANCELLED_WORDS,
  /** An agent's call that waited past its time. */
  outOfTime: 'The agent that asked for this waited longer than a day, so Deputy did not do it.',
  stoppedWithParent: 'Stopped with the run that started it, so Deputy did not do it.',
} as const;

/** Whether Deputy turned `approval` down because another call of its turn ended the run. */
export const isTurnedDownWithRun = (approval: StoredApproval): boolean =>
  approval.status === 'rejected' &&
  approval.decisionNote === RUN_ENDED_NOTE &&
  approval.decidedBy !== 'person';

/** What a run ended for an expired approval says; `expiresAt` as stored. */
export const expiredFailure = (approval: StoredApproval): RunFailure => ({
  code: 'approval_expired',
  message: expiredRunWords(approval.preview.title, new Date(approval.expiresAt).toISOString()),
});

/**
 * How the run should end that held a call for `approval`, when Deputy itself settled it: exactly as the run ends
 * that was paused for it when Deputy settled it. Null for an approval still waiting or decided by the person,
 * after which a run goes on. A reason the person typed is theirs even when it reads like one of Deputy's notes;
 * only an approval settled before Deputy kept who settled it (`decidedBy`) is judged by its note alone.
 */
export function endingFor(approval: StoredApproval): RunFailure | null {
  if (approval.status === 'expired') return expiredFailure(approval);
  if (approval.status !== 'rejected' || approval.decidedBy === 'person') return null;
  const note = approval.decisionNote;
  if (note === ENDED_BY_DEPUTY.superseded.note)
    return { code: 'cancelled', message: ENDED_BY_DEPUTY.superseded.message };
  const { planCancelled, outOfTime, stoppedWithParent } = ENDED_BY_DEPUTY;
  return note === planCancelled || note === outOfTime || note === stoppedWithParent
    ? { code: 'cancelled', message: note }
    : null;
}

/**
 * Ends the run for `approval`, which Deputy settled itself: its call is refused with the run's words, and
 * whatever else of its turn was held is turned down with it (`told` of each), then the run fails with `failure`.
 */
export function endForSettled(
  scope: CallScope,
  approval: StoredApproval,
  failure: RunFailure,
  told: (other: StoredApproval) => void,
): RunResponse {
  const { deps, spec, state } = scope;
  rejectAction(scope, approval.actionId, approval.tool, failure.message);
  for (const other of state.awaiting) {
    if (other.approvalId === approval.id) continue;
    const now = deps.now().toISOString();
    const isTurnedDown = deps.store.approvals.claim(
      other.approvalId,
      'rejected',
      now,
      RUN_ENDED_NOTE,
      'deputy',
    );
    // One Deputy settled already, while the turn's other calls still ran (it expired with this one, or was turned
    // down with it): its call is refused all the same, or it would wait in a run that has ended.
    const isWaiting =
      deps.store.actions.byCall(spec.runId, other.call.callId)?.ledgerState === 'awaiting_confirmation';
    if (!isTurnedDown && !isWaiting) continue;
    rejectAction(scope, other.actionId, other.call.name, failure.message);
    const stored = isTurnedDown ? deps.store.approvals.get(other.approvalId) : null;
    if (stored) told(stored);
  }
  return failRun(deps, spec, state, failure);
}

/**
 * The first held call of the run whose approval Deputy settled itself, with how the run ends for it; null when
 * none (each is still waiting, or the person decided it).
 */
export function settledByDeputy(scope: CallScope): { approval: StoredApproval; failure: RunFailure } | null {
  for (const entry of scope.state.awaiting) {
    const approval = scope.deps.store.approvals.get(entry.approvalId);
    const failure = approval ? endingFor(approval) : null;
    if (approval && failure) return { approval, failure };
  }
  return null;
}
