import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../../electron/store/store';

/** The frozen version-7 database (see audit-format-v7.test.ts), taken up to 11 and beyond. */
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'databases', 'deputy-v7-audit.db');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function openCopy(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-v11-'));
  dirs.push(dir);
  const file = join(dir, 'deputy.db');
  copyFileSync(FIXTURE, file);
  return Store.open(file);
}

const plan = (store: Store, sql: string): string =>
  (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('2000-01-01') as { detail: string }[])
    .map((row) => row.detail)
    .join('; ');

describe('migration 11: rate-limit windows from covering indexes', () => {
  it('keeps the old rows and counts the windows from the indexes alone', () => {
    const store = openCopy();
    expect(store.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(11);
    // The fixture's calls are still counted as before.
    expect(store.policy.actionsSince('2000-01-01T00:00:00.000Z')).toBeGreaterThan(0);
    expect(store.policy.tokensSince('2000-01-01T00:00:00.000Z')).toBeGreaterThan(0);
    const windowCount = (column: string): string =>
      plan(
        store,
        `SELECT count(*) FROM actions WHERE ${column} = 1 AND created_at > ?
         AND state IN ('approved','started','committed','unknown')`,
      );
    expect(windowCount('has_side_effects')).toContain('COVERING INDEX actions_effects_window');
    expect(windowCount('is_external')).toContain('COVERING INDEX actions_external_window');
    expect(plan(store, 'SELECT sum(tokens) FROM model_usage WHERE timestamp > ?')).toContain(
      'COVERING INDEX model_usage_window',
    );
    store.close();
  });
});
