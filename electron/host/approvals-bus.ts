import type { Approval, ApprovalsChangedEvent } from '../../shared/contract';

type Listener = (event: ApprovalsChangedEvent) => void;

/** `approvals.changed`: each subscriber first gets the current pending list, then every change. */
export class ApprovalsBus {
  private readonly listeners = new Set<Listener>();

  constructor(private readonly pending: () => Approval[]) {}

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    safely(listener, { type: 'approvals.changed', pending: this.pending(), changed: null });
    return () => {
      this.listeners.delete(listener);
    };
  }

  publish(changed: Approval | null): void {
    if (this.listeners.size === 0) return;
    const event: ApprovalsChangedEvent = { type: 'approvals.changed', pending: this.pending(), changed };
    for (const listener of this.listeners) safely(listener, event);
  }
}

function safely(listener: Listener, event: ApprovalsChangedEvent): void {
  try {
    listener(event);
  } catch {
    // A subscriber's failure is its transport's to handle; the others still hear about the change.
  }
}
