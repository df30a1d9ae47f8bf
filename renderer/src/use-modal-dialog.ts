import { useEffect, useRef } from 'react';

/**
 * A <dialog> shown as a modal while `isOpen`: the browser then traps focus inside it, Escape closes it, and the
 * page behind is inert. Returns the ref to put on the dialog.
 */
export function useModalDialog(isOpen: boolean) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (isOpen && !dialog.open) dialog.showModal();
    if (!isOpen && dialog.open) dialog.close();
  }, [isOpen]);
  return dialogRef;
}
