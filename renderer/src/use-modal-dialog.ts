import { useEffect, useRef, type RefObject } from 'react';
import { tabStops } from './tab-stops';

/**
 * A <dialog> shown as a modal while `isOpen`: the browser makes the page behind inert and Escape closes it, and
 * Tab goes round inside it (useTabWrap). Returns the ref to put on the dialog.
 */
export function useModalDialog(isOpen: boolean) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (isOpen && !dialog.open) dialog.showModal();
    if (!isOpen && dialog.open) dialog.close();
  }, [isOpen]);
  useTabWrap(dialogRef, isOpen);
  return dialogRef;
}

/**
 * Tab from a modal dialog's last control goes to its first, and Shift+Tab from its first to its last, as the
 * modal dialog pattern has it. Chromium lets Tab leave a modal dialog for the browser's own controls: Deputy's
 * window has none, so the keyboard fell to the page behind the dialog, where nothing can be used.
 */
export function useTabWrap(dialogRef: RefObject<HTMLDialogElement | null>, isOpen: boolean): void {
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || !isOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Tab' || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey)
        return;
      const stops = tabStops(dialog);
      const [first, last] = [stops[0], stops.at(-1)];
      const active = document.activeElement;
      const next = event.shiftKey ? (active === first ? last : null) : active === last ? first : null;
      if (!next) return;
      event.preventDefault();
      next.focus();
    };
    dialog.addEventListener('keydown', onKeyDown);
    return () => dialog.removeEventListener('keydown', onKeyDown);
  }, [dialogRef, isOpen]);
}
