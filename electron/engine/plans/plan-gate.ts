import type { PolicyDecision } from '../../policy/types';
import type { LedgerEntry } from '../../store/action-rows';
import type { StoredPlan, StoredStep } from '../../store/plans-repo';
import type { CallScope } from '../call-context';
import type { CheckedCall } from '../run-deps';
import type { CallPart } from '../run-state';
import { isFinalPlan, isFinishedStep } from './plan-progress';
import { isAsShown, isCovered, isPlaceholder } from './plan-scope';

/** The rule an action covered by a plan approval is recorded under: which plan, which step. */
export const planRule = (planId: string, stepId: string): string => `plan_approval:${planId}#${stepId}`;

/** Whether a step may take one more call: it is not finished and none of its calls is still under way. */
function isOpenFor(step: StoredStep, entries: readonly (LedgerEntry | null)[]): boolean {
  if (step.kind !== 'tool' || isFinishedStep(step.status) || step.status === 'pending') return false;
  const failures = entries.filter(
    (entry) => entry?.ledgerState === 'failed' || entry?.ledgerState === 'rejected',
  );
  return failures.length === entries.length && failures.length < step.maxAttempts;
}

/** How closely a call matches a step's sketch: the sketch's real values it repeats. */
function likeness(step: StoredStep, args: Record<string, unknown>): number {
  return Object.entries(step.args).filter(
    ([key, value]) => !isPlaceholder(value) && JSON.stringify(args[key]) === JSON.stringify(value),
  ).length;
}

/** The step a call carries out: the one it was tied to before, or the open step of its tool it matches best. */
function stepFor(scope: CallScope, plan: StoredPlan, call: CallPart, check: CheckedCall): StoredStep | null {
  const { store } = scope.deps;
  const ties = store.plans.calls(plan.id);
  const tied = ties.find((tie) => tie.runId === scope.spec.runId && tie.callId === call.callId);
  if (tied) return plan.steps.find((step) => step.id === tied.stepId) ?? null;
  const candidates = plan.steps.filter((step) => {
    if (step.tool !== check.tool.name) return false;
    const entries = ties
      .filter((tie) => tie.stepId === step.id)
      .map((tie) => store.actions.byCall(tie.runId, tie.callId));
    return isOpenFor(step, entries);
  });
  const covering = candidates.filter(
    (step) => step.approved && isCovered(step.approved, check.tool.name, check.args),
  );
  const pool = covering.length > 0 ? covering : candidates;
  const [best] = [...pool].sort((a, b) => likeness(b, check.args) - likeness(a, check.args));
  return best ?? null;
}

/**
 * Ties the call to its plan step and says what the plan's approval changes: a call that would ask is let
 * through only when the person approved the plan and this call is exactly a step they saw — same tool, same
 * recipients, calendar, channel, task. Anything else keeps the policy's answer: a call the plan did not list,
 * or one whose targets differ (an address that first appeared in a mail read mid-run), still asks.
 */
export function planDecision(
  scope: CallScope,
  call: CallPart,
  check: CheckedCall,
  decision: PolicyDecision,
): PolicyDecision {
  const { store } = scope.deps;
  const plan = store.plans.ofRun(scope.spec.runId);
  if (!plan || isFinalPlan(plan)) return decision;
  const step = stepFor(scope, plan, call, check);
  if (!step) return decision;
  store.plans.tie(plan.id, { runId: scope.spec.runId, callId: call.callId, stepId: step.id });
  if (decision.kind !== 'require_approval' || plan.approvedAt === null || step.approved === null)
    return decision;
  if (!isCovered(step.approved, check.tool.name, check.args)) return decision;
  // Content read mid-run steered a value the plan showed as something else: the person sees it first.
  if (decision.origins && decision.origins.length > 0 && !isAsShown(step.args, check.args)) return decision;
  return {
    kind: 'allow',
    rule: planRule(plan.id, step.id),
    reason: `You approved this step with the plan: “${step.title}”.`,
    shouldNotify: false,
  };
}
