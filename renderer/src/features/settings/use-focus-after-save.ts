import { useCallback, useEffect, useState, type RefObject } from 'react';
import { isFocusLost } from '../../focus';

/**
 * Moves focus, once a save has been drawn, to the element a selector finds inside `area`: the buttons are
 * disabled while the save runs and the one pressed may be gone after it, so the focus would otherwise fall to the
 * page. It moves only when the focus is still in `area` or nowhere: a person who went elsewhere keeps their place.
 * `drawn` is what the save changes on screen; the element is looked for again each time it does.
 */
export function useFocusAfterSave(
  area: RefObject<HTMLElement | null>,
  drawn: unknown,
): (selector: string) => void {
  const [selector, setSelector] = useState<string | null>(null);
  useEffect(() => {
    if (selector === null) return;
    const target = area.current?.querySelector<HTMLElement>(selector);
    if (!target) return;
    setSelector(null);
    if (isFocusLost() || area.current?.contains(document.activeElement)) target.focus();
  }, [area, selector, drawn]);
  return useCallback((next: string) => setSelector(next), []);
}
