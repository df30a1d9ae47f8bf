import type { TimelineItem } from './timeline';

/**
 * A turn is what the person asked and everything that followed until they asked again. Retry and Ask again
 * belong to the last turn only: an earlier failure was followed by something newer, and re-asking it then
 * would put an old question after a newer answer.
 */

type Message = Extract<TimelineItem, { kind: 'message' }>;

const isQuestion = (item: TimelineItem): item is Message => item.kind === 'message' && item.role === 'user';

// The same repeat is handed out again while another message streams, so its memoised row keeps its identity.
const repeats = new WeakMap<Message, Message>();

function asRepeat(question: Message): Message {
  const known = repeats.get(question) ?? { ...question, isRepeat: true };
  repeats.set(question, known);
  return known;
}

/** Whether nothing was asked after the entry `id` (false when it is not in the conversation). */
export function isInLastTurn(items: readonly TimelineItem[], id: string): boolean {
  const at = items.findIndex((item) => item.id === id);
  return at !== -1 && !items.slice(at + 1).some(isQuestion);
}

const NO_RUNS: ReadonlySet<string> = new Set();

/**
 * The host keeps every question it was asked, so a question asked again after its turn failed or was stopped
 * (Retry, Ask again, or the same words typed again) is stored twice. The window shows it once: the repeat reads
 * as a quiet "Asked again" line under the failure, and the new answer follows.
 *
 * A failed agent's run (one of `childRunIds`, started by a call of the turn's run) does not fail the turn: its
 * parent goes on and answers, and the same words asked after that answer are a new question.
 */
export function markRepeats(
  items: readonly TimelineItem[],
  childRunIds: ReadonlySet<string> = NO_RUNS,
): readonly TimelineItem[] {
  let asked: string | null = null;
  let hasFailed = false;
  let changed: TimelineItem[] | null = null;
  items.forEach((item, index) => {
    if (item.kind === 'error' && !(item.runId !== null && childRunIds.has(item.runId))) hasFailed = true;
    if (!isQuestion(item)) return;
    if (hasFailed && item.text === asked && !item.isRepeat) {
      changed ??= [...items];
      changed[index] = asRepeat(item);
    }
    asked = item.text;
    hasFailed = false;
  });
  return changed ?? items;
}

/**
 * Whether the first question after the entry `id` is `prompt` itself: the failure was asked again at once (Retry,
 * Ask again, or the same words typed), and the quiet "You asked again" under it says so.
 */
export function isAskedAgainAfter(items: readonly TimelineItem[], id: string, prompt: string): boolean {
  const at = items.findIndex((item) => item.id === id);
  return items.slice(at + 1).find(isQuestion)?.text === prompt;
}
