import { useEffect, useId, useRef, useState } from 'react';
import { RejectForm } from './RejectForm';
import { decisionNoteForPerson } from '../../../../shared/rejection-words';
import type { Approval, ApprovalStatus } from '../../../../shared/contract';
import { useApprovals, useStores } from '../../stores';
import { useNow } from '../../use-now';
import { describeExpiry, hasArgsToEdit, quietArgs, riskWords, shownStatus } from './approvals-model';
import { idleActivity, type ApprovalActivity } from './approvals-store';
import { ApprovalEditor } from './ApprovalEditor';
import { ApprovalOrigins, ApprovalPreview, ApprovalWhy } from './ApprovalPreview';
import { FormError } from '../../components/FormParts';
import { isFocusLost } from '../../focus';
import { useReveal } from '../../reveal';
import { APPROVE_STEP, approveStepLabel } from '../plans/plans-model';

type Outcome = ApprovalStatus | 'edited' | 'cancelled';

/** What the card's badge says; a cancelled card has none (see below). */
const OUTCOME_LABELS: Record<Exclude<Outcome, 'cancelled'>, string> = {
  pending: 'Waiting for you',
  approved: 'Approved',
  edited: 'Edited and approved',
  // As the audit trail says it: the person, or Deputy for them (a tool whose server went), said no.
  rejected: 'Turned down',
  expired: 'Expired',
};

const withLowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The host notes an edited approval as `edited`; this window also knows it when it sent the edit itself. */
const EDITED_NOTE = 'edited';

function outcomeOf(approval: Approval, status: ApprovalStatus, activity: ApprovalActivity): Outcome {
  const wasEdited =
    activity.accepted === 'edit' || activity.inFlight === 'edit' || approval.decisionNote === EDITED_NOTE;
  return status === 'approved' && wasEdited ? 'edited' : status;
}

/**
 * One approval: what the call would do, why it waits, and the decisions (approve, reject with a reason,
 * edit and approve, approve with a scoped "always allow"). The chat timeline and the approval window show
 * the same card; after a decision it shows the outcome.
 */
export function ApprovalCard({
  approval,
  isCompact = false,
  isCancelled = false,
  holderSays,
}: {
  approval: Approval;
  isCompact?: boolean;
  isCancelled?: boolean;
  /** What the card holding this one says of its call ("Turned down", "Expired"): the badge does not repeat it. */
  holderSays?: string;
}) {
  const { approvals: store } = useStores();
  const activity = useApprovals((state) => state.activity[approval.id] ?? idleActivity);
  const revealRequest = useApprovals((state) => state.reveal);
  const [mode, setMode] = useState<'idle' | 'rejecting' | 'editing'>(
    approval.level === 'review' ? 'editing' : 'idle',
  );
  // An editor the user opened takes focus; one open from the start (level "review") leaves it where it is.
  const [hasOpenedEditor, setHasOpenedEditor] = useState(false);
  const isWaiting = approval.status === 'pending';
  const now = useNow(1_000, isWaiting);
  const status = shownStatus(approval, now);
  const isPending = status === 'pending';
  const outcome = isCancelled && status === 'rejected' ? 'cancelled' : outcomeOf(approval, status, activity);
  const isBusy = activity.inFlight !== null;
  const titleId = useId();
  const ref = useRef<HTMLElement>(null);
  const reveal = useReveal();

  useEffect(() => {
    if (revealRequest?.approvalId !== approval.id) return;
    const { takesFocus } = revealRequest;
    // After the conversation has laid itself out (it scrolls to the bottom when it loads). The request is
    // cleared only once served: clearing it first would re-run this effect and cancel the frame.
    const frame = requestAnimationFrame(() => {
      if (ref.current) reveal(ref.current);
      if (takesFocus) ref.current?.focus({ preventScroll: true });
      store.getState().clearReveal();
    });
    return () => cancelAnimationFrame(frame);
  }, [revealRequest, approval.id, store, reveal]);

  // Reject… or Edit… closed without a decision (Cancel, Escape): focus goes back to the button that opened it.
  const lastMode = useRef(mode);
  useEffect(() => {
    const closed = lastMode.current;
    lastMode.current = mode;
    if (mode !== 'idle' || closed === 'idle' || !isPending) return;
    const opener = closed === 'rejecting' ? 'approval-reject' : 'approval-edit';
    ref.current?.querySelector<HTMLElement>(`[data-testid="${opener}"]`)?.focus();
  }, [mode, isPending]);

  // The decision buttons vanish with the decision: keep the keyboard where it was, on this card.
  useEffect(() => {
    const card = ref.current;
    if (!isPending && card && isFocusLost()) card.focus({ preventScroll: true });
  }, [isPending]);

  const decide = store.getState().decide;
  const approve = (alwaysAllow?: { field: string; pattern: string }) =>
    void decide({ approvalId: approval.id, decision: 'approve', ...(alwaysAllow && { alwaysAllow }) });
  const reject = (reason: string) =>
    void decide({ approvalId: approval.id, decision: 'reject', ...(reason && { reason }) });
  const quiet = quietArgs(approval);
  const canEdit = hasArgsToEdit(approval);
  const isStep = approval.planId !== undefined;
  const isApproving = activity.inFlight === 'approve';

  return (
    <article
      ref={ref}
      tabIndex={-1}
      className={`approval-card approval-card--${outcome}${isCompact ? ' approval-card--compact' : ''}`}
      aria-labelledby={titleId}
      data-testid="approval-card"
      data-approval-id={approval.id}
      data-action-id={approval.actionId}
      data-status={outcome}
      aria-busy={isBusy}
    >
      <header className="approval-card__header">
        {/* The host's words for this very call ("Mark “Buy milk” as done"), said once: the card's name. */}
        <h3 id={titleId}>{approval.preview.title}</h3>
        {/* The two badges keep together, beside the title or under it, never one on each line. */}
        <span className="approval-card__badges" data-testid="approval-badges">
          <span className={`risk-badge risk-badge--${approval.risk}`}>{riskWords(approval.risk)}</span>
          {/* Cancelled, turned down or expired, the card sits in the call's card, which (or whose plan step) says
              so: not a second time. */}
          {outcome !== 'cancelled' && OUTCOME_LABELS[outcome] !== holderSays && (
            <span className="approval-card__status" data-testid="approval-status" role="status">
              {OUTCOME_LABELS[outcome]}
            </span>
          )}
        </span>
      </header>
      {/* Why it waits for the person ("Supervised: every action waits for your approval."): said of a call that
          no longer waits once Deputy cancelled it, it would read as if it still did. */}
      {outcome !== 'cancelled' && (
        <p className="approval-card__reason" data-testid="approval-reason">
          {approval.reason}
        </p>
      )}
      {outcome !== 'cancelled' && <ApprovalOrigins origins={approval.preview.origins} />}
      <ApprovalPreview preview={approval.preview} />
      <ApprovalWhy approval={approval} />
      {/* Cancelled, nothing waits on the person's review: where the call came from stays, folded beside Why. */}
      {outcome === 'cancelled' && <ApprovalOrigins origins={approval.preview.origins} isFolded />}
      {/* Read with the card, not announced each second it counts down inside the conversation's live log. */}
      {isPending && (
        <p className="approval-card__expiry" data-testid="approval-expiry" aria-live="off">
          {describeExpiry(approval.expiresAt, now)}
        </p>
      )}
      {/* A cancelled call's card says why, above this one. */}
      {!isPending &&
        outcome !== 'cancelled' &&
        approval.decisionNote &&
        approval.decisionNote !== EDITED_NOTE && (
          <p className="approval-card__note" data-testid="approval-note">
            {status === 'rejected' ? 'Reason: ' : 'Note: '}
            {decisionNoteForPerson(approval.decisionNote, approval.decidedBy)}
          </p>
        )}
      {activity.error && <FormError testId="approval-error">{activity.error}</FormError>}
      {isPending && mode === 'idle' && (
        <div className="approval-card__actions" role="group" aria-label="Decision">
          <button
            type="button"
            className="button button--primary"
            disabled={isBusy}
            data-testid="approval-approve"
            // A step of a plan: beside the plan's "Approve the whole plan", it says it approves this call only, and
            // to a screen reader which one, as several steps may wait at once.
            aria-label={isStep && !isApproving ? approveStepLabel(approval.preview.title) : undefined}
            onClick={() => approve()}
          >
            {isApproving ? 'Approving…' : isStep ? APPROVE_STEP : 'Approve'}
          </button>
          <button
            type="button"
            className="button"
            disabled={isBusy}
            data-testid="approval-reject"
            onClick={() => setMode('rejecting')}
          >
            Reject…
          </button>
          {canEdit && (
            <button
              type="button"
              className="button"
              disabled={isBusy}
              data-testid="approval-edit"
              onClick={() => {
                setHasOpenedEditor(true);
                setMode('editing');
              }}
            >
              Edit…
            </button>
          )}
          {quiet && (
            <button
              type="button"
              className="button"
              disabled={isBusy}
              data-testid="approval-approve-quietly"
              onClick={() => void store.getState().edit(approval.id, quiet)}
            >
              Approve without notifying anyone
            </button>
          )}
          {approval.alwaysAllowScopes.map((scope) => (
            <button
              key={`${scope.field}:${scope.pattern}`}
              type="button"
              className="button button--quiet"
              disabled={isBusy}
              data-testid="approval-always-allow"
              onClick={() => approve({ field: scope.field, pattern: scope.pattern })}
            >
              Approve and {withLowerFirst(scope.label)}
            </button>
          ))}
        </div>
      )}
      {isPending && mode === 'rejecting' && (
        <RejectForm isBusy={isBusy} onReject={reject} onCancel={() => setMode('idle')} />
      )}
      {isPending && mode === 'editing' && (
        <ApprovalEditor approval={approval} shouldFocus={hasOpenedEditor} onCancel={() => setMode('idle')} />
      )}
    </article>
  );
}
