import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../../electron/store/store';

/**
 * A frozen database at schema version 16 (made once by test/fixtures/make-deputy-v16-audit-search.ts): an entry
 * indexed and then changed, one never indexed, one indexed and left alone. The pending rows are a disk format.
 */
const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'databases', 'deputy-v16-audit-search.db');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function openCopy(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-v16-'));
  dirs.push(dir);
  copyFileSync(FIXTURE, join(dir, 'deputy.db'));
  return Store.open(join(dir, 'deputy.db'));
}

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
