import { useRef, type FocusEvent } from 'react';

/**
 * Whether the keyboard's focus is in an element, or was when a redraw took away what had it. Moving to another
 * element outside forgets it; moving to nowhere (the window lost the focus, or what had it was removed and the focus
 * fell to the page) does not, so the element's owner can put the keyboard back after such a redraw. Spread
 * `handlers` on the element.
 */
export function useFocusWithin() {
  const wasInside = useRef(false);
  const handlers = {
    onFocus: () => {
      wasInside.current = true;
    },
    onBlur: (event: FocusEvent<HTMLElement>) => {
      if (event.relatedTarget) wasInside.current = event.currentTarget.contains(event.relatedTarget);
    },
  };
  return { wasInside, handlers };
}
