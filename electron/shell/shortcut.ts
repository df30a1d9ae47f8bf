import { globalShortcut } from 'electron';

export type ShortcutResult = { ok: true } | { ok: false; message: string };

/** How the key is named to the person: Alt is the Option key on a Mac. */
export function shortcutLabel(accelerator: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'darwin' ? accelerator.replace(/\bAlt\b/g, 'Option') : accelerator;
}

/**
 * Registers the quick prompt's global shortcut, replacing the one registered before. The OS refuses a key
 * another app holds; that comes back as words for the person, not as a silent failure.
 */
export function registerQuickPromptShortcut(accelerator: string, onPress: () => void): ShortcutResult {
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
      message: `${label} is already used by another app or by the system, so it cannot open Deputy's quick prompt. Choose another key in Deputy's shell preferences.`,
    };
  }
  return { ok: true };
}
