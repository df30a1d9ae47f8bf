import type { KeyboardEvent } from 'react';

/**
 * Enter in one of a form's selects saves the form, as Enter already does in its other fields, radios and
 * checkboxes (the browser's implicit submission, which leaves selects out). A tab's Save is in the footer, after
 * everything on the tab, Permissions' after every rule: a keyboard user need not Tab past them all to save.
 */
export function saveOnEnterInSelect(event: KeyboardEvent<HTMLFormElement>): void {
  const field = event.target;
  if (event.key !== 'Enter' || event.defaultPrevented || event.nativeEvent.isComposing) return;
  if (!(field instanceof HTMLSelectElement) || field.form !== event.currentTarget) return;
  event.preventDefault();
  event.currentTarget.requestSubmit();
}
