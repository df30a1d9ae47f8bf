import { describe, expect, it } from 'vitest';
import type { NewAction } from '../../../electron/store/action-rows';
import { useFixtureCopies } from '../../support/fixture-copies';
import { storeWithRun } from '../../support/memory-store';

/** Copies of the frozen version-7 database (see audit-format-v7.test.ts): two runs, each in its own thread. */
const openCopy = useFixtureCopies();
const THREAD_A = '700e5c4c-00c1-45dc-930f-5901a326e406';
const NOW = '2026-11-28T12:00:00.000Z';

const post = (id: string, names?: Record<string, string>): NewAction => ({
  id,
  runId: 'r',
  threadId: 't',
  callId: `call-${id}`,
  tool: 'slack_send',
  args: { channel: 'C0RANDOM01', text: 'Hello all.' },
  state: 'awaiting_confirmation',
  hasSideEffects: true,
  ...(names && { names }),
});

describe("migration 23: the names of the ids a call's arguments give", () => {
  it('leaves the calls stored before it as they read, with no names', () => {
    const store = openCopy('deputy-v7-audit.db');
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(23);
      const actions = store.actions.byThread(THREAD_A);
      expect(actions.length).toBeGreaterThan(0);
      for (const action of actions) {
        expect(action).toMatchObject({ state: 'completed', error: null });
        expect(action).not.toHaveProperty('names');
      }
    } finally {
      store.close();
    }
  });

  it('keeps the names a call was decided with, and reads a row without them, or with others, as having none', () => {
    const store = storeWithRun(NOW);
    try {
      store.actions.create(post('named', { C0RANDOM01: '#random' }), NOW);
      store.actions.create(post('plain'), NOW);
      store.actions.create(post('odd'), NOW);
      // A value no names hold (written by hand, or by a later version that keeps more): read as none, not an error.
      store.db.prepare(`UPDATE actions SET names_json = '{"C0RANDOM01":7}' WHERE id = 'odd'`).run();
      const byId = new Map(store.actions.byThread('t').map((action) => [action.id, action]));
      expect(byId.get('named')?.names).toEqual({ C0RANDOM01: '#random' });
      expect(byId.get('plain')).not.toHaveProperty('names');
      expect(byId.get('odd')).not.toHaveProperty('names');
      expect(store.actions.get('named')?.names).toEqual({ C0RANDOM01: '#random' });
    } finally {
      store.close();
    }
  });
});
