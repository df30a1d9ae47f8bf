import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../electron/store/store';
import { useTempStores } from '../../support/fixture-copies';
import { planOf, recordPrepared } from '../../support/statement-plans';

const newStore = useTempStores();
let store: Store | undefined;
afterEach(() => store?.close());

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
    sql: /^SELECT (count\(\*\) FROM \w+|\(SELECT count\(\*\) FROM events\) \+ \(SELECT count\(\*\) FROM journal\))$/,
    why: 'Settings → Data counts what is kept, when the person opens it',
  },
];

/** Partial indexes that hold only a few rows whatever the table's size. */
const SMALL_INDEXES = new Set([
  // Only the runs still working.
  'runs_unfinished',
]);

const NOT_AN_ALIAS = new Set(
  'WHERE ON JOIN LEFT INNER CROSS NATURAL OUTER ORDER GROUP HAVING LIMIT USING SET AND OR UNION VALUES RETURNING WINDOW'.split(
    ' ',
  ),
);

/** The table each name in a plan stands for: the table itself, or the one an alias in the statement names. */
function tablesByName(sql: string): Map<string, string> {
  const tables = new Map<string, string>();
  for (const [, table = '', alias] of sql.matchAll(/\b(?:FROM|JOIN)\s+(\w+)(?:\s+(?:AS\s+)?(\w+))?/gi)) {
    tables.set(table, table);
    if (alias && !NOT_AN_ALIAS.has(alias.toUpperCase())) tables.set(alias, table);
  }
  return tables;
}

/**
 * Where a plan walks a growing table whole: a bare scan, or a scan along an index (which reads every entry of
 * it), unless the index is one of the small ones or the statement reads a page from one end of the walk (ORDER
 * BY ... LIMIT, as a list does, or the last row).
 */
function wholeTableReads(sql: string, plan: string[]): string[] {
  const tables = tablesByName(sql);
  // The walk itself gives the order (no sort of its own) and the LIMIT stops it early.
  const isPage =
    /\bORDER BY\b[^()]*\bLIMIT\b/i.test(sql) &&
    !plan.some((detail) => detail.includes('TEMP B-TREE FOR ORDER BY'));
  return plan.flatMap((detail) => {
    const scan = /^SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?/.exec(detail);
    const table = scan?.[1] ? (tables.get(scan[1]) ?? scan[1]) : undefined;
    if (!scan || !table || !GROWING.has(table)) return [];
    const index = scan[2];
    if ((index && SMALL_INDEXES.has(index)) || isPage) return [];
    return [`${detail}: ${sql.slice(0, 120)}`];
  });
}

/** Every statement a store prepares when it opens, with the plan SQLite makes for it. */
function preparedPlans(): { sql: string; plan: string[] }[] {
  const opened = recordPrepared(newStore);
  store = opened.value;
  const db = store.db;
  return opened.sources
    .filter((sql) => /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(sql))
    .map((sql) => ({ sql: sql.replace(/\s+/g, ' ').trim(), plan: planOf(db, sql) }));
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
      .flatMap(({ sql, plan }) => wholeTableReads(sql, plan));
    expect(reads).toEqual([]);
  });
});
