import { useChat } from '../../stores';
import type { TimelineItem } from './timeline';

/** The question behind the last answer, when the conversation ends on one; null otherwise. */
export function lastAnsweredPrompt(items: readonly TimelineItem[]): string | null {
  const last = items.at(-1);
  if (last?.kind !== 'message' || last.role !== 'assistant') return null;
  const asked = items.findLast((item) => item.kind === 'message' && item.role === 'user');
  return asked?.kind === 'message' ? asked.text : null;
}

/** Asks the same question again: a new run in the same conversation, the earlier answer kept above. */
export function RegenerateButton({ items }: { items: readonly TimelineItem[] }) {
  const send = useChat((state) => state.send);
  const prompt = lastAnsweredPrompt(items);
  if (prompt === null) return null;
  return (
    <div className="conversation__actions">
      <button
        type="button"
        className="button button--small"
        data-testid="regenerate"
        onClick={() => void send(prompt)}
      >
        Regenerate the answer
      </button>
    </div>
  );
}
