import Database from 'better-sqlite3';
import { vi } from 'vitest';
import type { Db } from '../../electron/store/database';

/** Records every statement prepared from now on, with the database it is prepared on, until `stop`. */
export function recordPreparing(): { statements: { db: Db; sql: string }[]; stop: () => void } {
  const statements: { db: Db; sql: string }[] = [];
  const prepare = Database.prototype.prepare;
  const spy = vi.spyOn(Database.prototype, 'prepare').mockImplementation(function record(
    this: Database.Database,
    sql: string,
  ) {
    statements.push({ db: this, sql });
    return prepare.call(this, sql);
  });
  return { statements, stop: () => spy.mockRestore() };
}

/** Runs `open` and answers what it made, with the SQL of every statement prepared meanwhile, in order. */
export function recordPrepared<T>(open: () => T): { value: T; sources: string[] } {
  const recording = recordPreparing();
  try {
    return { value: open(), sources: recording.statements.map(({ sql }) => sql) };
  } finally {
    recording.stop();
  }
}

/** SQLite's plan for `sql`, a line per step, with every parameter (named or `?`) bound to NULL. */
export function planOf(db: Db, sql: string): string[] {
  const explain = db.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`);
  const names = [...new Set([...sql.matchAll(/@(\w+)/g)].map((match) => match[1] ?? ''))];
  const rows = names.length
    ? explain.all(Object.fromEntries(names.map((name) => [name, null])))
    : explain.all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => null));
  return rows.map((row) => row.detail);
}

/** The database's views and their SQL, for `wholeTableReads`. */
export function viewsOf(db: Db): Map<string, string> {
  const rows = db.prepare<[], { name: string; sql: string }>(
    "SELECT name, sql FROM sqlite_master WHERE type = 'view'",
  );
  return new Map(rows.all().map(({ name, sql }) => [name, sql]));
}

/** Tables that gain rows as Deputy is used, for as long as it is used. */
export const GROWING = new Set([
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
  'audit_approval_endings',
  'decisions',
  'model_usage',
  'agent_lineage',
  'artifacts',
  'plans',
  'plan_steps',
  'plan_step_calls',
  'memories',
  'tasks',
  'known_recipients',
]);

/** Statements that read a whole growing table on purpose, and why that is fine. */
export const WHOLE_TABLE_ON_PURPOSE: { sql: RegExp; why: string }[] = [
  {
    sql: /^SELECT (count\(\*\) FROM \w+|\(SELECT count\(\*\) FROM events\) \+ \(SELECT count\(\*\) FROM journal\))$/,
    why: 'Settings → Data counts what is kept, when the person opens it',
  },
  {
    sql: /^SELECT \* FROM tasks WHERE \(CAST\(@query AS TEXT\) = ''/,
    why: 'every task, open and done, sorted: what the Tasks panel\'s "All" and list_tasks with status "all" ask for',
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
export function wholeTableReads(
  sql: string,
  plan: string[],
  views: ReadonlyMap<string, string> = new Map(),
): string[] {
  // A plan names the tables inside a view by the view's own aliases: its SQL is read for them too.
  const named = [...views].filter(([view]) => new RegExp(`\\b${view}\\b`, 'i').test(sql));
  const tables = tablesByName([sql, ...named.map(([, body]) => body)].join(' '));
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
