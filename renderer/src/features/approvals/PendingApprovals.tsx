import { useEffect, useId, useRef, useState } from 'react';
import { useModalDialog } from '../../use-modal-dialog';
import type { Approval } from '../../../../shared/contract';
import { useApprovals, useChat, useStores } from '../../stores';
import { useNow } from '../../use-now';
import { describeAge, describeExpiry, describeWhere, hasArgsToEdit, isConversation } from './approvals-model';
import { idleActivity } from './approvals-store';
import { FormError } from '../../components/FormParts';
import { isFocusLost } from '../../focus';
import { RejectForm } from './RejectForm';
import { ApprovalEditor } from './ApprovalEditor';

/** The header's count of approvals waiting anywhere, fed by `approvals.changed`. */
export function PendingApprovalsButton({ onOpen }: { onOpen(): void }) {
  const count = useApprovals((state) => state.pending.length);
  return (
    <button
      type="button"
      className={`button pending-button${count > 0 ? ' pending-button--waiting' : ''}`}
      data-testid="open-approvals"
      aria-haspopup="dialog"
      aria-label={`Approvals: ${count} waiting`}
      onClick={onOpen}
    >
      Approvals{' '}
      <span className="badge" data-testid="pending-approvals-count" data-count={count}>
        {count}
      </span>
    </button>
  );
}

function PendingItem({ approval, now, onOpen }: { approval: Approval; now: number; onOpen(): void }) {
  const { approvals: store } = useStores();
  const activity = useApprovals((state) => state.activity[approval.id] ?? idleActivity);
  const threadTitle = useChat(
    (state) => state.threads.find((thread) => thread.id === approval.threadId)?.title,
  );
  const isBusy = activity.inFlight !== null;
  const decide = store.getState().decide;
  const [mode, setMode] = useState<'idle' | 'rejecting' | 'editing'>('idle');
  const reasonButton = useRef<HTMLButtonElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  // The reason form or the editor closed without a decision (Cancel, Escape): focus goes back to the button
  // that opened it.
  const close = () => {
    const opener = mode === 'editing' ? editButton : reasonButton;
    setMode('idle');
    requestAnimationFrame(() => opener.current?.focus());
  };

  return (
    <li className="pending-item" data-testid="pending-approval" data-approval-id={approval.id}>
      {/* The host's words for the call, as its approval card's title says it: once, not also by tool name. */}
      <p className="pending-item__title">
        <strong>{approval.preview.title}</strong>
      </p>
      <p className="pending-item__meta">
        {/* Mid-line, after "asked …": "expires in 4 min". */}
        {describeWhere(approval.threadId, threadTitle)} · asked {describeAge(approval.createdAt, now)} ·{' '}
        {describeExpiry(approval.expiresAt, now).toLowerCase()}
      </p>
      {activity.error && <FormError>{activity.error}</FormError>}
      {mode === 'rejecting' && (
        <RejectForm
          isBusy={isBusy}
          onReject={(reason) =>
            void decide({ approvalId: approval.id, decision: 'reject', ...(reason && { reason }) })
          }
          onCancel={close}
        />
      )}
      {/* The editor of the chat's approval card: the same fields, the same check by the host, Save & approve. */}
      {mode === 'editing' && <ApprovalEditor approval={approval} shouldFocus onCancel={close} />}
      {mode === 'idle' && (
        <div className="pending-item__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={isBusy}
            data-testid="pending-approve"
            onClick={() => void decide({ approvalId: approval.id, decision: 'approve' })}
          >
            Approve
          </button>
          <button
            type="button"
            className="button"
            disabled={isBusy}
            data-testid="pending-reject"
            onClick={() => void decide({ approvalId: approval.id, decision: 'reject' })}
          >
            Reject
          </button>
          <button
            ref={reasonButton}
            type="button"
            className="button"
            disabled={isBusy}
            data-testid="pending-reject-with-reason"
            onClick={() => setMode('rejecting')}
          >
            Reject with a reason…
          </button>
          {hasArgsToEdit(approval) && (
            <button
              ref={editButton}
              type="button"
              className="button"
              disabled={isBusy}
              data-testid="pending-edit"
              onClick={() => setMode('editing')}
            >
              Edit…
            </button>
          )}
          {/* A change asked for in the Tasks panel has no conversation to open; its line above says where it came from. */}
          {isConversation(approval.threadId) && (
            <button type="button" className="link-button" data-testid="pending-open" onClick={onOpen}>
              Open in conversation
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/** Every approval still waiting, newest first, each decidable here or opened where its run paused. */
export function PendingApprovalsPanel({ isOpen, onClose }: { isOpen: boolean; onClose(): void }) {
  const stores = useStores();
  const pending = useApprovals((state) => state.pending);
  const hasPendingList = useApprovals((state) => state.hasPendingList);
  const dialogRef = useModalDialog(isOpen);
  const titleId = useId();
  // Opened, focus is on the heading, not on the first Approve: nothing is approved by a key pressed too soon.
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (isOpen) headingRef.current?.focus();
  }, [isOpen]);
  const now = useNow(1_000, isOpen);
  // A decided approval leaves the list with the button that decided it: the keyboard stays in the panel.
  useEffect(() => {
    if (isOpen && isFocusLost()) headingRef.current?.focus();
  }, [isOpen, pending]);

  const open = (approval: Approval) => {
    const chat = stores.chat.getState();
    if (chat.conversation.threadId !== approval.threadId) void chat.openThread(approval.threadId);
    stores.approvals.getState().requestReveal(approval.id, true);
    onClose();
  };

  return (
    <dialog
      ref={dialogRef}
      className="approvals-panel"
      aria-labelledby={titleId}
      onClose={onClose}
      data-testid="approvals-panel"
    >
      <h2 id={titleId} ref={headingRef} tabIndex={-1}>
        Waiting for your approval
      </h2>
      {isOpen && (
        <>
          {!hasPendingList && <p role="status">Loading…</p>}
          {hasPendingList && pending.length === 0 && <p data-testid="approvals-empty">Nothing is waiting.</p>}
          <ul className="pending-list">
            {pending.map((approval) => (
              <PendingItem key={approval.id} approval={approval} now={now} onOpen={() => open(approval)} />
            ))}
          </ul>
        </>
      )}
      <div className="settings-form__actions">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
