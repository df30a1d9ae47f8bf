import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';

// What electron-store asks of Electron in the main process (the real module needs Electron's binary).
vi.mock('electron', () => {
  const electron = {
    app: { getPath: () => tmpdir(), getVersion: () => '0.0.0-test' },
    ipcMain: { on: () => undefined },
    shell: {},
  };
  return { ...electron, default: electron };
});

const { LEGACY_PREFERENCES_FILE, openPreferences, PREFERENCES_FILE } =
  await import('../../../electron/shell/preferences');

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

  it('move, once, from the JSON file of an earlier Deputy into electron-store, losing nothing', () => {
    const dataDir = folder();
    const earlier = {
      mainWindow: { bounds: { x: 10, y: 20, width: 900, height: 600 }, isMaximized: true },
      showTray: false,
      quickPromptShortcut: 'CommandOrControl+Alt+D',
      launchAtLogin: true,
      notifications: { runFinished: false, approvalNeeded: true, limitReached: false },
    };
    writeFileSync(join(dataDir, LEGACY_PREFERENCES_FILE), JSON.stringify(earlier));
    expect(openPreferences(dataDir).get()).toEqual(earlier);
    expect(JSON.parse(readFileSync(join(dataDir, PREFERENCES_FILE), 'utf8'))).toEqual(earlier);
    // Kept under another name, never deleted; and not read again.
    expect(existsSync(join(dataDir, LEGACY_PREFERENCES_FILE))).toBe(false);
    expect(existsSync(join(dataDir, `${LEGACY_PREFERENCES_FILE}.migrated`))).toBe(true);
    openPreferences(dataDir).update((current) => ({ ...current, showTray: true }));
    expect(openPreferences(dataDir).get()).toEqual({ ...earlier, showTray: true });
  });

  it('start from the defaults when the earlier file was not valid, and still move on from it', () => {
    const dataDir = folder();
    writeFileSync(join(dataDir, LEGACY_PREFERENCES_FILE), '{"launchAtLogin": "sometimes"}');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(openPreferences(dataDir).get().launchAtLogin).toBe(false);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
    expect(existsSync(join(dataDir, LEGACY_PREFERENCES_FILE))).toBe(false);
  });

  it('read the frozen files: electron-store’s shell.json, and the earlier shell-preferences.json', () => {
    const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'shell');
    const expected = JSON.parse(readFileSync(join(fixtures, 'shell.json'), 'utf8'));
    for (const name of [PREFERENCES_FILE, LEGACY_PREFERENCES_FILE]) {
      const dataDir = folder();
      copyFileSync(join(fixtures, name), join(dataDir, name));
      expect(openPreferences(dataDir).get()).toEqual(expected);
      expect(JSON.parse(readFileSync(join(dataDir, PREFERENCES_FILE), 'utf8'))).toEqual(expected);
    }
  });
});
