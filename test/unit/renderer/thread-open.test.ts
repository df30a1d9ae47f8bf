import { describe, expect, it } from 'vitest';
import type { Plan, ThreadDetail } from '../../../shared/contract';
import { createStores } from '../../../renderer/src/stores';
import { fakeClient, storedMessage, storedRun } from './fixtures';

const plan: Plan = {
  id: 'p1',
  runId: 'r2',
  threadId: 't1',
  goal: 'Tidy my tasks',
  steps: [],
  currentStep: 0,
  status: 'completed',
  requiresApproval: true,
  approvedAt: '2026-01-01T09:01:30.000Z',
  createdAt: '2026-01-01T09:01:10.000Z',
  updatedAt: '2026-01-01T09:02:00.000Z',
};

const detail: ThreadDetail = {
  thread: {
    id: 't1',
    title: 'Tasks',
    createdAt: '2026-01-01T09:00:00.000Z',
    updatedAt: '2026-01-01T09:02:00.000Z',
    lastRunStatus: 'completed',
  },
  messages: [storedMessage('m1', 'r1', 'user', 'Tidy my tasks', '2026-01-01T09:00:00.000Z')],
  actions: [],
  runs: [
    storedRun('r1', 'completed', '2026-01-01T09:01:00.000Z'),
    // The answer's run that went on with the plan.
    storedRun('r2', 'completed', '2026-01-01T09:01:20.000Z'),
  ],
  plans: [plan],
  approvals: [],
};

describe('opening a conversation', () => {
  it('reads it once: its plans come from the chat’s reading, under the request that made each', async () => {
    const { client, calls } = fakeClient({ 'thread.get': async () => structuredClone(detail) });
    const stores = createStores(client);
    await stores.chat.getState().openThread('t1');
    expect(calls.filter((call) => call.channel === 'thread.get')).toHaveLength(1);
    expect(stores.plans.getState().plans).toEqual({ p1: plan });
    expect(stores.plans.getState().anchors).toEqual({ p1: 'r1' });
  });

  it('takes the plans again when the conversation is read again (after a reconnect)', async () => {
    const readings = [detail, { ...detail, plans: [{ ...plan, goal: 'Tidy my tasks today' }] }];
    const { client } = fakeClient({ 'thread.get': async () => structuredClone(readings.shift() ?? detail) });
    const stores = createStores(client);
    await stores.chat.getState().openThread('t1');
    await stores.chat.getState().refreshThread();
    expect(stores.plans.getState().plans.p1?.goal).toBe('Tidy my tasks today');
  });
});
