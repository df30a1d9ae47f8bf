import { useEffect, type KeyboardEvent, type ReactNode } from 'react';
import { useScrollEdges } from '../use-scroll-edges';

/**
 * A row of tabs (role tablist) that keeps to one line however narrow the window: it scrolls sideways, its edge
 * fades where more tabs lie that way, and an arrow button beside it (‹ or ›) scrolls to them with the pointer. The
 * arrows are for the pointer alone: the keyboard's arrow keys choose tabs and bring each into view, and a screen
 * reader hears every tab of the list wherever the row is scrolled, so the buttons are left out of both.
 */
export function ScrollingTabs({
  label,
  testId,
  onKeyDown,
  children,
}: {
  label: string;
  testId: string;
  onKeyDown: (event: KeyboardEvent) => void;
  children: ReactNode;
}) {
  const { ref, edges } = useScrollEdges<HTMLDivElement>();
  // A window made narrower leaves the row where it was scrolled: the chosen tab could end under the fade. As the
  // row changes width (with the window, or as the arrows' room comes or goes when the row starts or stops
  // overflowing), the chosen tab is brought back whole (clear of the fade: scroll-padding).
  useEffect(() => {
    const list = ref.current;
    if (!list) return;
    let width = list.clientWidth;
    const observer = new ResizeObserver(() => {
      if (list.clientWidth === width) return;
      width = list.clientWidth;
      list.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    });
    observer.observe(list);
    return () => observer.disconnect();
  }, [ref]);
  // The first tab cut off that way moves to the other end of the row, clear of the fade there (the row's
  // scroll-padding), with those after it: so each tab is seen whole on the way, page by page.
  const scroll = (direction: -1 | 1) => {
    const list = ref.current;
    if (!list) return;
    const fade = parseFloat(getComputedStyle(list).scrollPaddingInlineStart) || 0;
    const view = list.getBoundingClientRect();
    const tabs = [...list.children];
    const next =
      direction > 0
        ? tabs.find((tab) => tab.getBoundingClientRect().right > view.right - fade + 1)
        : tabs.findLast((tab) => tab.getBoundingClientRect().left < view.left + fade - 1);
    const isCalm = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    next?.scrollIntoView({
      block: 'nearest',
      inline: direction > 0 ? 'start' : 'end',
      behavior: isCalm ? 'auto' : 'smooth',
    });
  };
  // While the row overflows, each end keeps an arrow's room, so the list is as wide as it is scrolled: the arrows
  // cover no tab's words (a tab cut off fades out before one), and paging does not change the list's width. At
  // an end with nothing more that way the room stays, empty.
  const isOverflowing = edges.hasMoreBefore || edges.hasMoreAfter;
  const arrow = (direction: -1 | 1, hasMore: boolean) => {
    if (!isOverflowing) return null;
    if (!hasMore) return <span className="tabs-row__arrow tabs-row__arrow--idle" aria-hidden="true" />;
    return (
      <button
        type="button"
        className={`tabs-row__arrow tabs-row__arrow--${direction < 0 ? 'back' : 'more'}`}
        tabIndex={-1}
        aria-hidden="true"
        data-testid={direction < 0 ? `${testId}-back` : `${testId}-more`}
        // Pressed, it leaves the keyboard where it was (on the chosen tab): it takes no focus of its own.
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => scroll(direction)}
      >
        {direction < 0 ? '‹' : '›'}
      </button>
    );
  };
  return (
    <div className="tabs-row">
      {arrow(-1, edges.hasMoreBefore)}
      <div
        ref={ref}
        className="tabs"
        role="tablist"
        aria-label={label}
        data-more-before={edges.hasMoreBefore || undefined}
        data-more-after={edges.hasMoreAfter || undefined}
        data-testid={testId}
        onKeyDown={onKeyDown}
      >
        {children}
      </div>
      {arrow(1, edges.hasMoreAfter)}
    </div>
  );
}
