/** The parts of a KeyboardEvent a shortcut is made from, so the mapping is tested without a DOM. */
export interface KeyPress {
  code: string;
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}

export type KeyNames = 'mac' | 'pc';

const NAMED_CODES: Readonly<Record<string, string>> = {
  Space: 'Space',
  Enter: 'Enter',
  Backspace: 'Backspace',
  Delete: 'Delete',
  Insert: 'Insert',
  Home: 'Home',
  End: 'End',
  PageUp: 'PageUp',
  PageDown: 'PageDown',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  Minus: '-',
  Equal: '=',
  BracketLeft: '[',
  BracketRight: ']',
  Semicolon: ';',
  Quote: "'",
  Comma: ',',
  Period: '.',
  Slash: '/',
  Backquote: '`',
  Backslash: '\\',
};

/** The key itself, by its place on the keyboard (so Option+Space on a Mac is not read as a non-breaking space). */
function keyOf(code: string): string | null {
  if (/^Key[A-Z]$/.test(code)) return code.slice(3);
  if (/^Digit\d$/.test(code)) return code.slice(5);
  if (/^F([1-9]|1\d|2[0-4])$/.test(code)) return code;
  return NAMED_CODES[code] ?? null;
}

/**
 * The Electron accelerator for a key press, or null while only modifiers are held (the recorder waits for
 * the key). Command on a Mac and Ctrl elsewhere both become CommandOrControl, as the app menu names them.
 */
export function acceleratorOf(press: KeyPress, keyNames: KeyNames): string | null {
  const key = keyOf(press.code);
  if (!key) return null;
  const command = keyNames === 'mac' ? press.metaKey : press.ctrlKey;
  const control = keyNames === 'mac' && press.ctrlKey;
  return [
    command && 'CommandOrControl',
    control && 'Control',
    press.altKey && 'Alt',
    press.shiftKey && 'Shift',
    key,
  ]
    .filter(Boolean)
    .join('+');
}

/** How a person reads an accelerator on their keyboard. */
export function acceleratorLabel(accelerator: string, keyNames: KeyNames): string {
  const names: Record<string, string> =
    keyNames === 'mac'
      ? { CommandOrControl: 'Command', Command: 'Command', Control: 'Control', Alt: 'Option' }
      : { CommandOrControl: 'Ctrl', Command: 'Ctrl', Control: 'Ctrl', Alt: 'Alt' };
  return accelerator
    .split('+')
    .map((part) => names[part] ?? part)
    .join('+');
}
