import type { Db } from './database.ts';

/**
 * What Settings → Data counts, and how. Shared by the main connection (DataRepo) and the WAL keeper's thread,
 * which counts on its own connection so that the main process is not held while a large store is read: after a
 * year of use the journal alone holds millions of rows, and counting them takes a tenth of a second or more.
 *
 * Loaded by Node itself in the WAL keeper's thread: erasable TypeScript only, with explicit extensions.
 */
export const COUNTED = [
  'threads',
  'messages',
  'runs',
  'actions',
  'approvals',
  'events',
  'checkpoints',
] as const;
export type CountedTable = (typeof COUNTED)[number];
export type TableCounts = Record<CountedTable, number>;

/** A run's events are in the journal (migration 15) and, when written before it, in the old events table. */
function countSql(table: CountedTable): string {
  return table === 'events'
    ? 'SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM journal)'
    : `SELECT count(*) FROM ${table}`;
}

/** Prepares the counting statements once; the function answers every table's count. */
export function tableCounter(db: Db): () => TableCounts {
  const statements = COUNTED.map(
    (table) => [table, db.prepare<[], number>(countSql(table)).pluck()] as const,
  );
  return () =>
    Object.fromEntries(statements.map(([table, statement]) => [table, statement.get() ?? 0])) as TableCounts;
}

/** Counts received from another thread, checked: every table a whole number, or null. */
export function asTableCounts(value: unknown): TableCounts | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  for (const table of COUNTED) {
    const count = record[table];
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) return null;
  }
  return Object.fromEntries(COUNTED.map((table) => [table, record[table]])) as TableCounts;
}
