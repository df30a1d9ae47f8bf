const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable="true"]';

/**
 * The elements inside `root` that Tab stops at, in order: focusable, not disabled, not taken out of the order
 * (tabindex -1), drawn (not in a hidden tab panel or a closed disclosure), and of a group of radio buttons only
 * the checked one.
 */
export function tabStops(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) =>
      element.tabIndex >= 0 &&
      !element.matches(':disabled') &&
      !(element instanceof HTMLInputElement && element.type === 'hidden') &&
      element.closest('[inert]') === null &&
      element.checkVisibility({ visibilityProperty: true }) &&
      !isUncheckedRadioOfCheckedGroup(element, root),
  );
}

function isUncheckedRadioOfCheckedGroup(element: HTMLElement, root: HTMLElement): boolean {
  if (!(element instanceof HTMLInputElement) || element.type !== 'radio' || element.checked || !element.name)
    return false;
  return [...root.querySelectorAll<HTMLInputElement>('input[type="radio"]:checked')].some(
    (other) => other.name === element.name && other.form === element.form,
  );
}
