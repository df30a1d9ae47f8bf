import { globalShortcut } from 'electron';

export type ShortcutResult = { ok: true } | { ok: false; message: string };

/** How the key is named to the person: Alt is the Option key on a Mac. */
export function shortcutLabel(accelerator: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'darwin' ? accelerator.replace(/\bAlt\b/g, 'Option') : accelerator;
}

const COMMAND_KEYS = new Set(['CommandOrControl', 'Command', 'Control']);
const MODIFIERS = new Set([...COMMAND_KEYS, 'Alt', 'Shift', 'Super']);
const MODIFIER_ALIASES: Readonly<Record<string, string>> = {
  cmdorctrl: 'CommandOrControl',
  commandorcontrol: 'CommandOrControl',
  cmd: 'Command',
  command: 'Command',
  ctrl: 'Control',
  control: 'Control',
  alt: 'Alt',
  option: 'Alt',
  shift: 'Shift',
  super: 'Super',
  meta: 'Super',
};
/** Keys every app uses with Ctrl/Cmd (select all, copy, find, new, quit, save, paste, close, cut, undo, tab). */
const EVERYDAY_KEYS = new Set(['A', 'C', 'F', 'N', 'Q', 'S', 'V', 'W', 'X', 'Z', 'TAB']);
const FUNCTION_KEY = /^F([1-9]|1\d|2[0-4])$/;

/**
 * Why a key combination cannot be the quick prompt's shortcut even before the OS is asked, or null. A key
 * with no modifier (other than F1–F24) would fire on every keystroke typed anywhere; Ctrl/Cmd with an
 * everyday letter (copy, paste, quit…) would take it from every other app.
 */
export function shortcutConflict(
  accelerator: string,
  platform: NodeJS.Platform = process.platform,
): string | null {
  const parts = accelerator.split('+').map((part) => MODIFIER_ALIASES[part.toLowerCase()] ?? part);
  const key = parts.at(-1) ?? '';
  const modifiers = parts.slice(0, -1);
  const label = shortcutLabel(accelerator, platform);
  if (!/^[\w=\-[\];',./`\\]+$/.test(key) || modifiers.some((m) => !MODIFIERS.has(m))) {
    return `“${label}” is not a key combination Deputy understands.`;
  }
  if (modifiers.length === 0 && !FUNCTION_KEY.test(key)) {
    return `${label} alone would open the quick prompt whenever you type it anywhere. Add Ctrl, Alt or Shift (Command or Option on a Mac).`;
  }
  const isEditingKey =
    modifiers.some((m) => COMMAND_KEYS.has(m)) &&
    modifiers.every((m) => COMMAND_KEYS.has(m) || m === 'Shift') &&
    EVERYDAY_KEYS.has(key.toUpperCase());
  if (isEditingKey) {
    return `${label} is how every app copies, pastes, saves or quits; Deputy will not take it from them. Choose another key.`;
  }
  return null;
}

/**
 * Registers the quick prompt's global shortcut, replacing the one registered before. The OS refuses a key
 * another app holds; that comes back as words for the person, not as a silent failure.
 */
export function registerQuickPromptShortcut(accelerator: string, onPress: () => void): ShortcutResult {
  const conflict = shortcutConflict(accelerator);
  if (conflict) return { ok: false, message: conflict };
  globalShortcut.unregisterAll();
  const label = shortcutLabel(accelerator);
  let isRegistered: boolean;
  try {
    isRegistered = globalShortcut.register(accelerator, onPress);
  } catch {
    // Electron throws for a string that is not an accelerator at all (a hand-edited preference).
    return { ok: false, message: `“${label}” is not a key combination Deputy understands.` };
  }
  if (!isRegistered) {
    return {
      ok: false,
      message: `${label} is already used by another app or by the system, so it cannot open Deputy's quick prompt. Choose another key in Settings → Desktop.`,
    };
  }
  return { ok: true };
}
