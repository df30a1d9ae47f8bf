import { afterEach, describe, expect, it } from 'vitest';
import { AuditSearchIndex } from '../../../electron/store/audit-search-index';
import type { Store } from '../../../electron/store/store';
import { useTempStores } from '../../support/fixture-copies';
import { planOf, recordPrepared } from '../../support/statement-plans';

const newStore = useTempStores();
let store: Store | undefined;
afterEach(() => store?.close());

describe('the audit search index', () => {
  // The background batch runs on the main thread every few seconds. Walking the whole trail to find the few
  // noted entries took 56–79 ms per batch at 300,000 entries (and grows with the trail), against 2 ms when the
  // noted entries lead and each entry is looked up by its seq.
  it('reads the audit entries only by seq, one noted entry at a time, never by walking the trail', () => {
    store = newStore();
    const { db, auditInbox } = store;
    const { sources } = recordPrepared(() => new AuditSearchIndex(db, auditInbox));
    const touchingEntries = sources.filter((sql) => /\baudit_entries\b/.test(sql));
    expect(touchingEntries.length).toBeGreaterThanOrEqual(2);
    for (const sql of touchingEntries) {
      const plan = planOf(db, sql);
      const onEntries = plan.filter((detail) => /^(SCAN|SEARCH) (audit_entries|e)\b/.test(detail));
      expect(onEntries.length, plan.join('\n')).toBeGreaterThan(0);
      for (const detail of onEntries) expect(detail, sql).toMatch(/USING INTEGER PRIMARY KEY \(rowid=\?\)$/);
    }
  });
});
