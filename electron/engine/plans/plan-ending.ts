import type { RunEnding } from '../../store/runs-repo';
import type { StoredPlan } from '../../store/plans-repo';
import type { RunLoopDeps, RunSpec } from '../run-deps';
import { derivePlan, isFinalPlan, isFinishedStep, planView, savePlan } from './plan-progress';

/**
 * Where the run's plan stands when the run stops (inside the transaction of the ending). A question asked
 * while a question step is ready pauses the plan for the person's answer; a pause for approval leaves it
 * paused; a cancelled run cancels what was left; a finished run completes the plan — or fails it when a step
 * failed, with what could be done done. Returns the plan's id, for the response.
 */
export function settlePlanAtEnding(deps: RunLoopDeps, spec: RunSpec, ending: RunEnding): string | undefined {
  const stored = deps.store.plans.ofRun(spec.runId);
  if (!stored) return undefined;
  const before = planView(deps, stored);
  let plan = derivePlan(deps, stored);
  if (ending.status === 'awaiting_confirmation' || isFinalPlan(plan)) {
    savePlan(deps, spec, plan, before);
    return plan.id;
  }
  const ask = plan.steps.find((step) => step.kind === 'ask' && step.status === 'ready');
  if (ending.status === 'completed' && ending.decision === 'REQUEST_CLARIFICATION' && ask) {
    plan = withSteps(plan, (step) =>
      step === ask ? { ...step, status: 'awaiting_user', question: ending.summary } : step,
    );
    savePlan(deps, spec, { ...plan, status: 'paused' }, before);
    return plan.id;
  }
  const isCancelled = ending.errorCode === 'cancelled';
  const unrun = plan.steps.filter((step) => step.kind === 'tool' && !isFinishedStep(step.status));
  plan = withSteps(plan, (step) => {
    if (isFinishedStep(step.status)) return step;
    if (isCancelled || ending.status === 'failed') return { ...step, status: 'cancelled' };
    // The run finished without a word on this step: the model's own reasoning happened in its answer.
    return step.kind === 'reason' ? { ...step, status: 'done' } : { ...step, status: 'skipped' };
  });
  const hasFailed = plan.steps.some((step) => step.status === 'failed');
  const status = isCancelled ? 'cancelled' : ending.status === 'failed' || hasFailed ? 'failed' : 'completed';
  savePlan(
    deps,
    spec,
    { ...plan, status: status === 'completed' && unrun.length > 0 ? 'failed' : status },
    before,
  );
  return plan.id;
}

function withSteps(
  plan: StoredPlan,
  change: (step: StoredPlan['steps'][number]) => StoredPlan['steps'][number],
): StoredPlan {
  return { ...plan, steps: plan.steps.map(change), currentStep: plan.steps.length };
}
