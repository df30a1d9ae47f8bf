import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsService } from '../../../electron/host/settings';
import { Store } from '../../../electron/store/store';

/**
 * "Pause all side effects" reaches disk as two rows of the settings table, written as below (frozen: a change
 * to how they are stored shows up here). A database from before the pause existed reads as not paused.
 */
const FROZEN_ROWS = [
  ['sideEffectsPaused', 'true'],
  ['sideEffectsPausedChangedAt', '"2026-11-23T21:00:00.000Z"'],
] as const;
const V7 = join(import.meta.dirname, '..', '..', 'fixtures', 'databases', 'deputy-v7-audit.db');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-pause-'));
  dirs.push(dir);
  return dir;
}

describe('the pause on disk', () => {
  it('reads the frozen rows as paused, with when', () => {
    const store = Store.open(join(folder(), 'deputy.db'));
    try {
      const insert = store.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)');
      for (const [key, value] of FROZEN_ROWS) insert.run(key, value);
      const settings = new SettingsService(store.settings, {});
      expect(settings.get().areSideEffectsPaused).toBe(true);
      expect(settings.pausedChangedAt()).toBe('2026-11-23T21:00:00.000Z');
    } finally {
      store.close();
    }
  });

  it('writes what it reads back, in the frozen form', () => {
    const store = Store.open(join(folder(), 'deputy.db'));
    try {
      new SettingsService(store.settings, {}).setPaused(true, '2026-11-23T21:00:00.000Z');
      const rows = store.db
        .prepare<[], { key: string; value: string }>(
          "SELECT key, value FROM settings WHERE key LIKE 'sideEffects%' ORDER BY key",
        )
        .all()
        .map((row) => [row.key, row.value]);
      expect(rows).toEqual(FROZEN_ROWS.map((row) => [...row]));
    } finally {
      store.close();
    }
  });

  it('is off in a database written before it existed (version 7)', () => {
    const file = join(folder(), 'deputy.db');
    copyFileSync(V7, file);
    const store = Store.open(file);
    try {
      const settings = new SettingsService(store.settings, {});
      expect(settings.get().areSideEffectsPaused).toBe(false);
      expect(settings.pausedChangedAt()).toBeNull();
    } finally {
      store.close();
    }
  });
});
