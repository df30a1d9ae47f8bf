import { describe, expect, it } from 'vitest';
import type { NewAction } from '../../../electron/store/action-rows';
import { useFixtureCopies } from '../../support/fixture-copies';
import { storeWithRun } from '../../support/memory-store';

/** Copies of the frozen version-7 database (see audit-format-v7.test.ts): two runs, each in its own thread. */
const openCopy = useFixtureCopies();
const THREAD_A = '700e5c4c-00c1-45dc-930f-5901a326e406';
const NOW = '2026-11-27T12:00:00.000Z';

const read = (id: string): NewAction => ({
  id,
  runId: 'r',
  threadId: 't',
  callId: `call-${id}`,
  tool: 'list_tasks',
  args: {},
  state: 'approved',
});

describe("migration 22: a failed call's error code", () => {
  it('leaves the calls stored before it as they read, with no code', () => {
    const store = openCopy('deputy-v7-audit.db');
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(22);
      const actions = store.actions.byThread(THREAD_A);
      expect(actions.length).toBeGreaterThan(0);
      for (const action of actions) {
        expect(action).toMatchObject({ state: 'completed', error: null });
        expect(action).not.toHaveProperty('errorCode');
      }
    } finally {
      store.close();
    }
  });

  it('keeps the code a failed call ends with, whether its row was written at once or held for its step', async () => {
    const store = storeWithRun(NOW);
    try {
      const cutOff = { state: 'failed', error: 'list_tasks was stopped.', errorCode: 'cancelled' } as const;
      store.actions.create(read('at-once'), NOW);
      store.actions.finish('at-once', cutOff, NOW);
      await store.writes.step(async () => {
        store.transaction(() => store.actions.create(read('held'), NOW));
        store.transaction(() => store.actions.finish('held', cutOff, NOW));
      });
      store.actions.create(read('plain'), NOW);
      store.actions.finish('plain', { state: 'failed', error: 'It broke.' }, NOW);
      const byId = new Map(store.actions.byThread('t').map((action) => [action.id, action]));
      expect(byId.get('at-once')).toMatchObject({ state: 'failed', errorCode: 'cancelled' });
      expect(byId.get('held')).toMatchObject({ state: 'failed', errorCode: 'cancelled' });
      expect(byId.get('plain')).toMatchObject({ state: 'failed', error: 'It broke.' });
      expect(byId.get('plain')).not.toHaveProperty('errorCode');
    } finally {
      store.close();
    }
  });
});
