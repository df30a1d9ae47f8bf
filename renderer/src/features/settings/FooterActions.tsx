import { createContext, useContext, useLayoutEffect, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { saveShortcut } from './save-shortcut';

export interface FooterPlace {
  /** Where the tab's Save goes: the dialog's footer, which stays in view however long the tab is. */
  slot: HTMLElement | null;
  /** Tells the dialog whether the tab's form differs from what is saved (the footer says so; Close asks). */
  reportUnsaved(isUnsaved: boolean): void;
}

export const FooterPlace = createContext<FooterPlace | null>(null);

/**
 * A form's Save and what became of it, drawn in the dialog's footer (in place outside the dialog). The Save
 * button names its form (`form=`), so it submits it from there. `isUnsaved`: the form differs from what is saved.
 */
export function FooterActions({ isUnsaved, children }: { isUnsaved: boolean; children: ReactNode }) {
  const place = useContext(FooterPlace);
  const report = place?.reportUnsaved;
  // Told as the change is drawn, not after: an Escape pressed right after a paste must already find it unsaved.
  useLayoutEffect(() => report?.(isUnsaved), [report, isUnsaved]);
  // A form that goes (discarded, or drawn again from what is saved) has nothing left unsaved.
  useLayoutEffect(() => () => report?.(false), [report]);
  return place?.slot ? (
    createPortal(children, place.slot)
  ) : (
    <div className="settings-form__actions">{children}</div>
  );
}

/**
 * A tab's Save in the footer. Its shortcut (Ctrl+S, ⌘S on a Mac) presses it from anywhere on the tab; the title
 * says so to a pointer, aria-keyshortcuts to a screen reader.
 */
export function FooterSave({
  form,
  label,
  isBusy,
  testId,
}: {
  form: string;
  label: string;
  isBusy: boolean;
  testId: string;
}) {
  const shortcut = saveShortcut();
  return (
    <button
      type="submit"
      form={form}
      className="button button--primary"
      disabled={isBusy}
      title={`${label} (${shortcut.label})`}
      aria-keyshortcuts={shortcut.aria}
      data-footer-save=""
      data-testid={testId}
    >
      {isBusy ? 'Saving…' : label}
    </button>
  );
}
