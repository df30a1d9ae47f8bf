import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { verifyAuditChain } from '../../../electron/store/audit-chain';
import type { Store } from '../../../electron/store/store';
import { listToolInvocations } from '../../../electron/store/tool-invocations';
import { FIXTURE_DATABASES, useFixtureCopies, useTempStores } from '../../support/fixture-copies';

/**
 * A frozen database at schema version 21 (made once by test/fixtures/make-deputy-v21-audit-inbox.ts): a record
 * written at once, then two read calls a step held in `audit_inbox`, chained and not yet filed.
 */
const FIXTURE = join(FIXTURE_DATABASES, 'deputy-v21-audit-inbox.db');
const openFixture = useFixtureCopies();
const newStore = useTempStores();

/** A finished record of the app's own, the simplest entry there is. */
const NOTE = {
  kind: 'record',
  agentId: 'deputy',
  actionType: 'note',
  actionCategory: 'query',
  status: 'completed',
} as const;

const count = (store: Store, table: string): number =>
  store.db.prepare<[], number>(`SELECT count(*) FROM ${table}`).pluck().get() ?? 0;

/** A read call a step opens and settles, as the run loop does: its entry is held, not filed. */
async function heldCall(store: Store, actionId: string, actionType = 'list_tasks'): Promise<void> {
  await store.writes.step(async () => {
    store.audit.open(
      {
        kind: 'tool_call',
        actionId,
        threadId: 'thread-1',
        runId: 'run-1',
        agentId: 'deputy',
        actionType,
        actionCategory: 'query',
        decision: 'allow',
        status: 'pending',
      },
      '2026-11-27T10:00:00.000Z',
    );
    store.audit.settle(actionId, { status: 'completed', output: { tasks: [] } }, '2026-11-27T10:00:01.000Z');
  });
}

describe('the audit inbox at version 21', () => {
  it('files the entries a step held before any of them is read, in the order they were made', async () => {
    const before = readFileSync(FIXTURE);
    const store = openFixture('deputy-v21-audit-inbox.db');
    expect(count(store, 'audit_inbox')).toBe(2);
    expect(count(store, 'audit_entries')).toBe(1);
    const page = store.auditQuery.list({});
    expect(page.entries.map((entry) => [entry.actionType, entry.status])).toEqual([
      ['read_calendar', 'completed'],
      ['list_tasks', 'completed'],
      ['settings_change', 'completed'],
    ]);
    expect(count(store, 'audit_inbox')).toBe(0);
    expect(store.auditQuery.get('action-2')?.output).toEqual({ found: 'read_calendar' });
    expect(await verifyAuditChain(store.db)).toMatchObject({ ok: true, entries: 3, links: 3 });
    expect(readFileSync(FIXTURE).equals(before)).toBe(true);
  });

  it('checks the chain of a fixture whose entries wait in the inbox', async () => {
    const store = openFixture('deputy-v21-audit-inbox.db');
    expect(await verifyAuditChain(store.db)).toMatchObject({ ok: true, entries: 3, links: 3 });
  });
});

describe('the audit inbox', () => {
  it('holds a step’s read call in one row, its link chained at once, and writes no entry row', async () => {
    const store = newStore();
    await heldCall(store, 'a1');
    expect(count(store, 'audit_inbox')).toBe(1);
    expect(count(store, 'audit_entries')).toBe(0);
    expect(count(store, 'audit_chain')).toBe(1);
    // Outside a step, an entry is written at once.
    store.audit.open(NOTE, '2026-11-27T10:01:00.000Z');
    expect(count(store, 'audit_entries')).toBe(2);
    expect(count(store, 'audit_inbox')).toBe(0);
    // The held one was filed first, so the trail keeps the order they were made in.
    const types = store.db
      .prepare<[], string>('SELECT action_type FROM audit_entries ORDER BY seq')
      .pluck()
      .all();
    expect(types).toEqual(['list_tasks', 'note']);
  });

  const readers: [string, (store: Store) => unknown][] = [
    ['an entry by its ledger action', (store) => store.auditQuery.get('a1')?.actionType],
    ['a page of the viewer', (store) => store.auditQuery.list({ runId: 'run-1' }).entries[0]?.actionType],
    ['a search', (store) => store.auditQuery.list({ q: 'list_tasks' }).entries[0]?.actionType],
    [
      'spec 002’s tool invocations',
      (store) => listToolInvocations(store.db, store.auditInbox, { runId: 'run-1' }, 5)[0]?.tool,
    ],
    ['the repo, by id', (store) => store.audit.read(store.audit.idOfAction('a1') ?? '')?.actionType],
  ];
  for (const [what, read] of readers) {
    it(`files held entries before ${what} is read`, async () => {
      const store = newStore();
      await heldCall(store, 'a1');
      expect(read(store)).toBe('list_tasks');
    });
  }

  it('files held entries before a change, which then chains the changed entry', async () => {
    const store = newStore();
    await heldCall(store, 'a1');
    store.audit.authorize('a1', 'person', '2026-11-27T10:02:00.000Z');
    expect(store.auditQuery.get('a1')?.authority.approvedBy).toBe('person');
    expect(await verifyAuditChain(store.db)).toMatchObject({ ok: true, entries: 1, links: 2 });
  });

  it('files held entries before a deleted conversation’s entries are scrubbed', async () => {
    const store = newStore();
    await heldCall(store, 'a1');
    expect(store.auditEdits.scrubThreads(['thread-1'], '2026-11-27T10:03:00.000Z')).toBe(1);
    expect(store.auditQuery.get('a1')?.input).toBeNull();
  });

  it('files held entries in the background, oldest first, in batches for a few milliseconds at a time', async () => {
    const store = newStore();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      for (let index = 0; index < 45; index += 1) await heldCall(store, `a${index}`);
      const stop = store.auditSearch.keepUp(1_000, (error) => {
        throw error;
      });
      // Each batch of 20 seems to take 3 ms: a filing starts a second one, and stops after it (4 ms).
      let now = 0;
      vi.spyOn(performance, 'now').mockImplementation(() => (now += 3));
      vi.advanceTimersByTime(100);
      expect(count(store, 'audit_inbox')).toBe(5);
      const filed = store.db.prepare<[], string>('SELECT action_id FROM audit_entries ORDER BY seq').pluck();
      expect(filed.all()).toEqual(Array.from({ length: 40 }, (_, index) => `a${index}`));
      vi.advanceTimersByTime(100);
      expect(count(store, 'audit_inbox')).toBe(0);
      stop();
    } finally {
      vi.restoreAllMocks();
      vi.useRealTimers();
    }
  });

  it('finds a step’s entry held while the chain check yielded, and reports no deletion', async () => {
    const store = newStore();
    await heldCall(store, 'a1');
    const check = verifyAuditChain(store.db);
    await heldCall(store, 'a2', 'read_calendar');
    expect(await check).toMatchObject({ ok: true, mismatch: null });
  });

  it('files nothing in the background while a step’s unit is open across a wait', async () => {
    const store = newStore();
    const stop = store.auditSearch.keepUp(100, (error) => {
      throw error;
    });
    try {
      let heldDuringWait = -1;
      await store.writes.step(async () => {
        store.audit.open(NOTE, '2026-11-27T10:00:00.000Z');
        await store.writes.waitTurn(new Promise((resolve) => setTimeout(resolve, 120)));
        heldDuringWait = count(store, 'audit_inbox');
      });
      expect(heldDuringWait).toBe(1);
    } finally {
      stop();
    }
  });

  it('writes at once, inside the step, an entry the table could refuse or whose id was given', async () => {
    const store = newStore();
    const refused = store.writes.step(async () => {
      store.audit.open({ ...NOTE, status: 'odd' as never }, '2026-11-27T10:00:00.000Z');
    });
    await expect(refused).rejects.toThrow(/CHECK constraint failed/);
    await store.writes.step(async () => {
      store.audit.open({ id: 'given', ...NOTE }, '2026-11-27T10:00:00.000Z');
    });
    expect(count(store, 'audit_inbox')).toBe(0);
    expect(count(store, 'audit_entries')).toBe(1);
  });

  it('looks past held rows the table refused, so a background batch still files the others', async () => {
    const store = newStore();
    for (let index = 0; index < 21; index += 1) await heldCall(store, `a${index}`);
    store.db
      .prepare(
        `UPDATE audit_inbox SET entry = json_set(entry, '$.kind', 'not a kind')
         WHERE chain_seq IN (SELECT chain_seq FROM audit_inbox ORDER BY chain_seq LIMIT 20)`,
      )
      .run();
    expect(store.auditInbox.file(20)).toBe(0);
    expect(store.auditInbox.file(20)).toBe(1);
    expect(count(store, 'audit_inbox')).toBe(20);
  });

  it('leaves a row that is not an entry where it is, files the others, and the chain check names it', async () => {
    const store = newStore();
    await heldCall(store, 'a1');
    await heldCall(store, 'a2', 'read_calendar');
    await heldCall(store, 'a3', 'list_memories');
    const held = store.db
      .prepare<[], number>('SELECT chain_seq FROM audit_inbox ORDER BY chain_seq')
      .pluck()
      .all();
    const edit = store.db.prepare('UPDATE audit_inbox SET entry = ? WHERE chain_seq = ?');
    edit.run('{"id": "x", "kind": "not a kind"', held[0]);
    edit.run(JSON.stringify({ id: 'y', kind: 'tool_call', input: { nested: true } }), held[1]);
    expect(store.auditInbox.file()).toBe(1);
    expect(count(store, 'audit_inbox')).toBe(2);
    expect(store.auditQuery.get('a3')?.actionType).toBe('list_memories');
    const check = await verifyAuditChain(store.db);
    expect(check).toMatchObject({ ok: false, mismatch: { link: held[0] } });
    expect(check.mismatch?.reason).toBe('The entry was deleted behind the app’s back.');
  });

  it('refuses a held row that breaks a rule of the table, and files the rest', async () => {
    const store = newStore();
    await heldCall(store, 'a1');
    await heldCall(store, 'a2', 'read_calendar');
    const first = store.db.prepare<[], number>('SELECT min(chain_seq) FROM audit_inbox').pluck().get();
    const row = store.db
      .prepare<[number], string>('SELECT entry FROM audit_inbox WHERE chain_seq = ?')
      .pluck();
    const entry = JSON.parse(row.get(first ?? 0) ?? '{}') as Record<string, unknown>;
    store.db
      .prepare('UPDATE audit_inbox SET entry = ? WHERE chain_seq = ?')
      .run(JSON.stringify({ ...entry, kind: 'not a kind' }), first);
    expect(store.auditInbox.file()).toBe(1);
    expect(store.auditQuery.get('a2')?.actionType).toBe('read_calendar');
    expect(store.auditQuery.get('a1')).toBeNull();
  });
});
