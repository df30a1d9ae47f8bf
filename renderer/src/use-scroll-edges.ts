import { useCallback, useEffect, useRef, useState } from 'react';

/** Whether a row that scrolls sideways has more to either side of what is in view. */
export interface ScrollEdges {
  hasMoreBefore: boolean;
  hasMoreAfter: boolean;
}

const NONE: ScrollEdges = { hasMoreBefore: false, hasMoreAfter: false };

/**
 * Follows a sideways-scrolling element (as it scrolls, and as it or its content changes size) and says whether
 * anything is hidden to its start or its end, so the row can show it (a fade at that edge) only when true.
 */
export function useScrollEdges<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [edges, setEdges] = useState<ScrollEdges>(NONE);

  const measure = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    // A pixel's slack: zoom can leave scrollLeft a fraction short of its end.
    const scrolled = Math.abs(element.scrollLeft);
    const next = {
      hasMoreBefore: scrolled > 1,
      hasMoreAfter: scrolled + element.clientWidth < element.scrollWidth - 1,
    };
    setEdges((previous) =>
      previous.hasMoreBefore === next.hasMoreBefore && previous.hasMoreAfter === next.hasMoreAfter
        ? previous
        : next,
    );
  }, []);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of Array.from(element.children)) observer.observe(child);
    element.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', measure);
    };
  }, [measure]);

  return { ref, edges };
}
