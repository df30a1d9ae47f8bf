import { afterEach, describe, expect, it } from 'vitest';
import { AuditSearchIndex } from '../../../electron/store/audit-search-index';
import type { Db } from '../../../electron/store/database';
import type { Store } from '../../../electron/store/store';
import { useTempStores } from '../../support/fixture-copies';

const newStore = useTempStores();
let store: Store | undefined;
afterEach(() => store?.close());

/** The SQL each statement the index prepares, recorded as it prepares them. */
function preparedBy(db: Db): string[] {
  const sources: string[] = [];
  const recording = new Proxy(db, {
    get(target, key) {
      if (key === 'prepare') {
        return (sql: string) => {
          sources.push(sql);
          return target.prepare(sql);
        };
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  new AuditSearchIndex(recording);
  return sources;
}

describe('the audit search index', () => {
  // The background batch runs on the main thread every few seconds. Walking the whole trail to find the few
  // noted entries took 56–79 ms per batch at 300,000 entries (and grows with the trail), against 2 ms when the
  // noted entries lead and each entry is looked up by its seq.
  it('reads the audit entries only by seq, one noted entry at a time, never by walking the trail', () => {
    store = newStore();
    const sources = preparedBy(store.db);
    const touchingEntries = sources.filter((sql) => /\baudit_entries\b/.test(sql));
    expect(touchingEntries.length).toBeGreaterThanOrEqual(2);
    for (const sql of touchingEntries) {
      const plan = store.db
        .prepare<[number], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(100)
        .map((row) => row.detail);
      const onEntries = plan.filter((detail) => /^(SCAN|SEARCH) (audit_entries|e)\b/.test(detail));
      expect(onEntries.length, plan.join('\n')).toBeGreaterThan(0);
      for (const detail of onEntries) expect(detail, sql).toMatch(/USING INTEGER PRIMARY KEY \(rowid=\?\)$/);
    }
  });
});
