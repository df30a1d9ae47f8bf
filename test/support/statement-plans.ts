import Database from 'better-sqlite3';
import { vi } from 'vitest';
import type { Db } from '../../electron/store/database';

/** Runs `open` and answers what it made, with the SQL of every statement prepared meanwhile, in order. */
export function recordPrepared<T>(open: () => T): { value: T; sources: string[] } {
  const sources: string[] = [];
  const prepare = Database.prototype.prepare;
  const spy = vi.spyOn(Database.prototype, 'prepare').mockImplementation(function record(
    this: Database.Database,
    sql: string,
  ) {
    sources.push(sql);
    return prepare.call(this, sql);
  });
  try {
    return { value: open(), sources };
  } finally {
    spy.mockRestore();
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
