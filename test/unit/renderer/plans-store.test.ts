import { describe, expect, it } from 'vitest';
import { createPlansStore } from '../../../renderer/src/features/plans/plans-store';
import type { Plan, PlanStep, ThreadDetail } from '../../../shared/contract';
import { fakeClient } from './fixtures';

const ask: PlanStep = {
  id: 'ask',
  title: 'Ask which list',
  kind: 'ask',
  tool: null,
  args: {},
  fixed: [],
  dependsOn: [],
  status: 'awaiting_user',
  needsApproval: false,
  approvalReason: null,
  isApproved: false,
  question: 'Which list?',
  answer: null,
  result: null,
  attempts: 0,
  maxAttempts: 1,
  actionIds: [],
};
const paused: Plan = {
  id: 'p1',
  runId: 'r1',
  threadId: 't1',
  goal: 'Sort my tasks',
  steps: [
    ask,
    { ...ask, id: 'sort', title: 'Sort them', kind: 'tool', tool: 'list_tasks', status: 'pending' },
  ],
  currentStep: 0,
  status: 'paused',
  requiresApproval: false,
  approvedAt: null,
  createdAt: '2026-11-28T08:00:00.000Z',
  updatedAt: '2026-11-28T08:00:00.000Z',
};
const answered = (status: Plan['status'], currentStep: number): Plan => ({
  ...paused,
  status,
  currentStep,
  steps: paused.steps.map((step, index) =>
    index < currentStep ? { ...step, status: 'done', answer: step.kind === 'ask' ? 'Work' : null } : step,
  ),
});

describe('the plans store', () => {
  it('keeps a plan its events ended when the answer to the command that went on with it comes after them', async () => {
    let answer: (plan: Plan) => void = () => undefined;
    const fake = fakeClient({
      'plan.continue': () => new Promise((resolve) => (answer = (plan) => resolve({ plan }))),
    });
    const store = createPlansStore(fake.client);
    store.getState().connect();
    fake.emit('run.events', { type: 'plan', runId: 'r1', threadId: 't1', plan: paused });
    const sent = store.getState().answer('p1', 'Work');
    // The run that took the plan up finished it, and said so, before the host's answer was read.
    const done = answered('completed', 2);
    fake.emit('run.events', {
      type: 'plan',
      runId: 'r2',
      threadId: 't1',
      patch: {
        id: 'p1',
        status: 'completed',
        currentStep: 2,
        requiresApproval: false,
        approvedAt: null,
        steps: done.steps,
      },
    });
    answer(answered('executing', 1));
    await sent;
    expect(store.getState().plans.p1?.status).toBe('completed');
    expect(store.getState().plans.p1?.currentStep).toBe(2);
    expect(store.getState().busy.p1).toBeNull();
  });

  it('takes the answer of a command that moved the plan on', async () => {
    const fake = fakeClient({ 'plan.continue': async () => ({ plan: answered('executing', 1) }) });
    const store = createPlansStore(fake.client);
    store.getState().connect();
    fake.emit('run.events', { type: 'plan', runId: 'r1', threadId: 't1', plan: paused });
    await store.getState().answer('p1', 'Work');
    expect(store.getState().plans.p1).toEqual(answered('executing', 1));
  });

  it('keeps a plan its events moved on when a conversation read before them is answered after them', () => {
    const fake = fakeClient({});
    const store = createPlansStore(fake.client);
    store.getState().connect();
    const read = (plan: Plan) => ({ thread: {}, messages: [], actions: [], runs: [], plans: [plan] });
    store.getState().fromThread(read(paused) as unknown as ThreadDetail);
    fake.emit('run.events', { type: 'plan', runId: 'r1', threadId: 't1', plan: answered('completed', 2) });
    // The same conversation read again (a reconnect, say), answered with what it held before the plan ended.
    store.getState().fromThread(read(answered('executing', 1)) as unknown as ThreadDetail);
    expect(store.getState().plans.p1).toEqual(answered('completed', 2));
    // A reading that is newer is taken.
    const other = { ...paused, id: 'p2' };
    store.getState().fromThread(read(other) as unknown as ThreadDetail);
    store.getState().fromThread(read({ ...answered('executing', 1), id: 'p2' }) as unknown as ThreadDetail);
    expect(store.getState().plans.p2?.currentStep).toBe(1);
  });
});
