import { describe, expect, it } from 'vitest';
import { useFixtureCopies } from '../../support/fixture-copies';

/** Copies of the frozen version-7 database (see audit-format-v7.test.ts), which has ledger rows. */
const openCopy = useFixtureCopies();

describe("migration 18: the ledger's unused index by time", () => {
  it('drops the index and keeps the ledger, its windows counted from their own indexes', () => {
    const store = openCopy('deputy-v7-audit.db');
    expect(store.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(18);
    const indexes = store.db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'actions'")
      .pluck()
      .all();
    expect(indexes).not.toContain('actions_by_time');
    expect(indexes).toEqual(expect.arrayContaining(['actions_effects_window', 'actions_external_window']));
    const ledger = store.db.prepare('SELECT count(*) FROM actions').pluck().get() as number;
    expect(ledger).toBeGreaterThan(0);
    const plan = (column: string): string =>
      (
        store.db
          .prepare(
            `EXPLAIN QUERY PLAN SELECT count(*) FROM actions WHERE ${column} = 1 AND created_at > ?
             AND state IN ('approved','started','committed','unknown')`,
          )
          .all('2000-01-01') as { detail: string }[]
      )
        .map((row) => row.detail)
        .join('; ');
    expect(plan('has_side_effects')).toContain('COVERING INDEX actions_effects_window');
    expect(plan('is_external')).toContain('COVERING INDEX actions_external_window');
    store.close();
  });
});
