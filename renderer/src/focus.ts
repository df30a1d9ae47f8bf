/**
 * Whether the keyboard's focus is nowhere: nothing has it, or the element that had it was removed (a button
 * that went away with what it did), which leaves it on the page's body. Where that happens, the code that
 * removed the button puts focus somewhere sensible; where focus is anywhere else, the person put it there.
 */
export function isFocusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}
