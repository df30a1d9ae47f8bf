import { createContext, useContext } from 'react';

/** Room left above a revealed element, in pixels, so its top edge does not touch the viewport's. */
const MARGIN = 8;

/**
 * Where to scroll so an element (an approval card) reads from its top: centred when it fits, so its buttons
 * show too; otherwise with its top (the title) just inside the viewport. Positions are within the scroller.
 */
export function revealedScrollTop({
  top,
  height,
  viewport,
}: {
  top: number;
  height: number;
  viewport: number;
}): number {
  const scrollTop = height + 2 * MARGIN <= viewport ? top - (viewport - height) / 2 : top - MARGIN;
  return Math.max(0, scrollTop);
}

/**
 * Brings an element into view. The conversation provides its own, which also stops it following the end
 * (otherwise the next streamed row would scroll the element away again); elsewhere the browser's is enough.
 */
export const RevealContext = createContext<(element: HTMLElement) => void>((element) =>
  element.scrollIntoView({ block: 'center' }),
);

export const useReveal = () => useContext(RevealContext);
