import { useVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import type { RunUsage } from './run-cost';
import type { TimelineItem } from './timeline';
import { TimelineEntry } from './timeline-entry';
import { nestedRows, type RowExtras } from './nested-rows';
import { timelineRows } from './timeline-rows';

/** Room between rows, in pixels: the virtualizer counts it and the list's CSS gap draws it. */
const ROW_GAP = 12;
const ESTIMATED_ROW = 72;

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
  extras,
}: {
  items: readonly TimelineItem[];
  /** Plan trees, child runs and artifacts, placed among the rows. */
  extras: RowExtras;
  usage?: Record<string, RunUsage>;
  scrollRef: RefObject<HTMLElement | null>;
  isPinned: RefObject<boolean>;
}) {
  const rows = useMemo(() => nestedRows(timelineRows(items, usage), extras), [items, usage, extras]);
  const listRef = useRef<HTMLOListElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW,
    getItemKey: (index) => rows[index]?.id ?? index,
    overscan: 6,
    gap: ROW_GAP,
    scrollMargin: listRef.current?.offsetTop ?? 0,
  });
  const virtualRows = virtualizer.getVirtualItems();
  const total = virtualizer.getTotalSize();

  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (scroller && isPinned.current) scroller.scrollTop = scroller.scrollHeight;
  }, [rows, total, scrollRef, isPinned]);

  const first = virtualRows[0];
  const last = virtualRows.at(-1);
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
          />
        ) : null;
      })}
    </ol>
  );
}
