import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openPreferences, PREFERENCES_FILE } from '../../../electron/shell/preferences';

const folder = () => mkdtempSync(join(tmpdir(), 'deputy-prefs-'));

describe('shell preferences', () => {
  it('start from the defaults, and an update survives reopening', () => {
    const dataDir = folder();
    const first = openPreferences(dataDir);
    expect(first.get()).toEqual({
      mainWindow: { isMaximized: false },
      showTray: true,
      quickPromptShortcut: 'Alt+Space',
      launchAtLogin: false,
      notifications: { runFinished: true, approvalNeeded: true, limitReached: true },
    });
    first.update((current) => ({
      ...current,
      launchAtLogin: true,
      quickPromptShortcut: 'CommandOrControl+Alt+D',
    }));
    const again = openPreferences(dataDir).get();
    expect(again.launchAtLogin).toBe(true);
    expect(again.quickPromptShortcut).toBe('CommandOrControl+Alt+D');
  });

  it('fall back to the defaults when the file is not valid, and say so', () => {
    const dataDir = folder();
    writeFileSync(join(dataDir, PREFERENCES_FILE), '{"showTray": "yes please"');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(openPreferences(dataDir).get().showTray).toBe(true);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('refuse to write a value outside the schema', () => {
    const dataDir = folder();
    const store = openPreferences(dataDir);
    store.update((current) => ({ ...current, showTray: false }));
    expect(() =>
      store.update((current) => ({
        ...current,
        mainWindow: { isMaximized: false, bounds: { x: 0, y: 0, width: 5, height: 5 } },
      })),
    ).toThrow();
    expect(JSON.parse(readFileSync(join(dataDir, PREFERENCES_FILE), 'utf8')).showTray).toBe(false);
  });
});
