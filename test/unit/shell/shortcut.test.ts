import { describe, expect, it, vi } from 'vitest';

const taken = new Set<string>();
const registered = new Map<string, () => void>();

vi.mock('electron', () => ({
  globalShortcut: {
    unregisterAll: () => registered.clear(),
    register: (key: string, callback: () => void) => {
      if (key.includes(' ')) throw new Error('Failed to parse accelerator');
      if (taken.has(key)) return false;
      registered.set(key, callback);
      return true;
    },
  },
}));

const { registerQuickPromptShortcut, shortcutConflict, shortcutLabel } =
  await import('../../../electron/shell/shortcut');

describe('the quick prompt shortcut', () => {
  it('registers the key, replacing the one before', () => {
    registerQuickPromptShortcut('Alt+Space', () => undefined);
    expect(registerQuickPromptShortcut('CommandOrControl+Alt+D', () => undefined)).toEqual({ ok: true });
    expect([...registered.keys()]).toEqual(['CommandOrControl+Alt+D']);
  });

  it('says in words when another app holds the key, or the key is not one', () => {
    taken.add('Alt+Space');
    const refused = registerQuickPromptShortcut('Alt+Space', () => undefined);
    expect(refused).toMatchObject({
      ok: false,
      message: expect.stringContaining('already used by another app'),
    });
    expect(registerQuickPromptShortcut('not a key', () => undefined)).toMatchObject({
      ok: false,
      message: expect.stringContaining('not a key combination'),
    });
  });

  it('names Alt as Option on a Mac', () => {
    expect(shortcutLabel('Alt+Space', 'darwin')).toBe('Option+Space');
    expect(shortcutLabel('Alt+Space', 'win32')).toBe('Alt+Space');
  });

  it('refuses, in words and before asking the OS, a key that would break typing or everyday shortcuts', () => {
    expect(shortcutConflict('Alt+Space', 'linux')).toBeNull();
    expect(shortcutConflict('CommandOrControl+Shift+K', 'linux')).toBeNull();
    expect(shortcutConflict('F8', 'linux')).toBeNull();
    expect(shortcutConflict('K', 'linux')).toContain('whenever you type it anywhere');
    expect(shortcutConflict('CommandOrControl+C', 'darwin')).toContain('copies, pastes, saves or quits');
    expect(shortcutConflict('Control+Shift+Z', 'linux')).toContain('copies, pastes, saves or quits');
    expect(shortcutConflict('Hyper+K', 'linux')).toContain('not a key combination');
    expect(shortcutConflict('Alt+C', 'darwin')).toBeNull();
    registered.clear();
    expect(registerQuickPromptShortcut('CommandOrControl+V', () => undefined)).toMatchObject({ ok: false });
    expect(registered.size).toBe(0);
  });
});
