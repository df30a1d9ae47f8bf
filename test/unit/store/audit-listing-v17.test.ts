import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../../electron/store/audit-chain';
import { openDatabase } from '../../../electron/store/database';
import { LISTED_AUDIT_INDEXES } from '../../../electron/store/migration-17-audit-listing';
import { Store } from '../../../electron/store/store';
import { FIXTURE_DATABASES, useFixtureCopies } from '../../support/fixture-copies';

/**
 * A frozen database at schema version 17 (made once by test/fixtures/make-deputy-v17-audit-listing.ts): one
 * entry listed, two written since and waiting to be (`is_listed` = 0, noted in `audit_fts_pending`).
 */
const FIXTURE = join(FIXTURE_DATABASES, 'deputy-v17-audit-listing.db');
const openFixture = useFixtureCopies();

const listed = (store: Store): number[] =>
  store.db
    .prepare<[], number>('SELECT seq FROM audit_entries WHERE is_listed = 1 ORDER BY seq')
    .pluck()
    .all();
const tools = (store: Store, filter: Parameters<Store['auditQuery']['list']>[0]): string[] =>
  store.auditQuery.list(filter).entries.map((entry) => entry.actionType);

describe('the audit filter indexes at version 17', () => {
  it('reads the entries waiting to be listed through every filter, and lists them first', async () => {
    const before = readFileSync(FIXTURE);
    const store = openFixture('deputy-v17-audit-listing.db');
    try {
      expect(listed(store)).toEqual([1]);
      expect(tools(store, { tool: 'send_email' })).toEqual(['send_email']);
      expect(listed(store)).toEqual([1, 2, 3]);
      expect(tools(store, { decision: 'allow' })).toEqual(['read_calendar', 'list_tasks']);
      expect(tools(store, { decision: 'ask', risk: 'high' })).toEqual(['send_email']);
      expect(tools(store, { category: 'query' })).toEqual(['read_calendar', 'list_tasks']);
      expect(tools(store, { from: '2026-11-25T00:00:00.000Z' })).toEqual(['read_calendar', 'send_email']);
      expect(tools(store, { to: '2026-11-21T00:00:00.000Z' })).toEqual(['list_tasks']);
      expect(tools(store, { q: 'calendar' })).toEqual(['read_calendar']);
      // Listing is bookkeeping: the chain's hashes still match every entry.
      expect(await verifyAuditChain(store.db)).toMatchObject({ ok: true, entries: 3, links: 4 });
    } finally {
      store.close();
    }
    expect(readFileSync(FIXTURE).equals(before)).toBe(true);
  });

  it('keeps the filter indexes partial, and a filtered page walks its index', () => {
    const store = openFixture('deputy-v17-audit-listing.db');
    try {
      for (const [name] of LISTED_AUDIT_INDEXES) {
        const sql = store.db
          .prepare<[string], string>('SELECT sql FROM sqlite_master WHERE name = ?')
          .pluck();
        expect(sql.get(name)).toMatch(/WHERE is_listed = 1$/);
      }
      const plan = store.db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT e.* FROM audit_entries e INDEXED BY audit_entries_by_category
           WHERE e.action_category = ? AND e.is_listed = 1 ORDER BY e.seq DESC LIMIT 5`,
        )
        .all('communication');
      expect(JSON.stringify(plan)).toContain('audit_entries_by_category');
    } finally {
      store.close();
    }
  });

  it('reads spec 002’s tool invocations of a run or of a tool through whole indexes, listed or not', () => {
    const store = openFixture('deputy-v17-audit-listing.db');
    try {
      const planOf = (where: string): string =>
        JSON.stringify(
          store.db
            .prepare(
              `EXPLAIN QUERY PLAN SELECT * FROM tool_invocations WHERE ${where} ORDER BY sequence DESC LIMIT 5`,
            )
            .all(),
        );
      expect(planOf("run_id = 'r'")).toContain('audit_entries_by_run');
      expect(planOf("tool = 'send_email'")).toContain('audit_entries_by_type');
      expect(listed(store)).toEqual([1]);
      expect(
        store.db
          .prepare<[], string>("SELECT tool FROM tool_invocations WHERE tool = 'read_calendar'")
          .pluck()
          .all(),
      ).toEqual(['read_calendar']);
    } finally {
      store.close();
    }
  });

  it('writes a new entry into none of the filter indexes until it is listed', () => {
    const store = new Store(openDatabase(':memory:'));
    try {
      store.audit.open(
        {
          kind: 'record',
          agentId: 'deputy',
          actionType: 'list_tasks',
          actionCategory: 'query',
          status: 'pending',
        },
        '2026-11-26T12:00:00.000Z',
      );
      const inIndex = store.db
        .prepare<[], number>(
          `SELECT count(*) FROM audit_entries INDEXED BY audit_entries_by_category
           WHERE action_category = 'query' AND is_listed = 1`,
        )
        .pluck();
      expect(inIndex.get()).toBe(0);
      expect(store.auditSearch.catchUp(10)).toBe(1);
      expect(inIndex.get()).toBe(1);
    } finally {
      store.close();
    }
  });
});
