import { useEffect, useRef, type RefObject } from 'react';
import { focusComposerIfLost } from './focus';
import { tabStops } from './tab-stops';

/**
 * A <dialog> shown as a modal while `isOpen`: the browser makes the page behind inert and Escape closes it, and
 * Tab goes round inside it (useTabWrap). Closed, it leaves the keyboard on its opener or the message box, never
 * on the page. Returns the ref to put on the dialog.
 */
export function useModalDialog(isOpen: boolean) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (isOpen && !dialog.open) dialog.showModal();
    if (!isOpen && dialog.open) {
      dialog.close();
      // Closing gives the keyboard back to what opened the dialog, unless that went meanwhile (the first-start
      // note's "Open Settings → Connections" goes once the key is saved): then the message box takes it.
      focusComposerIfLost();
    }
  }, [isOpen]);
  useTabWrap(dialogRef, isOpen);
  return dialogRef;
}

/**
 * Tab from a modal dialog's last control goes to its first, and Shift+Tab from its first to its last, as the
 * modal dialog pattern has it; so does Shift+Tab from its heading, where some dialogs put focus on opening.
 * Chromium lets Tab leave a modal dialog for the browser's own controls: Deputy's window has none, so the keyboard
 * fell to the page behind the dialog, where nothing can be used.
 */
export function useTabWrap(dialogRef: RefObject<HTMLElement | null>, isOpen: boolean): void {
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || !isOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Tab' || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey)
        return;
      const active = document.activeElement;
      if (!(active instanceof Node) || !dialog.contains(active)) return;
      // Wraps only where no stop is left that way: from the last, or from past it; also from something focused
      // that is not a stop itself (its heading, focused on opening), before the first or after the last.
      const stops = tabStops(dialog);
      const way = event.shiftKey ? Node.DOCUMENT_POSITION_PRECEDING : Node.DOCUMENT_POSITION_FOLLOWING;
      if (stops.some((stop) => (active.compareDocumentPosition(stop) & way) !== 0)) return;
      const next = event.shiftKey ? stops.at(-1) : stops[0];
      if (!next) return;
      event.preventDefault();
      next.focus();
    };
    dialog.addEventListener('keydown', onKeyDown);
    return () => dialog.removeEventListener('keydown', onKeyDown);
  }, [dialogRef, isOpen]);
}
