import type { Plan } from '../../../shared/contract';
import type { StoredPlan, StoredStep } from '../../store/plans-repo';
import type { CallScope } from '../call-context';
import { answerUnrun, settle } from '../call-execution';
import type { CallPart } from '../run-state';
import { derivePlan, isFinalPlan, planView, savePlan } from './plan-progress';
import { fixedFieldsOf, scopeOf } from './plan-scope';
import { ProposeArgs, PROPOSE_PLAN, UpdateArgs, type StepChange } from './plan-tools';
import { estimateApprovals, kindOf, newPlan, newStep, planProblems, waves } from './plan-validation';

/** What a plan call answers the model: the plan's id, what needs approval, and the waves that run together. */
function accepted(plan: Plan): Record<string, unknown> {
  const steps = plan.steps;
  return {
    ok: true,
    planId: plan.id,
    status: plan.status,
    needsApproval: steps
      .filter((step) => step.needsApproval && !step.isApproved)
      .map((step) => ({ id: step.id, reason: step.approvalReason })),
    parallel: waves(plan.steps.map((step) => ({ ...step, approved: null }))),
    note: 'Go ahead with the ready steps. Steps that need approval wait for the person; the plan shows them.',
  };
}

/** Answers the turn's plan calls (inside the transaction that logs the turn) and returns the other calls. */
export function handlePlanCalls(scope: CallScope, calls: CallPart[]): CallPart[] {
  const rest: CallPart[] = [];
  for (const call of calls) {
    if (call.name === PROPOSE_PLAN) propose(scope, call);
    else if (call.name === 'update_plan') update(scope, call);
    else rest.push(call);
  }
  return rest;
}

function refuse(scope: CallScope, call: CallPart, problems: string[]): void {
  answerUnrun(scope, call, 'invalid_plan', `The plan was not accepted: ${problems.join(' ')}`);
}

function propose(scope: CallScope, call: CallPart): void {
  const { deps, spec } = scope;
  const parsed = ProposeArgs.safeParse(call.args);
  if (!parsed.success)
    return refuse(scope, call, [parsed.error.issues.map((issue) => issue.message).join('; ')]);
  const existing = deps.store.plans.ofRun(spec.runId);
  if (existing && !isFinalPlan(existing))
    return refuse(scope, call, [`This run already has plan ${existing.id}; change it with update_plan.`]);
  if (parsed.data.steps.length < 2)
    return refuse(scope, call, ['A one-step request needs no plan: call the tool directly.']);
  const steps = parsed.data.steps.map(newStep);
  const problems = planProblems(scope, steps);
  if (problems.length > 0) return refuse(scope, call, problems);
  const plan = newPlan(scope, deps.newId(), parsed.data.goal, estimateApprovals(scope, steps));
  const first = savePlan(deps, spec, plan, null);
  const view = savePlan(deps, spec, derivePlan(deps, plan), first);
  settle(scope, call, accepted(view), null);
}

/** A changed step keeps its approval only while its tool and target fields are what the person approved. */
function applyChange(step: StoredStep, change: StepChange): StoredStep {
  const args = change.args ? { ...step.args, ...change.args } : step.args;
  const tool = change.tool ?? step.tool;
  const next: StoredStep = {
    ...step,
    ...(change.title && { title: change.title }),
    tool,
    args,
    kind: kindOf({ tool: tool ?? undefined, ask: change.ask ?? step.question ?? undefined }),
    fixed: tool ? fixedFieldsOf(args) : [],
    dependsOn: change.dependsOn ?? step.dependsOn,
    question: change.ask ?? step.question,
    maxAttempts: change.maxAttempts ?? step.maxAttempts,
  };
  if (change.status && next.kind !== 'tool') next.status = change.status;
  if (change.status === 'skipped') next.status = 'skipped';
  if (change.result) next.result = change.result;
  const scope = tool ? scopeOf(tool, args) : null;
  const isSameScope = step.approved !== null && JSON.stringify(scope) === JSON.stringify(step.approved);
  return { ...next, approved: isSameScope ? step.approved : null };
}

function update(scope: CallScope, call: CallPart): void {
  const { deps, spec } = scope;
  const parsed = UpdateArgs.safeParse(call.args);
  if (!parsed.success)
    return refuse(scope, call, [parsed.error.issues.map((issue) => issue.message).join('; ')]);
  const plan = deps.store.plans.ofRun(spec.runId);
  if (!plan || isFinalPlan(plan)) return refuse(scope, call, ['There is no open plan; propose one first.']);
  const problems: string[] = [];
  let steps = [...plan.steps];
  for (const change of parsed.data.steps) {
    const index = steps.findIndex((step) => step.id === change.id);
    const current = steps[index];
    if (current && (current.status === 'done' || current.status === 'running')) {
      if (change.args || change.tool)
        problems.push(`Step "${change.id}" has already run; add a new step instead.`);
      if (change.args || change.tool) continue;
    }
    if (current) steps[index] = applyChange(current, change);
    else if (change.title) steps = [...steps, newStep({ ...change, title: change.title })];
    else problems.push(`Step "${change.id}" is new: give it a title.`);
  }
  problems.push(...planProblems(scope, steps));
  if (problems.length > 0) return refuse(scope, call, problems);
  const changed: StoredPlan = { ...plan, steps: estimateApprovals(scope, steps) };
  const view = savePlan(deps, spec, derivePlan(deps, changed), planView(deps, plan));
  settle(scope, call, accepted(view), null);
}
