import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/store/database';
import { Store } from '../../../electron/store/store';
import type { NewAction } from '../../../electron/store/action-rows';

function storeWithRun(): Store {
  const store = new Store(openDatabase(':memory:'));
  store.threads.create('t', 'T', 'n');
  store.runs.create({ id: 'r', threadId: 't', model: 'm', prompt: 'p' }, 'n');
  return store;
}

const call = (overrides: Partial<NewAction> = {}): NewAction => ({
  id: 'a',
  runId: 'r',
  threadId: 't',
  callId: 'c',
  tool: 'gmail_send',
  args: { to: 'ann@example.com' },
  state: 'planned',
  fingerprint: 'fp',
  idempotencyKey: 'key-1',
  hasSideEffects: true,
  ...overrides,
});

describe('the ledger (actions)', () => {
  it('finds a call by run and call id, with everything a resume needs', () => {
    const store = storeWithRun();
    store.actions.create(call(), 'n');
    store.actions.finish('a', { state: 'committed', result: { messageId: 'm1' } }, 'n');
    expect(store.actions.byCall('r', 'c')).toEqual({
      id: 'a',
      runId: 'r',
      threadId: 't',
      callId: 'c',
      tool: 'gmail_send',
      args: { to: 'ann@example.com' },
      ledgerState: 'committed',
      result: { messageId: 'm1' },
      error: null,
      fingerprint: 'fp',
      idempotencyKey: 'key-1',
      hasSideEffects: true,
      attempts: 0,
    });
    expect(store.actions.byCall('r', 'other')).toBeNull();
    expect(store.actions.byCall('other', 'c')).toBeNull();
  });

  it('defaults the idempotency key and side effects when the caller gives none', () => {
    const store = storeWithRun();
    store.actions.create(call({ idempotencyKey: undefined, hasSideEffects: undefined }), 'n');
    expect(store.actions.byCall('r', 'c')).toMatchObject({
      idempotencyKey: null,
      hasSideEffects: false,
      result: null,
    });
  });

  it('moves a call only from the states it names, once', () => {
    const store = storeWithRun();
    store.actions.create(call({ state: 'approved' }), 'n');
    expect(store.actions.transition('a', ['planned', 'approved'], 'started', 'n1')).toBe(true);
    expect(store.actions.transition('a', ['planned', 'approved'], 'started', 'n2')).toBe(false);
    expect(store.actions.transition('a', ['committed'], 'failed', 'n3')).toBe(false);
    expect(store.actions.byCall('r', 'c')?.ledgerState).toBe('started');
    expect(store.actions.transition('a', ['started'], 'unknown', 'n4')).toBe(true);
    expect(store.actions.byCall('r', 'c')?.ledgerState).toBe('unknown');
    expect(store.actions.transition('missing', ['unknown'], 'committed', 'n')).toBe(false);
  });

  it('counts attempts one by one', () => {
    const store = storeWithRun();
    store.actions.create(call(), 'n');
    expect(store.actions.countAttempt('a', 'n')).toBe(1);
    expect(store.actions.countAttempt('a', 'n')).toBe(2);
    expect(store.actions.byCall('r', 'c')?.attempts).toBe(2);
    expect(() => store.actions.countAttempt('missing', 'n')).toThrow(/action missing/);
  });

  it('shows each ledger state as the contract state, keeping the ledger state beside it', () => {
    const store = storeWithRun();
    const expected = {
      planned: 'planned',
      awaiting_confirmation: 'awaiting_confirmation',
      approved: 'executing',
      started: 'executing',
      committed: 'completed',
      failed: 'failed',
      rejected: 'rejected',
      unknown: 'awaiting_confirmation',
    } as const;
    for (const [index, ledgerState] of Object.keys(expected).entries()) {
      const state = ledgerState as keyof typeof expected;
      store.actions.create(call({ id: `a${index}`, callId: `c${index}`, state }), 'n');
    }
    const shown = store.actions.byThread('t').map((action) => [action.ledgerState, action.state]);
    expect(Object.fromEntries(shown)).toEqual(expected);
    store.actions.setState('a0', 'committed', 'n');
    expect(store.actions.get('a0')).toMatchObject({ state: 'completed', ledgerState: 'committed' });
  });

  it('counts calls that may have taken effect towards the rate limits', () => {
    const store = storeWithRun();
    const states = ['planned', 'approved', 'started', 'committed', 'unknown', 'failed', 'rejected'] as const;
    for (const [index, state] of states.entries()) {
      store.actions.create(
        call({ id: `a${index}`, callId: `c${index}`, state, isExternal: true }),
        '2026-01-02',
      );
    }
    expect(store.policy.actionsSince('2026-01-01')).toBe(4);
    expect(store.policy.externalCallsSince('2026-01-01')).toBe(4);
  });
});

describe('runs for durable execution', () => {
  it('lists unfinished runs oldest first, marks resumes and records recovered endings', () => {
    const store = new Store(openDatabase(':memory:'));
    store.threads.create('t', 'T', 'n');
    store.runs.create({ id: 'late', threadId: 't', model: 'm', prompt: 'p' }, '2026-01-03');
    store.runs.create(
      { id: 'early', threadId: 't', model: 'm', prompt: 'p', agentId: 'scout' },
      '2026-01-01',
    );
    store.runs.create({ id: 'done', threadId: 't', model: 'm', prompt: 'p' }, '2026-01-02');
    store.runs.create({ id: 'broken', threadId: 't', model: 'm', prompt: 'p' }, '2026-01-02');
    store.runs.setStatus('late', 'executing', '2026-01-03');
    const ending = {
      mode: 'assistant_text' as const,
      summary: 's',
      decision: 'd',
      outcome: 'o',
      errorCode: null,
      errorMessage: null,
    };
    store.runs.end('done', { ...ending, status: 'completed', recovered: true }, '2026-01-04');
    store.runs.end('broken', { ...ending, status: 'failed' }, '2026-01-04');

    expect(store.runs.unfinished().map((run) => run.id)).toEqual(['early', 'late']);
    expect(store.runs.get('done')).toMatchObject({ status: 'completed', recovered: true, resumed: false });
    expect(store.runs.get('broken')).toMatchObject({ recovered: false });

    store.runs.markResumed('late', '2026-01-05');
    expect(store.runs.get('late')).toMatchObject({
      resumed: true,
      recovered: false,
      updatedAt: '2026-01-05',
    });
    const agents = store.db.prepare('SELECT id, agent_id FROM runs ORDER BY id').all();
    expect(agents).toEqual([
      { id: 'broken', agent_id: 'deputy' },
      { id: 'done', agent_id: 'deputy' },
      { id: 'early', agent_id: 'scout' },
      { id: 'late', agent_id: 'deputy' },
    ]);
  });
});
