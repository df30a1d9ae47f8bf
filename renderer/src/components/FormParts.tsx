import type { MouseEvent, ReactNode } from 'react';

/**
 * An error shown in place, announced to screen readers as it appears. `isFocusable`: the keyboard may be put on it
 * (by code, not Tab), where what it is about went away with the control that had the keyboard.
 */
export function FormError({
  id,
  testId,
  isFocusable = false,
  children,
}: {
  id?: string;
  testId?: string;
  isFocusable?: boolean;
  children: ReactNode;
}) {
  return (
    <p
      id={id}
      className="form-error"
      role="alert"
      data-testid={testId}
      tabIndex={isFocusable ? -1 : undefined}
    >
      {children}
    </p>
  );
}

interface SubmitButtonProps {
  isBusy: boolean;
  label: string;
  busyLabel: string;
  /** plain: a second way to submit beside a primary one. */
  variant?: 'primary' | 'stop' | 'plain';
  testId?: string;
  /** The form it submits, when it is drawn outside it (a dialog's footer). */
  form?: string;
  /** The keys that press it too, as its title says them and aria-keyshortcuts names them. */
  keyShortcut?: { label: string; aria: string };
}

/**
 * A button that does nothing while `isBusy`, yet keeps the keyboard's focus: marked aria-disabled rather than
 * disabled, since a disabled button loses the focus, which would fall to the page under the person who just
 * pressed it. For a submit button (no `onPress`) a press, or Enter in a field, submits nothing meanwhile.
 */
export function whileBusy(isBusy: boolean, onPress?: (event: MouseEvent<HTMLButtonElement>) => void) {
  return {
    'aria-disabled': isBusy || undefined,
    onClick: isBusy ? (event: MouseEvent<HTMLButtonElement>) => event.preventDefault() : onPress,
  };
}

/** A form's submit button: saying what it is doing, and doing nothing when pressed, while the form is busy. */
export function SubmitButton({
  isBusy,
  label,
  busyLabel,
  variant = 'primary',
  testId,
  form,
  keyShortcut,
}: SubmitButtonProps) {
  return (
    <button
      type="submit"
      form={form}
      className={variant === 'plain' ? 'button' : `button button--${variant}`}
      {...whileBusy(isBusy)}
      title={keyShortcut && `${label} (${keyShortcut.label})`}
      aria-keyshortcuts={keyShortcut?.aria}
      data-testid={testId}
    >
      {isBusy ? busyLabel : label}
    </button>
  );
}

interface CheckboxOptionProps {
  checked: boolean;
  testId: string;
  onChange(checked: boolean): void;
  children: ReactNode;
}

/** A checkbox with its words as its label. */
export function CheckboxOption({ checked, testId, onChange, children }: CheckboxOptionProps) {
  return (
    <label className="checkbox-option">
      <input
        type="checkbox"
        checked={checked}
        data-testid={testId}
        onChange={(event) => onChange(event.target.checked)}
      />
      {children}
    </label>
  );
}
