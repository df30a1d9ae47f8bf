import type { ActionState, Approval, LedgerState } from '../../../../shared/contract';
import { isStoppedCode } from './error-words';
import type { TimelineItem } from './timeline';

/** What a tool-call card says about where its call stands. */
const STATE_LABELS: Record<ActionState, string> = {
  planned: 'Planned',
  awaiting_confirmation: 'Waiting for approval',
  executing: 'Running',
  completed: 'Done',
  failed: 'Failed',
  rejected: 'Turned down',
};

// Only the ledger states that say more than the coarse state they map to; the rest read the same.
const LEDGER_LABELS: Partial<Record<LedgerState, string>> = {
  approved: 'Approved',
  started: 'Running',
  committed: 'Done',
  // A call cut off by a restart whose effect could not be found: it may or may not have happened.
  unknown: 'Not sure it happened — waiting for you',
};

/**
 * The card's label: the ledger's finer state when a stored thread supplied it (the live stream carries only
 * the coarse one), else the coarse state's label.
 */
export function toolStateLabel(state: ActionState, ledgerState?: LedgerState): string {
  return (ledgerState && LEDGER_LABELS[ledgerState]) ?? STATE_LABELS[state] ?? state;
}

/**
 * A call that may have happened, and that nothing waits on any more: its run ended around it (an internal error),
 * so no approval of it is pending. Its card says "Not sure it happened", not that it waits for the person.
 */
export const isUnsureAfterEnding = (
  call: { ledgerState?: LedgerState },
  approval: Approval | undefined,
): boolean => call.ledgerState === 'unknown' && approval?.status !== 'pending';

/** The card's label for such a call. */
export const UNSURE_AFTER_ENDING = 'Not sure it happened';

/**
 * A call that ended because its run was ended around it, not one that failed or that the person rejected:
 * - cut off while it ran, as the run was stopped or its plan cancelled (its error's code says so);
 * - turned down by Deputy while it waited (its plan cancelled, the run that started its agent stopped, a new
 *   message sent over it): the run ended as stopped, with the very words the call was refused with
 *   ("Cancelled: you cancelled the plan.").
 */
export function isCancelledCall(
  call: { state: ActionState; runId: string; error?: string | null; errorCode?: string },
  items: readonly TimelineItem[],
): boolean {
  if (call.state === 'failed') return isStoppedCode(call.errorCode);
  if (call.state !== 'rejected' || !call.error) return false;
  return isRunStopped(items, call.runId, call.error);
}

/**
 * Why a cancelled call did not happen, for the note under its card. The host writes it as "Cancelled: you
 * cancelled the plan."; the card, or the plan step that holds it, already says "Cancelled", so the note gives
 * only the reason ("You cancelled the plan.").
 */
export function cancelledReason(error: string | null | undefined): string | null {
  const reason = error?.replace(/^Cancelled:\s*/i, '').trim();
  return reason ? reason.charAt(0).toUpperCase() + reason.slice(1) : null;
}

/** Whether the run ended as stopped (with `message`, when given), not failed. */
export function isRunStopped(items: readonly TimelineItem[], runId: string, message?: string): boolean {
  return items.some(
    (item) =>
      item.kind === 'error' &&
      item.runId === runId &&
      isStoppedCode(item.code) &&
      (message === undefined || item.message === message),
  );
}

/**
 * A call turned down because its approval expired with nobody answering: it did not fail and nobody rejected it,
 * so it says "Expired", as its approval card does. (Its action state is `rejected`, as for every call refused.)
 */
export const isExpiredCall = (call: { state: ActionState }, approval: Approval | undefined): boolean =>
  call.state === 'rejected' && approval?.status === 'expired';

/**
 * A refused call (state `rejected`, neither cancelled nor expired) in the audit trail's words: "Turned down" when
 * it asked and was told no (by the person, or by Deputy for them when its server went), else "Not done": the
 * policy blocked it or held it back to ask what they meant, or its approval was given but it was paused.
 */
export function refusedCallLabel(wasAsked: boolean, approval: Approval | undefined): string {
  return wasAsked && approval?.status !== 'approved' ? STATE_LABELS.rejected : 'Not done';
}

/**
 * A failed call's error for the person to read. Arguments a tool did not accept are said for the model, by the
 * tool's name ("search_memory's query must not be empty."); the card already says which call it was, so the
 * person reads "Deputy did not run this. Its query must not be empty."
 */
export function toolErrorWords(call: {
  tool: string;
  error?: string | null;
  errorCode?: string;
}): string | null {
  if (!call.error) return null;
  if (call.errorCode !== 'invalid_arguments') return call.error;
  const said = call.error
    .replaceAll(`${call.tool}'s `, 'Its ')
    .replaceAll(`${call.tool} has `, 'It has ')
    .replaceAll(`${call.tool}: `, '');
  return `Deputy did not run this. ${said}`;
}
