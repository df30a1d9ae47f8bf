import { createHash } from 'node:crypto';
import { HostApiError, type HostApi } from './host-api';

const POLL_MS = 25;
const ERRORS_KEPT = 20;

/** The person at the keyboard: approves every pending approval the host shows, as soon as it shows up. */
export interface Approver {
  /** Approvals posted during this life of the host. */
  posted(): number;
  /** Approvals the host refused with an HTTP error (the first few messages, for the report). */
  errors(): string[];
  /** Whether an approval answer is still awaited. */
  isBusy(): boolean;
  /** Stops polling and waits for the posts in flight to settle (they fail at once if the host is gone). */
  stop(): Promise<void>;
}

/**
 * Polls `GET /api/actions/pending` and posts `approve` for each approval not yet approved in this life of the
 * host. After a restart the same approval may show as pending again (the kill came before it was recorded),
 * so it is approved again: the host must treat that as the one decision it is.
 */
export function startApprover(api: HostApi, onPosted: (approvalId: string) => void): Approver {
  const seen = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  const errors: string[] = [];
  let isStopped = false;
  let posted = 0;

  const loop = (async () => {
    while (!isStopped) {
      try {
        for (const approval of await api.pendingApprovals()) {
          if (isStopped || seen.has(approval.id)) continue;
          seen.add(approval.id);
          posted += 1;
          // A planned run's call is decided through its plan: approved whole, or (one plan in four) cancelled.
          const decision = approval.planId
            ? api.decidePlan(approval.planId, planVerb(approval.planId))
            : api.approve(approval.id);
          const post = decision
            .catch((error: unknown) => {
              // A network failure only means the host was killed; an HTTP answer is the host refusing.
              if (error instanceof HostApiError && errors.length < ERRORS_KEPT)
                errors.push(`${approval.tool} ${approval.id}: ${(error as Error).message}`);
            })
            .finally(() => inFlight.delete(post));
          inFlight.add(post);
          onPosted(approval.id);
        }
      } catch {
        // The host is gone or not answering yet; the next poll tries again until stop().
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();

  return {
    posted: () => posted,
    errors: () => [...errors],
    isBusy: () => inFlight.size > 0,
    stop: async () => {
      isStopped = true;
      await loop;
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** The same plan always gets the same answer, in every life of the host. */
export function planVerb(planId: string): 'approve' | 'cancel' {
  const byte = createHash('sha256').update(planId).digest()[0] ?? 0;
  return byte % 4 === 0 ? 'cancel' : 'approve';
}
