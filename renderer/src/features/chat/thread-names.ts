import type { ThreadSummary } from '../../../../shared/contract';

/** How a conversation's row reads: its title and when it last changed, told apart from rows alike. */
export interface ThreadName {
  /** The title shown: the conversation's own, or "Untitled conversation". */
  title: string;
  /** When it last changed, to the minute; to the second where a row of the same title shares the minute. */
  when: string;
  /**
   * What its Rename and Delete say they act on: the title, and where another row has the same title, the time
   * too, so that a screen reader moving from button to button hears which of them each one is.
   */
  label: string;
}

/** A conversation's own title, or "Untitled conversation" for one that has none. */
export const ownTitle = (thread: ThreadSummary): string => thread.title || 'Untitled conversation';

function formatWhen(iso: string, hasSeconds: boolean): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: hasSeconds ? 'medium' : 'short' });
}

/** Counts how many times each key comes up. */
function tally(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

/**
 * Each conversation with its row's words, in the list's order. Two conversations of the same title changed
 * in the same minute would read alike ("Plan my week · Nov 28, 2026, 6:00 PM" twice): their times then say
 * the seconds. Alike to the second too (a script started both), the newer ones are numbered as they came:
 * "Plan my week (2)".
 */
export function namedThreads(
  threads: readonly ThreadSummary[],
): { thread: ThreadSummary; name: ThreadName }[] {
  const rows = threads.map((thread) => {
    const title = ownTitle(thread);
    return {
      thread,
      title,
      byMinute: `${title}\n${formatWhen(thread.updatedAt, false)}`,
      bySecond: `${title}\n${formatWhen(thread.updatedAt, true)}`,
    };
  });
  const sameTitle = tally(rows.map((row) => row.title));
  const sameMinute = tally(rows.map((row) => row.byMinute));
  // The list is newest first: of rows alike to the second, the oldest is the last, and keeps its title as is.
  const places = new Map<string, number>();
  const named: { thread: ThreadSummary; name: ThreadName }[] = [];
  for (const row of rows.toReversed()) {
    const place = (places.get(row.bySecond) ?? 0) + 1;
    places.set(row.bySecond, place);
    const title = place > 1 ? `${row.title} (${place})` : row.title;
    const when = formatWhen(row.thread.updatedAt, (sameMinute.get(row.byMinute) ?? 0) > 1);
    const isShared = (sameTitle.get(row.title) ?? 0) > 1 && when !== '';
    named.unshift({
      thread: row.thread,
      name: { title, when, label: isShared ? `“${title}” (${when})` : `“${title}”` },
    });
  }
  return named;
}

/** The title the list's row of `threadId` shows, numbered as the list numbers it, or null when it is not listed. */
export function listedTitle(threads: readonly ThreadSummary[], threadId: string | null): string | null {
  if (threadId === null) return null;
  return namedThreads(threads).find((row) => row.thread.id === threadId)?.name.title ?? null;
}
