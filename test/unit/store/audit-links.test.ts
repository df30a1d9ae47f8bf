import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../../electron/store/audit-chain';
import type { NewAuditEntry } from '../../../electron/store/audit-repo';
import { contentHash, type AuditRow } from '../../../electron/store/audit-rows';
import { entryValues, storedContent } from '../../../electron/store/audit-values';
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

describe('a call’s entry opened inside a unit of work', () => {
  const callEntry = (actionId: string): NewAuditEntry => ({
    kind: 'tool_call',
    actionId,
    threadId: 't',
    runId: 'r',
    agentId: 'deputy',
    actionType: 'list_tasks',
    actionCategory: 'query',
    risk: 'low',
    input: { query: 'passport' },
    assumptions: [{ statement: 'The person means this week', category: 'inference' }],
    status: 'pending',
    decision: 'allow',
    approvedBy: 'policy',
    approvedAt: NOW,
  });
  const ledgerRow = (id: string): void =>
    store.actions.create(
      {
        id,
        runId: 'r',
        threadId: 't',
        callId: `call-${id}`,
        tool: 'list_tasks',
        args: {},
        state: 'approved',
      },
      NOW,
    );
  const settlement = {
    status: 'completed' as const,
    output: { tasks: ['Renew passport'] },
    outputRef: 'ledger:x',
    startedAt: NOW,
    durationMs: 3,
  };
  beforeEach(() => {
    store.threads.create('t', 'T', NOW);
    store.runs.create({ id: 'r', threadId: 't', model: 'm', prompt: 'p' }, NOW);
  });
  const stored = (id: string): Record<string, unknown> => {
    const {
      id: _id,
      seq: _seq,
      chain_seq: _chain,
      action_id: _action,
      ...row
    } = store.db
      .prepare<[string], Record<string, unknown>>('SELECT * FROM audit_entries WHERE id = ?')
      .get(id) as Record<string, unknown>;
    return row;
  };

  it('is written once, settled, with the same row a write and an update would have made', async () => {
    const [once, twice] = await store.writes.step(async () => {
      ledgerRow('a1');
      const first = store.audit.open(callEntry('a1'), NOW);
      expect(store.db.prepare('SELECT count(*) AS n FROM audit_entries').get()).toEqual({ n: 0 });
      expect(store.audit.idOfAction('a1')).toBe(first);
      store.audit.settle('a1', settlement, LATER);

      ledgerRow('a2');
      const second = store.audit.open(callEntry('a2'), NOW);
      store.writes.boundary();
      store.audit.settle('a2', settlement, LATER);
      return [first, second];
    });
    expect(stored(once)).toEqual(stored(twice));
    expect(store.audit.read(once)?.assumptions).toHaveLength(1);
    expect(links().map((link) => link.entry_id)).toEqual([once, twice, twice]);
    expect(await verifyAuditChain(store.db)).toMatchObject({ ok: true, entries: 2, links: 3 });
  });

  it('is written when the unit commits if the call has not settled (a call held for approval)', async () => {
    const id = await store.writes.step(async () => {
      ledgerRow('a1');
      return store.audit.open(callEntry('a1'), NOW);
    });
    expect(store.audit.read(id)?.status).toBe('pending');
    expect(links()).toEqual([{ seq: 1, entry_id: id, at: NOW }]);
  });

  it('is not written when the savepoint that made its ledger row failed', async () => {
    await store.writes.step(async () => {
      expect(() =>
        store.writes.transaction(() => {
          ledgerRow('a1');
          store.audit.open(callEntry('a1'), NOW);
          throw new Error('the step failed after the call was decided');
        }),
      ).toThrow('the step failed');
    });
    expect(store.db.prepare('SELECT count(*) AS n FROM audit_entries').get()).toEqual({ n: 0 });
    expect(links()).toEqual([]);
  });

  it('waits again, unsettled, when the group that settled it failed, and is written at commit', async () => {
    const id = await store.writes.step(async () => {
      ledgerRow('a1');
      const opened = store.audit.open(callEntry('a1'), NOW);
      expect(() =>
        store.writes.transaction(() => {
          store.audit.settle('a1', settlement, LATER);
          throw new Error('the tool result could not be journaled');
        }),
      ).toThrow('could not be journaled');
      return opened;
    });
    expect(store.audit.read(id)?.status).toBe('pending');
    expect(await verifyAuditChain(store.db)).toMatchObject({ ok: true, entries: 1, links: 1 });
  });

  it('is written before it is read or changed by its id', async () => {
    await store.writes.step(async () => {
      ledgerRow('a1');
      const id = store.audit.open(callEntry('a1'), NOW);
      expect(store.audit.read(id)?.status).toBe('pending');
      store.audit.change(id, 'reasoning = @reasoning', { reasoning: 'asked twice' }, LATER);
      expect(store.audit.read(id)?.reasoning).toBe('asked twice');
    });
    expect(await verifyAuditChain(store.db)).toMatchObject({ ok: true, entries: 1, links: 1 });
  });
});

describe('a new entry linked from the values it inserts', () => {
  it('names every column its content hash covers, as the table has them', () => {
    const columns = store.db
      .prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?)')
      .all('audit_entries')
      .map((column) => column.name)
      .filter((name) => !['seq', 'chain_seq', 'is_listed'].includes(name));
    const values = entryValues('e1', entry('list_tasks'), NOW);
    expect(Object.keys(storedContent(values)).sort()).toEqual(columns.sort());
  });

  it('hashes exactly as the row read back does, for entries with and without every optional value', async () => {
    const full: NewAuditEntry = {
      kind: 'tool_call',
      agentId: 'deputy',
      actionType: 'send_email',
      actionCategory: 'write',
      risk: 'high',
      intent: 'Tell Dana the plan',
      reasoning: 'She asked for it',
      confidence: 1,
      target: 'dana@example.com',
      input: { to: 'dana@example.com', body: 'x'.repeat(5_000) },
      output: { id: 'm1', labels: ['SENT'] },
      outputRef: 'ledger:a',
      effect: { entityType: 'email', entityId: 'm1', before: null, after: { id: 'm1' } },
      status: 'completed',
      errorMessage: null,
      durationMs: 2.5,
      modelUsed: 'gemini-2.5-flash',
      tokensUsed: 15,
      decision: 'allow',
      rule: 'trusted',
      reason: 'You allowed it',
      approvedBy: 'person',
      approvedAt: NOW,
      isReversible: true,
      undoNote: null,
    };
    // A tool that gives its entity id as a number, despite the type: SQLite keeps it as text.
    const numericId = {
      entityType: 'task',
      entityId: 42 as unknown as string,
      before: null,
      after: { id: 42 },
    };
    const ids = store.writes.transaction(() => [
      store.audit.open(full, NOW),
      store.audit.open({ ...full, confidence: 0.25, durationMs: 7, effect: null, input: undefined }, NOW),
      store.audit.open(entry('list_tasks'), NOW),
      store.audit.open({ ...full, effect: numericId }, NOW),
    ]);
    for (const id of ids) {
      const row = store.db.prepare<[string], AuditRow>('SELECT * FROM audit_entries WHERE id = ?').get(id);
      const link = store.db
        .prepare<[string], { seq: number; content_hash: string }>(
          'SELECT seq, content_hash FROM audit_chain WHERE entry_id = ?',
        )
        .get(id);
      expect(row && contentHash(row, [])).toBe(link?.content_hash);
      expect(row?.chain_seq).toBe(link?.seq);
    }
    expect(await verifyAuditChain(store.db)).toMatchObject({ ok: true, entries: 4, links: 4 });
  });
});

describe('checking a long chain', () => {
  // The check walks the chain a batch of 2,000 links at a time, yielding between batches; the look for a link
  // whose entry is gone does too. An entry deleted at the edge of a batch, or past the first, is still named.
  it.each([2_000, 2_001, 4_999])('names the entry of link %i deleted behind the app’s back', async (seq) => {
    store.writes.transaction(() => {
      for (let index = 0; index < 5_000; index += 1) store.audit.open(entry(`tool_${index}`), NOW);
    });
    const gone = store.db
      .prepare<[number], string>('SELECT entry_id FROM audit_chain WHERE seq = ?')
      .pluck()
      .get(seq);
    expect(await verifyAuditChain(store.db)).toMatchObject({ ok: true, links: 5_000, entries: 5_000 });
    store.db.prepare('DELETE FROM audit_entries WHERE id = ?').run(gone);
    expect(await verifyAuditChain(store.db)).toMatchObject({
      ok: false,
      mismatch: { entryId: gone, link: seq, reason: expect.stringMatching(/deleted/) },
    });
  });

  it('lets other work run between batches of each of its three walks', async () => {
    store.writes.transaction(() => {
      for (let index = 0; index < 5_000; index += 1) store.audit.open(entry(`tool_${index}`), NOW);
    });
    let turns = 0;
    let isDone = false;
    const tick = (): void => {
      turns += 1;
      if (!isDone) setImmediate(tick);
    };
    setImmediate(tick);
    const check = await verifyAuditChain(store.db);
    isDone = true;
    expect(check.ok).toBe(true);
    // A turn after each full batch of links (2,000, 2,000, then 1,000) and of entries (20 of 250), and after
    // each of the four ranges the look for a missing entry goes by (the three batches, then any link since).
    expect(turns).toBeGreaterThanOrEqual(2 + 20 + 4);
  });
});
