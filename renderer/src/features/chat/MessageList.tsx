import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { RunUsage } from './run-cost';
import type { TimelineItem } from './timeline';
import { TimelineEntry } from './timeline-entry';
import { nestedRows, type RowExtras } from './nested-rows';
import { timelineRows } from './timeline-rows';
import { useReveal } from '../../reveal';

/** Room between rows, in pixels: the virtualizer counts it and the list's CSS gap draws it. */
const ROW_GAP = 12;
const ESTIMATED_ROW = 72;

/** Where a search hit opens the conversation: a message's row, or a plan's row at one of its steps. */
export interface FoundPlace {
  rowId: string;
  /** The plan step inside the row that says the words found (a question step's question or answer). */
  stepId?: string;
}

/**
 * The conversation's entries, virtualised: only the rows near the viewport are in the page, in normal flow
 * between two paddings that stand for the rest, so the `<ol>`/`<li>` list stays whole for screen readers.
 * Follows the bottom while the reader is there; someone scrolling back keeps their place.
 */
export function MessageList({
  items,
  usage,
  scrollRef,
  isPinned,
  onLayout,
  extras,
  focus = null,
  onFocused,
}: {
  items: readonly TimelineItem[];
  /** Plan trees, child runs and artifacts, placed among the rows. */
  extras: RowExtras;
  usage?: Record<string, RunUsage>;
  scrollRef: RefObject<HTMLElement | null>;
  isPinned: RefObject<boolean>;
  /** After the rows' layout changed (a row measured, one added) while the list does not follow the end. */
  onLayout?: () => void;
  /** Where to bring into view (a search hit's): the list scrolls there, marks it and moves focus there. */
  focus?: FoundPlace | null;
  onFocused?: () => void;
}) {
  const rows = useMemo(() => nestedRows(timelineRows(items, usage), extras), [items, usage, extras]);
  const listRef = useRef<HTMLOListElement>(null);
  // The scroll element is the section around this list, whose ref React sets only after the list's own layout
  // effects have run: on mount the virtualizer finds no element, and a list mounted with its rows already there (the
  // conversation open in the workspace when the quick prompt is shown) drew none of them until something else
  // rendered it again. Once the ref is set, the list renders once more, and the virtualizer takes the element then.
  const [, setIsMounted] = useState(false);
  useEffect(() => setIsMounted(true), []);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW,
    getItemKey: (index) => rows[index]?.id ?? index,
    overscan: 6,
    gap: ROW_GAP,
    scrollMargin: listRef.current?.offsetTop ?? 0,
  });
  // A row drawn in the page pushes down only what follows it: the scroll makes up for its growth only when it
  // sat wholly above the viewport. (The virtualizer's own rule reads a scroll position that may be a frame old,
  // and moved an approval card that had just been scrolled to its title back to the end.)
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = (item) => {
    const scroller = scrollRef.current;
    if (!scroller) return false;
    const element = listRef.current?.querySelector(`:scope > [data-index="${item.index}"]`);
    if (!element) return item.start < scroller.scrollTop;
    const top = element.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
    return top + item.size <= 0;
  };
  const virtualRows = virtualizer.getVirtualItems();
  const total = virtualizer.getTotalSize();

  const first = virtualRows[0];
  const last = virtualRows.at(-1);

  // A found message not drawn yet: the index the list scrolls toward, by the rows' guessed heights, each time its
  // layout changes (at first the list may not know its own height). Once drawn it is revealed as an approval card
  // is (centred when it fits, else from its top) and held there while the rows around it are measured. The
  // virtualizer's scrollToIndex would go on centring it, which cuts off the top, and often the match, of a message
  // taller than the window.
  const seeking = useRef<{ index: number; stepId?: string } | null>(null);
  const reveal = useReveal();
  const seekFound = useCallback(() => {
    const sought = seeking.current;
    const scroller = scrollRef.current;
    if (sought === null || !scroller) return;
    const { index, stepId } = sought;
    const found = listRef.current?.querySelector<HTMLElement>(`:scope > [data-index="${index}"]`);
    if (found) {
      seeking.current = null;
      const step = stepId ? found.querySelector<HTMLElement>(`[data-step-id="${CSS.escape(stepId)}"]`) : null;
      reveal(step ?? found);
      return;
    }
    const [offset] = virtualizer.getOffsetForIndex(index, 'center') ?? [];
    if (offset !== undefined) scroller.scrollTop = offset;
  }, [scrollRef, virtualizer, reveal]);

  // Which rows are drawn: a change may have drawn the found message.
  const drawn = `${first?.index ?? ''}-${last?.index ?? ''}`;
  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (scroller && isPinned.current) {
      seeking.current = null;
      scroller.scrollTop = scroller.scrollHeight;
    } else if (seeking.current !== null) seekFound();
    else onLayout?.();
  }, [rows, total, drawn, scrollRef, isPinned, onLayout, seekFound]);

  // The found message (or step): the list stops following the end, shows it, and keeps it marked until the next.
  const [found, setFound] = useState<FoundPlace | null>(null);
  useEffect(() => {
    if (focus === null) return;
    const index = rows.findIndex((row) => row.id === focus.rowId);
    if (index < 0) return;
    isPinned.current = false;
    seeking.current = { index, stepId: focus.stepId };
    seekFound();
    setFound(focus);
    onFocused?.();
  }, [focus, rows, seekFound, isPinned, onFocused]);

  const scrollMargin = virtualizer.options.scrollMargin;
  return (
    <ol
      ref={listRef}
      className="timeline"
      data-testid="timeline"
      style={{
        paddingTop: first ? first.start - scrollMargin : 0,
        paddingBottom: last ? Math.max(0, total - (last.end - scrollMargin)) : 0,
      }}
    >
      {virtualRows.map((virtualRow) => {
        const row = rows[virtualRow.index];
        return row ? (
          <TimelineEntry
            key={virtualRow.key}
            item={row}
            index={virtualRow.index}
            measure={virtualizer.measureElement}
            isFound={row.id === found?.rowId}
            foundStepId={row.id === found?.rowId ? found.stepId : undefined}
          />
        ) : null;
      })}
    </ol>
  );
}
