import { useEffect } from 'react';
import type { Approval } from '../../../../shared/contract';
import { useApprovals, useStores } from '../../stores';
import { findByAction } from './approvals-model';
import { ApprovalCard } from './ApprovalCard';

/**
 * The approval a run paused on as the window knows it now (decided, expired…), found by id when the run just
 * asked, or by action when a stored thread was opened; undefined until the window has it. No action: none.
 */
export function useKnownApproval(actionId: string | null, snapshot: Approval | null): Approval | undefined {
  return useApprovals((state) => {
    if (snapshot) return state.known[snapshot.id];
    return actionId === null ? undefined : findByAction(state.known, actionId);
  });
}

/**
 * The approval a call asked for, as the window knows it now, else as the timeline carried it (the snapshot its
 * `approval_needed` brought, or the decided one a stored thread brought); undefined for a call that never asked.
 */
export function useCallApproval(item: { actionId: string; approval: Approval | null } | undefined) {
  return useKnownApproval(item?.actionId ?? null, item?.approval ?? null) ?? item?.approval ?? undefined;
}

/** Where a run paused in the timeline: the approval's card, or while it is not found, what became of it. */
export function ApprovalSlot({
  actionId,
  snapshot,
  isCancelled = false,
  holderSays,
}: {
  actionId: string;
  snapshot: Approval | null;
  /** Rejected by Deputy because the run was ended around it (see isCancelledCall), not by the person. */
  isCancelled?: boolean;
  /** What the call's card, or the plan step holding it, says of the call ("Turned down"): not said twice. */
  holderSays?: string;
}) {
  const { approvals: store } = useStores();
  const known = useKnownApproval(actionId, snapshot);
  const hasLookedUp = useApprovals((state) => state.hasLookedUp);
  const lookUpError = useApprovals((state) => state.lookUpError);
  const approval = known ?? snapshot;

  useEffect(() => {
    if (snapshot && !known) store.getState().remember(snapshot);
    else if (!snapshot && !known && !hasLookedUp) void store.getState().lookUp();
  }, [snapshot, known, hasLookedUp, store]);

  if (approval) return <ApprovalCard approval={approval} isCancelled={isCancelled} holderSays={holderSays} />;
  return (
    <p className="approval-card approval-card--missing" data-testid="approval-missing" role="status">
      {!hasLookedUp
        ? 'Looking up the approval…'
        : (lookUpError ?? 'This action waited for an approval Deputy no longer has.')}
    </p>
  );
}
