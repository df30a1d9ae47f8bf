import { describe, expect, it } from 'vitest';
import type { Plan, PlanStep } from '../../../shared/contract';
import {
  applyPlanEvent,
  canApprovePlan,
  madeBy,
  plannedActionIds,
  stepState,
} from '../../../renderer/src/features/plans/plans-model';
import { stepSaying, withoutPlanDialogue } from '../../../renderer/src/features/plans/plan-dialogue';
import type { TimelineItem } from '../../../renderer/src/features/chat/timeline';

const step = (id: string, extra: Partial<PlanStep> = {}): PlanStep => ({
  id,
  title: id,
  kind: 'tool',
  tool: 'lookup',
  args: {},
  fixed: [],
  dependsOn: [],
  status: 'pending',
  needsApproval: false,
  approvalReason: null,
  isApproved: false,
  question: null,
  answer: null,
  result: null,
  attempts: 0,
  maxAttempts: 1,
  actionIds: [],
  ...extra,
});
const plan: Plan = {
  id: 'p1',
  runId: 'r1',
  threadId: 't1',
  goal: 'g',
  steps: [step('a'), step('b', { needsApproval: true })],
  currentStep: 0,
  status: 'planned',
  requiresApproval: true,
  approvedAt: null,
  createdAt: 'now',
  updatedAt: 'now',
};
const ids = { runId: 'r1', threadId: 't1' };

describe('the plans the window knows', () => {
  it('takes a snapshot, then patches only what changed, and adds new steps', () => {
    const known = applyPlanEvent({}, { type: 'plan', ...ids, plan });
    const patched = applyPlanEvent(known, {
      type: 'plan',
      ...ids,
      patch: {
        id: 'p1',
        status: 'executing',
        currentStep: 1,
        requiresApproval: true,
        approvedAt: null,
        steps: [step('a', { status: 'done', actionIds: ['x1'] }), step('c')],
      },
    });
    expect(patched.p1?.status).toBe('executing');
    expect(patched.p1?.steps.map((s) => [s.id, s.status])).toEqual([
      ['a', 'done'],
      ['b', 'pending'],
      ['c', 'pending'],
    ]);
    expect(plannedActionIds(patched)).toEqual(new Set(['x1']));
  });

  it('ignores a patch for a plan it never saw, and offers Approve plan only while it grants something', () => {
    const patch = {
      id: 'zz',
      status: 'executing' as const,
      currentStep: 0,
      requiresApproval: false,
      approvedAt: null,
      steps: [],
    };
    expect(applyPlanEvent({}, { type: 'plan', ...ids, patch })).toEqual({});
    expect(canApprovePlan(plan)).toBe(true);
    expect(canApprovePlan({ ...plan, approvedAt: 'now' })).toBe(false);
    expect(canApprovePlan({ ...plan, status: 'cancelled' })).toBe(false);
    // Its one step that asks first is done (approved by itself) or ended: approving the plan would grant nothing.
    for (const status of ['done', 'failed', 'skipped', 'cancelled'] as const)
      expect(
        canApprovePlan({ ...plan, steps: [step('a'), step('b', { needsApproval: true, status })] }),
      ).toBe(false);
    expect(
      canApprovePlan({ ...plan, steps: [step('b', { needsApproval: true, status: 'awaiting_approval' })] }),
    ).toBe(true);
  });

  it('says a question step whose turn has come waits for the person’s answer, not that it is “Ready”', () => {
    const question = step('ask', { kind: 'ask', tool: null, question: 'Which list?' });
    expect(stepState({ ...question, status: 'ready' })).toEqual({
      icon: '?',
      words: 'Will need your answer',
    });
    expect(stepState({ ...question, status: 'awaiting_user' })).toEqual({
      icon: '?',
      words: 'Needs your answer',
    });
    expect(stepState({ ...question, status: 'done' }).words).toBe('Done');
    // A tool step whose turn has come is ready to run.
    expect(stepState(step('a', { status: 'ready' })).words).toBe('Ready');
  });

  it('sits a stored plan under the request that made it, not the run that went on with it after an answer', () => {
    const run = (id: string, createdAt: string, extra = {}) => ({
      id,
      threadId: 't1',
      status: 'completed' as const,
      model: 'm',
      summary: null,
      errorCode: null,
      errorMessage: null,
      createdAt,
      updatedAt: createdAt,
      ...extra,
    });
    const stored = { ...plan, runId: 'r3', createdAt: '2026-11-28T10:00:05Z' };
    const runs = [
      run('r0', '2026-11-28T09:00:00Z'),
      run('r1', '2026-11-28T10:00:00Z'),
      run('child', '2026-11-28T10:00:04Z', { parentRunId: 'r1' }),
      run('r3', '2026-11-28T10:05:00Z'),
    ];
    expect(madeBy(stored, runs)).toBe('r1');
    expect(madeBy(stored, [])).toBe('r3');
  });
});

describe("a plan's questions and answers in the conversation", () => {
  const asked = step('ask', { kind: 'ask', question: 'Which list?', answer: 'Work', status: 'done' });
  const asking = { ...plan, runId: 'r2', steps: [step('list', { actionIds: ['x1'] }), asked] };
  const message = (id: string, runId: string, role: 'user' | 'assistant', text: string, extra = {}) => ({
    kind: 'message' as const,
    id,
    runId,
    role,
    text,
    isStreaming: false,
    ...extra,
  });
  const items: TimelineItem[] = [
    message('q', 'r1', 'user', 'Sort my tasks'),
    { kind: 'tool', id: 'x1', runId: 'r1', tool: 'list_tasks', args: {}, state: 'completed' },
    message('a', 'r1', 'assistant', 'Which list?\n'),
    message('w', 'r2', 'user', 'Work'),
    message('b', 'r2', 'assistant', 'Sorted.'),
    // Later, the same word asked as a request of its own.
    message('w2', 'r4', 'user', 'Work'),
  ];
  const ids = (shown: readonly TimelineItem[]) => shown.map((item) => item.id);

  it("leaves out Deputy's message that is the question and the prompt that answered it, in that plan's conversation", () => {
    expect(ids(withoutPlanDialogue(items, { p1: asking }, { p1: 'r1' }, 't1'))).toEqual([
      'q',
      'x1',
      'b',
      'w2',
    ]);
    // Another conversation's plan, or words still streaming, are not this plan's.
    expect(withoutPlanDialogue(items, { p1: asking }, { p1: 'r1' }, 't2')).toBe(items);
    const streaming = [message('a', 'r1', 'assistant', 'Which list?', { isStreaming: true })];
    expect(withoutPlanDialogue(streaming, { p1: asking }, { p1: 'r1' }, 't1')).toBe(streaming);
    expect(withoutPlanDialogue(items, { p1: plan }, { p1: 'r1' }, 't1')).toBe(items);
  });

  it("keeps the same words Deputy asks later, outside the plan's runs, as a question of their own", () => {
    const later: TimelineItem[] = [
      ...items,
      message('u5', 'r5', 'user', 'Now sort my shopping'),
      // Asked by a run that never held the plan: the only place the person reads it.
      message('a5', 'r5', 'assistant', 'Which list?'),
    ];
    const kept = ['q', 'x1', 'b', 'w2', 'u5', 'a5'];
    expect(ids(withoutPlanDialogue(later, { p1: asking }, { p1: 'r1' }, 't1'))).toEqual(kept);
    // Of two plans, each leaves out only its own question where one of its runs asked it.
    const other = {
      ...plan,
      id: 'p2',
      runId: 'r6',
      steps: [step('ask2', { kind: 'ask', question: 'Which day?' })],
    };
    const both: TimelineItem[] = [
      ...later,
      message('u6', 'r6', 'user', 'Plan my week'),
      message('a6', 'r6', 'assistant', 'Which day?'),
      message('u7', 'r7', 'user', 'Tidy my tasks'),
      message('a7', 'r7', 'assistant', 'Which list?'),
    ];
    expect(ids(withoutPlanDialogue(both, { p1: asking, p2: other }, { p1: 'r1', p2: 'r6' }, 't1'))).toEqual([
      ...kept,
      'u6',
      'u7',
      'a7',
    ]);
  });

  it('finds the step that says a left-out question or answer, for a search hit on it', () => {
    const saying = (id: string) => stepSaying(id, items, { p1: asking }, { p1: 'r1' }, 't1');
    expect(saying('a')).toEqual({ planId: 'p1', stepId: 'ask' });
    expect(saying('w')).toEqual({ planId: 'p1', stepId: 'ask' });
    // Shown in the conversation itself: the hit opens there, not at a step.
    expect(saying('w2')).toBeNull();
    expect(saying('b')).toBeNull();
    expect(stepSaying('a', items, { p1: asking }, { p1: 'r1' }, 't2')).toBeNull();
  });

  it('never leaves out the request the plan sits under', () => {
    const same = [message('q', 'r1', 'user', 'Work'), message('a', 'r1', 'assistant', 'Which list?')];
    expect(ids(withoutPlanDialogue(same, { p1: { ...asking, runId: 'r1' } }, { p1: 'r1' }, 't1'))).toEqual([
      'q',
    ]);
  });
});
