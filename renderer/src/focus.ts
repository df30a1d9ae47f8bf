/**
 * Whether the keyboard's focus is nowhere: nothing has it, or the element that had it was removed (a button
 * that went away with what it did), which leaves it on the page's body. Where that happens, the code that
 * removed the button puts focus somewhere sensible; where focus is anywhere else, the person put it there.
 */
export function isFocusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

/** Where the keyboard goes when what had it went away with nothing nearer to take it: the message box. */
export function focusComposerIfLost(): void {
  if (isFocusLost()) document.getElementById('composer-input')?.focus();
}

/**
 * Before a list's item goes with the button that removes it (an address, a price row): the keyboard moves to the
 * same button of the next item, the previous one's for the last, or to `fallback` when it was the only one,
 * instead of falling to the page with the button. `buttons` are the list's remove buttons, in order.
 */
export function focusPastRemoved(
  removing: HTMLElement,
  buttons: Iterable<HTMLElement>,
  fallback: HTMLElement | null,
): void {
  const all = [...buttons];
  const at = all.indexOf(removing);
  (all[at + 1] ?? all[at - 1] ?? fallback)?.focus();
}
