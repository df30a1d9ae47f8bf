import type { TimelineItem } from './timeline';

/**
 * Quiet lines about how a run went rather than what it said: it was picked up again after Deputy stopped
 * (`resumed`), or it finished only in the final turn it was granted to wrap up (`recovered`). The second must
 * never read as a plain success, so it is said in words, not only by colour.
 */
export type RunMark = 'resumed' | 'recovered';

export const RUN_MARK_TEXT: Record<RunMark, string> = {
  resumed: 'Resumed after Deputy restarted',
  recovered: 'Finished in its final turn (recovered)',
};

const isAnswer = (item: TimelineItem | undefined): boolean =>
  item?.kind === 'message' && item.role === 'assistant';

/** Where the run's own items end, leaving its marks aside; -1 when the run has none here. */
function lastItemOf(items: readonly TimelineItem[], runId: string): number {
  return items.findLastIndex((item) => item.runId === runId && item.kind !== 'mark');
}

const markItem = (runId: string, mark: RunMark): TimelineItem => ({
  kind: 'mark',
  id: `${mark}-${runId}`,
  runId,
  mark,
});

const insertAt = (items: readonly TimelineItem[], index: number, item: TimelineItem): TimelineItem[] => [
  ...items.slice(0, index),
  item,
  ...items.slice(index),
];

/** `item` right after the run's own rows (its marks aside), or at the end when the run has none here. */
export function placeAfterRun(
  items: readonly TimelineItem[],
  runId: string,
  item: TimelineItem,
): TimelineItem[] {
  const last = lastItemOf(items, runId);
  return last === -1 ? [...items, item] : insertAt(items, last + 1, item);
}

/**
 * The resumed line goes just before the run's final answer, or after everything the run has shown so far while
 * it is still going, so what follows it is what the picked-up run did. Placing it twice keeps one.
 */
export function placeResumed(items: readonly TimelineItem[], runId: string): TimelineItem[] {
  const mark = markItem(runId, 'resumed');
  if (items.some((item) => item.id === mark.id)) return [...items];
  const last = lastItemOf(items, runId);
  if (last === -1) return [...items, mark];
  return insertAt(items, isAnswer(items[last]) ? last : last + 1, mark);
}

/**
 * A recovered run's answer carries a badge; when the run did not end on an answer (it ended on a tool call,
 * or said nothing), a line after its last item says the same, so the badge never sits on an earlier turn.
 */
export function markRecovered(items: readonly TimelineItem[], runId: string): TimelineItem[] {
  const last = lastItemOf(items, runId);
  const answer = items[last];
  if (answer?.kind === 'message' && answer.role === 'assistant') {
    return items.map((item, index) => (index === last ? { ...answer, isRecovered: true } : item));
  }
  const mark = markItem(runId, 'recovered');
  if (items.some((item) => item.id === mark.id)) return [...items];
  return last === -1 ? [...items, mark] : insertAt(items, last + 1, mark);
}
