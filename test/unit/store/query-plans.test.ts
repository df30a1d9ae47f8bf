import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Store } from '../../../electron/store/store';
import { useTempStores } from '../../support/fixture-copies';

const newStore = useTempStores();
let store: Store | undefined;
afterEach(() => {
  store?.close();
  vi.restoreAllMocks();
});

/** Tables that gain rows as Deputy is used, for as long as it is used. */
const GROWING = new Set([
  'threads',
  'messages',
  'runs',
  'run_keys',
  'actions',
  'approvals',
  'events',
  'journal',
  'checkpoints',
  'audit',
  'audit_entries',
  'audit_chain',
  'audit_assumptions',
  'decisions',
  'model_usage',
  'agent_lineage',
  'artifacts',
  'plans',
  'plan_steps',
  'plan_step_calls',
  'memories',
]);

/** Statements that read a whole growing table on purpose, and why that is fine. */
const WHOLE_TABLE_ON_PURPOSE: { sql: RegExp; why: string }[] = [
  {
    sql: /^SELECT \(SELECT count\(\*\) FROM events\) \+ \(SELECT count\(\*\) FROM journal\)$/,
    why: 'Settings → Data counts what is kept',
  },
  {
    sql: /^SELECT seq, entry_id, prev_hash, hash FROM audit_chain ORDER BY seq DESC LIMIT 1$/,
    why: 'reads the last row only',
  },
];

/** Every statement a store prepares when it opens, with the plan SQLite makes for it. */
function preparedPlans(): { sql: string; plan: string[] }[] {
  const sources: string[] = [];
  const prepare = Database.prototype.prepare;
  vi.spyOn(Database.prototype, 'prepare').mockImplementation(function record(
    this: Database.Database,
    sql: string,
  ) {
    sources.push(sql);
    return prepare.call(this, sql);
  });
  store = newStore();
  vi.restoreAllMocks();
  const db = store.db;
  return sources
    .filter((sql) => /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(sql))
    .map((sql) => {
      const explain = db.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`);
      const names = [...new Set([...sql.matchAll(/@(\w+)/g)].map((match) => match[1] ?? ''))];
      const rows = names.length
        ? explain.all(Object.fromEntries(names.map((name) => [name, null])))
        : explain.all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null));
      return { sql: sql.replace(/\s+/g, ' ').trim(), plan: rows.map((row) => row.detail) };
    });
}

describe("the store's statements", () => {
  // A statement that reads a whole growing table costs nothing on a new store and more every month after:
  // measured on a store of 200,000 runs, deleting a conversation took 21–42 ms (0.8–8 ms indexed), a prune
  // of 100 of them several seconds of the main thread; Settings → Usage 62–100 ms (14–17 ms).
  it('never read a whole growing table, except where that is the point', () => {
    const plans = preparedPlans();
    expect(plans.length).toBeGreaterThan(100);
    const scans = plans.flatMap(({ sql, plan }) =>
      plan
        .map((detail) => /^SCAN (\w+)$/.exec(detail)?.[1])
        .filter((table): table is string => table !== undefined && GROWING.has(table))
        .filter(() => !WHOLE_TABLE_ON_PURPOSE.some((allowed) => allowed.sql.test(sql)))
        .map((table) => `${table}: ${sql.slice(0, 120)}`),
    );
    expect(scans).toEqual([]);
  });
});
