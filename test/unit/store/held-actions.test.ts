import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewAction } from '../../../electron/store/action-rows';
import type { Store } from '../../../electron/store/store';
import { countStatements, storeWithRun } from '../../support/memory-store';

const NOW = '2026-11-26T12:00:00.000Z';
const LATER = '2026-11-26T12:00:01.000Z';

let store: Store;
/** The ledger's updates: a held row is inserted once, as it ends. */
let updates: () => number;
beforeEach(() => {
  store = storeWithRun(NOW);
  updates = countStatements(store, 'ledger_updates', 'UPDATE ON actions');
});
afterEach(() => store.close());

const read = (id: string, overrides: Partial<NewAction> = {}): NewAction => ({
  id,
  runId: 'r',
  threadId: 't',
  callId: `call-${id}`,
  tool: 'list_tasks',
  args: { query: 'passport' },
  state: 'approved',
  fingerprint: 'f',
  policy: { decision: 'allow', rule: 'read_only', reason: 'It only reads.' },
  ...overrides,
});
const FROM = ['approved', 'awaiting_confirmation', 'unknown', 'started'] as const;
const runCall = (id: string, overrides: Partial<NewAction> = {}): void => {
  store.transaction(() => store.actions.create(read(id, overrides), NOW));
  store.transaction(() => store.actions.markStarted(id, FROM, `key-${id}`, NOW));
  store.transaction(() => store.actions.finish(id, { state: 'committed', result: { tasks: [] } }, LATER));
};
const row = (id: string): Record<string, unknown> | undefined => {
  const stored = store.db
    .prepare<[string], Record<string, unknown>>('SELECT * FROM actions WHERE id = ?')
    .get(id);
  if (!stored) return undefined;
  const { seq: _seq, id: _id, call_id: _call, idempotency_key: _key, ...rest } = stored;
  return rest;
};
const count = (): number => (store.db.prepare('SELECT count(*) AS n FROM actions').get() as { n: number }).n;

describe('a read call’s ledger row inside a unit of work', () => {
  it('is inserted once, as it ends, with the same row an insert and two updates make', async () => {
    runCall('outside');
    const updatesOutside = updates();
    expect(updatesOutside).toBe(2);
    await store.writes.step(async () => {
      runCall('inside');
    });
    expect(updates()).toBe(updatesOutside);
    expect(row('inside')).toEqual(row('outside'));
    expect(row('inside')).toMatchObject({ state: 'committed', attempts: 1, result_json: '{"tasks":[]}' });
  });

  it('is found by its call while held, as it stands', async () => {
    await store.writes.step(async () => {
      store.transaction(() => store.actions.create(read('a1'), NOW));
      expect(count()).toBe(0);
      expect(store.actions.byCall('r', 'call-a1')).toMatchObject({ id: 'a1', ledgerState: 'approved' });
      store.actions.markStarted('a1', FROM, 'key-a1', NOW);
      expect(store.actions.byCall('r', 'call-a1')).toMatchObject({
        ledgerState: 'started',
        idempotencyKey: 'key-a1',
        attempts: 1,
      });
      // A second claim of `started` from a state it is no longer in does nothing, as the update's WHERE would.
      expect(store.actions.markStarted('a1', ['approved'], 'key-a1', NOW)).toBe(false);
    });
  });

  it('is written as it stands when the unit commits before the call ends (the read waits on the network)', async () => {
    await store.writes.step(async () => {
      store.transaction(() => store.actions.create(read('a1'), NOW));
      store.actions.markStarted('a1', FROM, 'key-a1', NOW);
      store.writes.boundary();
      expect(row('a1')).toMatchObject({ state: 'started', attempts: 1 });
      store.actions.finish('a1', { state: 'committed', result: { tasks: [] } }, LATER);
    });
    expect(row('a1')).toMatchObject({ state: 'committed' });
  });

  it('goes back with a group that failed, at whatever change the group made', async () => {
    await store.writes.step(async () => {
      expect(() =>
        store.transaction(() => {
          store.actions.create(read('a1'), NOW);
          throw new Error('the audit entry could not be written');
        }),
      ).toThrow();
      store.transaction(() => store.actions.create(read('a2'), NOW));
      expect(() =>
        store.transaction(() => {
          store.actions.markStarted('a2', FROM, 'key-a2', NOW);
          // A read inside the group writes the row, and the failure takes that write back too.
          expect(store.actions.get('a2')?.ledgerState).toBe('started');
          throw new Error('the checkpoint could not be written');
        }),
      ).toThrow();
      expect(store.actions.byCall('r', 'call-a2')?.ledgerState).toBe('approved');
    });
    expect(row('a1')).toBeUndefined();
    expect(row('a2')).toMatchObject({ state: 'approved', attempts: 0 });
  });

  it('is not held for a side effect, a call that reaches outside, or one waiting for approval', async () => {
    await store.writes.step(async () => {
      store.actions.create(read('effect', { hasSideEffects: true }), NOW);
      store.actions.create(read('external', { isExternal: true }), NOW);
      store.actions.create(read('asks', { state: 'awaiting_confirmation' }), NOW);
      expect(count()).toBe(3);
    });
  });
});
