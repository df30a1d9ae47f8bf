import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../electron/store/store';
import { useTempStores } from '../../support/fixture-copies';
import {
  planOf,
  recordPrepared,
  recordPreparing,
  viewsOf,
  WHOLE_TABLE_ON_PURPOSE,
  wholeTableReads,
} from '../../support/statement-plans';

const newStore = useTempStores();
let store: Store | undefined;
afterEach(() => store?.close());

/** Every statement a store prepares when it opens, with the plan SQLite makes for it. */
function preparedPlans(): { sql: string; plan: string[]; views: Map<string, string> }[] {
  const opened = recordPrepared(newStore);
  store = opened.value;
  const db = store.db;
  const views = viewsOf(db);
  return opened.sources
    .filter((sql) => /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(sql))
    .map((sql) => ({ sql: sql.replace(/\s+/g, ' ').trim(), plan: planOf(db, sql), views }));
}

describe("the store's statements", () => {
  // A statement that reads a whole growing table costs nothing on a new store and more every month after:
  // measured on a store of 200,000 runs, deleting a conversation took 21–42 ms (0.8–8 ms indexed), a prune
  // of 100 of them several seconds of the main thread; Settings → Usage 62–100 ms (14–17 ms).
  it('never read a whole growing table, except where that is the point', () => {
    const plans = preparedPlans();
    expect(plans.length).toBeGreaterThan(100);
    const reads = plans
      .filter(({ sql }) => !WHOLE_TABLE_ON_PURPOSE.some((allowed) => allowed.sql.test(sql)))
      .flatMap(({ sql, plan, views }) => wholeTableReads(sql, plan, views));
    expect(reads).toEqual([]);
  });

  // Reading a page of the audit trail asks which of its failed entries were turned down or expired: by each
  // entry's action, so a page costs the same after a year of decided approvals as on the first day.
  it('find what was turned down or expired by action id, not by walking every such approval', () => {
    const lookups = preparedPlans().filter(
      ({ sql }) => sql.startsWith('SELECT action_id, status FROM approvals') && sql.includes("'expired'"),
    );
    expect(lookups).toHaveLength(1);
    expect(lookups[0]?.plan.join('\n')).toMatch(/SEARCH approvals USING INDEX \w+ \(action_id=\?\)/);
  });

  // "Turned down", "Expired", "Not done" and "Stopped" are stored as failed, and a page of one read every failed
  // entry to find its own: on 1,000,000 entries (10,221 failed), a page of "Turned down" took 16.5 ms (median;
  // p95 24 ms), 0.2 ms (1.1 ms) through its own indexes (migration 24).
  it('read a page of each Status choice of what did not happen from its own indexes, not every failed entry', () => {
    store = newStore();
    const expected = {
      turned_down: [/^SEARCH x USING PRIMARY KEY \(ending=\?/],
      expired: [
        /^MERGE/,
        /^SEARCH e USING INDEX audit_entries_run_endings \(rule=\?/,
        /^SEARCH x USING PRIMARY KEY/,
      ],
      not_done: [/^(SCAN|SEARCH) e USING INDEX audit_entries_not_done\b/],
      stopped: [/^SEARCH e USING INDEX audit_entries_run_endings \(rule=\?/],
    };
    for (const [status, walks] of Object.entries(expected)) {
      for (const filter of [
        {},
        { tool: 'add_task', cursor: '100' },
        { from: '2026-01-01', to: '2027-01-01' },
      ]) {
        const recording = recordPreparing();
        try {
          store.auditQuery.list({ status: status as keyof typeof expected, ...filter });
        } finally {
          recording.stop();
        }
        const pages = recording.statements.filter(({ sql }) => /\bLIMIT @limit$/.test(sql.trim()));
        expect(pages).toHaveLength(1);
        const plan = planOf(store.db, pages[0]?.sql ?? '');
        expect([status, filter, plan.filter((detail) => /by_status|TEMP B-TREE/.test(detail))]).toEqual([
          status,
          filter,
          [],
        ]);
        for (const walk of walks)
          expect([status, plan]).toEqual([status, expect.arrayContaining([expect.stringMatching(walk)])]);
      }
    }
  });
});
