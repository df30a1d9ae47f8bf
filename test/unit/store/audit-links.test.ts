import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../../electron/store/audit-chain';
import type { NewAuditEntry } from '../../../electron/store/audit-repo';
import { openDatabase } from '../../../electron/store/database';
import { Store } from '../../../electron/store/store';

const NOW = '2026-11-26T12:00:00.000Z';
const LATER = '2026-11-26T12:00:01.000Z';

const entry = (actionType: string): NewAuditEntry => ({
  kind: 'record',
  agentId: 'deputy',
  actionType,
  actionCategory: 'query',
  status: 'pending',
});

let store: Store;
beforeEach(() => {
  store = new Store(openDatabase(':memory:'));
});
afterEach(() => store.close());

const links = (): { seq: number; entry_id: string; at: string }[] =>
  store.db
    .prepare<[], { seq: number; entry_id: string; at: string }>(
      'SELECT seq, entry_id, at FROM audit_chain ORDER BY seq',
    )
    .all();
const settle = (id: string): boolean =>
  store.audit.change(id, 'status = @status', { status: 'completed' }, LATER);

describe('audit chain links: one per version of an entry that reached the disk', () => {
  it('writes one link for an entry created and settled in the same unit of work, holding the settled content', async () => {
    const id = await store.writes.step(async () => {
      const created = store.audit.open(entry('list_tasks'), NOW);
      settle(created);
      return created;
    });
    expect(links()).toEqual([{ seq: 1, entry_id: id, at: LATER }]);
    expect(store.audit.read(id)?.status).toBe('completed');
    expect(await verifyAuditChain(store.db)).toMatchObject({ ok: true, links: 1, entries: 1 });
  });

  it('keeps the committed link and adds one when the unit committed in between (a side effect’s boundary)', async () => {
    const id = await store.writes.step(async () => {
      const created = store.audit.open(entry('add_task'), NOW);
      store.writes.boundary();
      settle(created);
      return created;
    });
    expect(links()).toEqual([
      { seq: 1, entry_id: id, at: NOW },
      { seq: 2, entry_id: id, at: LATER },
    ]);
    expect(await verifyAuditChain(store.db)).toMatchObject({ ok: true, links: 2, entries: 1 });
  });

  it('adds a link for every write made outside a step, each committed on its own', async () => {
    const id = store.writes.transaction(() => store.audit.open(entry('list_tasks'), NOW));
    store.writes.transaction(() => settle(id));
    expect(links().map((link) => link.entry_id)).toEqual([id, id]);
    expect(await verifyAuditChain(store.db)).toMatchObject({ ok: true, links: 2 });
  });

  it('never rewrites a link another entry’s link follows', async () => {
    const [first, second] = await store.writes.step(async () => {
      const a = store.audit.open(entry('list_tasks'), NOW);
      const b = store.audit.open(entry('read_calendar'), NOW);
      settle(a);
      return [a, b];
    });
    expect(links().map((link) => link.entry_id)).toEqual([first, second, first]);
    expect(await verifyAuditChain(store.db)).toMatchObject({ ok: true, links: 3, entries: 2 });
  });

  it('still names an entry edited behind the app’s back after its link was rewritten', async () => {
    const id = await store.writes.step(async () => {
      const created = store.audit.open(entry('list_tasks'), NOW);
      settle(created);
      return created;
    });
    store.db.prepare(`UPDATE audit_entries SET status = 'pending' WHERE id = ?`).run(id);
    expect(await verifyAuditChain(store.db)).toMatchObject({ ok: false, mismatch: { entryId: id } });
  });
});
