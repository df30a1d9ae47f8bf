import { describe, expect, it } from 'vitest';
import type { Plan, PlanStep } from '../../../shared/contract';
import {
  applyPlanEvent,
  canApprovePlan,
  plannedActionIds,
  withoutPlanQuestions,
} from '../../../renderer/src/features/plans/plans-model';

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
  });

  it("leaves out Deputy's message that is a plan's question, in that plan's conversation only", () => {
    const asking = {
      ...plan,
      steps: [step('ask', { kind: 'ask', question: 'Which list?', status: 'awaiting_user' })],
    };
    const message = (id: string, text: string, extra = {}) => ({
      kind: 'message' as const,
      id,
      runId: 'r1',
      role: 'assistant' as const,
      text,
      isStreaming: false,
      ...extra,
    });
    const items = [
      { ...message('q', 'Sort my tasks'), role: 'user' as const },
      message('a', 'Which list?\n'),
      message('b', 'Sorted.'),
    ];
    expect(withoutPlanQuestions(items, { p1: asking }, 't1').map((item) => item.id)).toEqual(['q', 'b']);
    // Another conversation's plan, or words still streaming, are not this plan's question.
    expect(withoutPlanQuestions(items, { p1: asking }, 't2')).toBe(items);
    const streaming = [message('a', 'Which list?', { isStreaming: true })];
    expect(withoutPlanQuestions(streaming, { p1: asking }, 't1')).toBe(streaming);
    expect(withoutPlanQuestions(items, { p1: plan }, 't1')).toBe(items);
  });
});
