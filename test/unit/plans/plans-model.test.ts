import { describe, expect, it } from 'vitest';
import type { Plan, PlanStep } from '../../../shared/contract';
import {
  applyPlanEvent,
  canApprovePlan,
  plannedActionIds,
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
});
