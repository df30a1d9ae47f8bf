import { useEffect } from 'react';
import type { ConnectionStatus } from '../../api/ws-client';
import { useApprovals, useStores } from '../../stores';
import { ConnectionNote } from '../connection/ConnectionNote';
import { useAfterReconnect } from '../connection/use-read-again';
import { useNow } from '../../use-now';
import { shownStatus } from './approvals-model';
import { ApprovalCard } from './ApprovalCard';
import { PlanForApproval } from '../plans/PlanForApproval';

/**
 * The small always-on-top window the shell opens at `#/approval/<id>`: that one approval's card and,
 * once it is decided, a way to close the window.
 */
export function ApprovalWindow({
  approvalId,
  status,
}: {
  approvalId: string;
  status: ConnectionStatus | 'ipc';
}) {
  const { approvals: store, plans } = useStores();
  const approval = useApprovals((state) => state.known[approvalId]);
  const hasLookedUp = useApprovals((state) => state.hasLookedUp);
  const lookUpError = useApprovals((state) => state.lookUpError);
  const now = useNow(1_000, approval?.status === 'pending');

  useEffect(() => {
    const disconnect = store.getState().connect();
    void store.getState().lookUp();
    return disconnect;
  }, [store]);

  // In a browser the socket can drop. A pending approval catches up by itself (`approvals.changed` starts again with
  // the pending list, and one gone from it is looked up); one not yet known (a decided one, whose look-up the drop
  // cut off) is looked up again. The plan's events sent meanwhile are lost: it is read again.
  const planId = approval?.planId;
  useAfterReconnect(status, () => {
    if (!store.getState().known[approvalId]) void store.getState().lookUp();
    if (planId) void plans.getState().load(planId);
  });

  const threadId = approval?.threadId;
  const threadTitle = useApprovals((state) => (threadId ? state.threadTitles[threadId] : undefined));
  useEffect(() => {
    if (threadId) void store.getState().lookUpThreadTitle(threadId);
  }, [threadId, store]);
  // Back to this window (from the main one, say, where the conversation may have been renamed): read it again.
  useEffect(() => {
    const refresh = () => void store.getState().refreshThreadTitles();
    window.addEventListener('focus', refresh);
    return () => window.removeEventListener('focus', refresh);
  }, [store]);

  const isDecided = approval !== undefined && shownStatus(approval, now) !== 'pending';

  // The window opens on its card, focused, so Tab starts there and nothing is pressed by accident. One already
  // decided leaves focus on Close.
  const isAsking = approval !== undefined && !isDecided;
  useEffect(() => {
    if (isAsking) store.getState().requestReveal(approvalId, true);
  }, [isAsking, approvalId, store]);

  return (
    <main className="approval-window" aria-label="Approval" data-testid="approval-window">
      {/* The cards' titles are h3: these keep the outline whole for screen readers. */}
      <h1 className="visually-hidden">Deputy asks for your approval</h1>
      <h2 className="visually-hidden">What Deputy wants to do</h2>
      <ConnectionNote status={status} className="approval-window__connection status-line" />
      {/* Apart from its conversation, the card says which one asked, so the person knows what it is part of. */}
      {threadTitle && (
        <p className="approval-window__context" title={threadTitle} data-testid="approval-window-context">
          From the conversation “{threadTitle}”
        </p>
      )}
      {approval && <ApprovalCard approval={approval} isCompact />}
      {approval?.planId && (
        <>
          <h2 className="visually-hidden">The plan it is a step of</h2>
          <PlanForApproval planId={approval.planId} actionId={approval.actionId} />
        </>
      )}
      {!approval && (
        <p role={hasLookedUp ? 'alert' : 'status'} data-testid="approval-window-missing">
          {!hasLookedUp
            ? 'Loading the approval…'
            : (lookUpError ?? 'Deputy has no approval with this id. It may be too old to show.')}
        </p>
      )}
      {(isDecided || (hasLookedUp && !approval)) && (
        <div className="approval-window__actions">
          <button
            type="button"
            className="button button--primary"
            data-testid="approval-window-close"
            autoFocus
            onClick={() => window.close()}
          >
            Close
          </button>
        </div>
      )}
    </main>
  );
}
