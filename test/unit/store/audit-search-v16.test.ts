import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../electron/store/store';
import { FIXTURE_DATABASES, useFixtureCopies } from '../../support/fixture-copies';

/**
 * A frozen database at schema version 16 (made once by test/fixtures/make-deputy-v16-audit-search.ts): an entry
 * indexed and then changed, one never indexed, one indexed and left alone. The pending rows are a disk format.
 */
const FIXTURE = join(FIXTURE_DATABASES, 'deputy-v16-audit-search.db');
const openFixture = useFixtureCopies();
const openCopy = (): Store => openFixture('deputy-v16-audit-search.db');

const found = (store: Store, q: string): string[] =>
  store.auditQuery.list({ q }).entries.map((entry) => entry.actionType);
const pending = (store: Store): number =>
  store.db.prepare<[], number>('SELECT count(*) FROM audit_fts_pending').pluck().get() ?? -1;
/** FTS5's own check of the index against the entries it was made from (rank 1: against the content table). */
const checkIndex = (store: Store): void => {
  store.db.prepare("INSERT INTO audit_fts (audit_fts, rank) VALUES ('integrity-check', 1)").run();
};

describe('the audit search index at version 16', () => {
  it('finds what was written after the last indexing, as it is now, and the index then matches the entries', () => {
    const before = readFileSync(FIXTURE);
    const store = openCopy();
    try {
      expect(pending(store)).toBe(2);
      expect(found(store, 'porto receipt')).toEqual(['search_mail']);
      expect(pending(store)).toBe(0);
      expect(found(store, 'dentist')).toEqual(['read_calendar']);
      expect(found(store, 'quarterly')).toEqual(['list_tasks']);
      expect(() => checkIndex(store)).not.toThrow();
    } finally {
      store.close();
    }
    expect(readFileSync(FIXTURE).equals(before)).toBe(true);
  });

  it('takes a deleted entry out of the index with the words the index had, whether it was pending or not', () => {
    const store = openCopy();
    try {
      store.db.prepare("DELETE FROM audit_entries WHERE action_type IN ('search_mail', 'list_tasks')").run();
      expect(found(store, 'invoice')).toEqual([]);
      expect(found(store, 'quarterly')).toEqual([]);
      expect(found(store, 'dentist')).toEqual(['read_calendar']);
      expect(() => checkIndex(store)).not.toThrow();
    } finally {
      store.close();
    }
  });

  it('notes a change once and indexes the entry as it ends up, in batches', () => {
    const store = openCopy();
    try {
      store.auditSearch.catchUpAll();
      const id = store.auditQuery.list({ q: 'dentist' }).entries[0]?.id ?? '';
      const now = '2026-11-26T10:00:00.000Z';
      store.audit.change(id, 'output_json = @output', { output: '{"slot":"Tuesday morning"}' }, now);
      store.audit.change(id, 'output_json = @output', { output: '{"slot":"Thursday evening"}' }, now);
      expect(pending(store)).toBe(1);
      expect(store.auditSearch.catchUp(1)).toBe(1);
      expect(store.auditSearch.catchUp(1)).toBe(0);
      expect(found(store, 'thursday')).toEqual(['read_calendar']);
      expect(found(store, 'tuesday')).toEqual([]);
      expect(() => checkIndex(store)).not.toThrow();
    } finally {
      store.close();
    }
  });
});
