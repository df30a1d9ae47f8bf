/** A form field's text checked: its value, or a message that names the field. */
export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/** A number field's text as a whole number within bounds, or a message that names the field. */
export function wholeNumber(text: string, label: string, min: number, max: number): Checked<number> {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(value))
    return { ok: false, message: `${label}: enter a whole number.` };
  if (value < min || value > max)
    return { ok: false, message: `${label}: use a number from ${min} to ${max}.` };
  return { ok: true, value };
}

/** A form's patch says it holds changes: something to save, or a field it cannot read. */
export const isUnsaved = (patch: Checked<object>): boolean =>
  !patch.ok || Object.keys(patch.value).length > 0;
