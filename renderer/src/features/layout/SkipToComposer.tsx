import type { MouseEvent } from 'react';

/**
 * The main window's first tab stop, seen only while it has the focus: past the header and every conversation of
 * the list, straight into the message box (or, while Deputy works and the box is off, to its Stop). The address
 * is not followed: the window's hash holds its route and token.
 */
export function SkipToComposer() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const box = document.getElementById('composer-input');
    if (!(box instanceof HTMLTextAreaElement)) return;
    const target = box.disabled ? box.form?.querySelector<HTMLElement>('button:not(:disabled)') : box;
    target?.focus();
  };
  return (
    <a className="skip-link" href="#composer-input" data-testid="skip-to-composer" onClick={skip}>
      Skip to the message box
    </a>
  );
}
