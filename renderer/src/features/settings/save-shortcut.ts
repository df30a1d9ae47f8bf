/** The keys a shortcut is read from, so it is tested without a DOM. */
export interface SavePress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

export type Platform = 'mac' | 'pc';

export const PLATFORM: Platform =
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? 'mac' : 'pc';

/**
 * Save's shortcut in Settings, Command+S on a Mac and Ctrl+S elsewhere, as in every editor: the keyboard need
 * not pass every rule of Permissions to reach Save. `label` is how a person reads it; `aria` is for
 * aria-keyshortcuts.
 */
export const saveShortcut = (platform: Platform = PLATFORM) =>
  platform === 'mac' ? { label: '⌘S', aria: 'Meta+S' } : { label: 'Ctrl+S', aria: 'Control+S' };

export function isSaveShortcut(press: SavePress, platform: Platform = PLATFORM): boolean {
  const [command, other] =
    platform === 'mac' ? [press.metaKey, press.ctrlKey] : [press.ctrlKey, press.metaKey];
  return command && !other && !press.altKey && !press.shiftKey && press.key.toLowerCase() === 's';
}
