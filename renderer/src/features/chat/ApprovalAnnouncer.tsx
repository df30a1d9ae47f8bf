import { useEffect, useRef, useState } from 'react';
import { asSentence } from '../../../../shared/rejection-words';
import { useStores } from '../../stores';
import type { TimelineItem } from './timeline';
import { isFocusLost } from '../../focus';

/** Focus may move to a new approval unless the person is in the middle of writing something. */
function isFocusFree(): boolean {
  if (isFocusLost()) return true;
  const active = document.activeElement;
  return (
    active instanceof HTMLTextAreaElement && active.id === 'composer-input' && active.value.trim() === ''
  );
}

/**
 * When a run pauses for an approval while this window watches, the approval is shown from its title and a screen
 * reader hears that title. It takes focus too (so Approve is one Tab away) unless the person is busy elsewhere in
 * the window. Approvals of a stored thread that was opened do neither.
 */
export function ApprovalAnnouncer({ items }: { items: readonly TimelineItem[] }) {
  const { approvals } = useStores();
  const [message, setMessage] = useState('');
  const seen = useRef<Set<string> | null>(null);

  useEffect(() => {
    const live = items.filter(
      (item): item is Extract<TimelineItem, { kind: 'approval' }> =>
        item.kind === 'approval' && item.approval?.status === 'pending',
    );
    if (seen.current === null) {
      seen.current = new Set(live.map((item) => item.id));
      return;
    }
    const fresh = live.filter((item) => !seen.current?.has(item.id));
    for (const item of fresh) seen.current.add(item.id);
    const newest = fresh.at(-1)?.approval;
    if (!newest) return;
    // In the words the approval card's title says ("Post to #random in Slack"), so the ear hears what the eye reads.
    setMessage(`Deputy needs your approval: ${asSentence(newest.preview.title)}`);
    approvals.getState().requestReveal(newest.id, isFocusFree());
  }, [items, approvals]);

  return (
    <p className="visually-hidden" role="status" data-testid="approval-announcement">
      {message}
    </p>
  );
}
