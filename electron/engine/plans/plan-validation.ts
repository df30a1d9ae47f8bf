import type { PlanStepKind } from '../../../shared/contract';
import type { StoredPlan, StoredStep } from '../../store/plans-repo';
import type { CallScope } from '../call-context';
import { CONTROL_DECLARATIONS } from '../control-tools';
import type { CheckedCall } from '../run-deps';
import { runProvenance } from '../run-provenance';
import { fixedFieldsOf } from './plan-scope';
import { PLAN_DECLARATIONS, type StepInput } from './plan-tools';

const NOT_TOOLS = new Set([...CONTROL_DECLARATIONS, ...PLAN_DECLARATIONS].map((tool) => tool.name));

export function kindOf(step: Pick<StepInput, 'tool' | 'ask'>): PlanStepKind {
  if (step.tool) return 'tool';
  return step.ask ? 'ask' : 'reason';
}

/** A new step from the model's words, before validation and estimation. */
export function newStep(input: StepInput): StoredStep {
  const args = input.args ?? {};
  return {
    id: input.id,
    title: input.title,
    kind: kindOf(input),
    tool: input.tool ?? null,
    args,
    fixed: input.tool ? fixedFieldsOf(args) : [],
    dependsOn: [...new Set(input.dependsOn ?? [])],
    status: 'pending',
    needsApproval: false,
    approvalReason: null,
    approved: null,
    question: input.ask ?? null,
    answer: null,
    result: null,
    attempts: 0,
    maxAttempts: input.maxAttempts ?? 1,
  };
}

/**
 * validatePlan: every tool exists and this run may use it, ids are unique, every dependency is a step, and
 * the dependencies have no cycle. Returns what is wrong, in words the model can act on; empty when nothing is.
 */
export function planProblems(scope: CallScope, steps: readonly StoredStep[]): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const step of steps) {
    if (ids.has(step.id)) problems.push(`Two steps have the id "${step.id}".`);
    ids.add(step.id);
  }
  for (const step of steps) {
    for (const dependency of step.dependsOn) {
      if (dependency === step.id) problems.push(`Step "${step.id}" depends on itself.`);
      else if (!ids.has(dependency))
        problems.push(`Step "${step.id}" depends on "${dependency}", which is not a step.`);
    }
    if (!step.tool) continue;
    const tool = NOT_TOOLS.has(step.tool) ? undefined : scope.deps.registry.get(step.tool);
    if (!tool) {
      problems.push(`Step "${step.id}" uses ${step.tool}, which is not a tool Deputy has.`);
      continue;
    }
    const decision = scope.deps.decide(sketchCall(scope, step), sketchFacts(scope, step));
    if (decision.kind === 'deny' && decision.rule === 'grant')
      problems.push(`Step "${step.id}": ${decision.reason}`);
  }
  const cycle = cycleIn(steps);
  if (cycle) problems.push(`The steps wait for each other in a circle: ${cycle.join(' → ')}.`);
  return problems;
}

/**
 * estimateApprovals: the policy's own decide() on each tool step's sketch, under this run's settings and what
 * it has read so far. Only a guess (the real call may differ): each real call is decided again when it comes.
 */
export function estimateApprovals(scope: CallScope, steps: StoredStep[]): StoredStep[] {
  return steps.map((step) => {
    const tool = step.tool ? scope.deps.registry.get(step.tool) : undefined;
    if (!tool || !step.tool) return { ...step, needsApproval: false, approvalReason: null };
    const decision = scope.deps.decide(sketchCall(scope, step), sketchFacts(scope, step));
    if (decision.kind === 'allow') return { ...step, needsApproval: false, approvalReason: null };
    return { ...step, needsApproval: true, approvalReason: decision.reason };
  });
}

function sketchCall(scope: CallScope, step: StoredStep): CheckedCall {
  const tool = scope.deps.registry.get(step.tool ?? '');
  if (!tool) throw new Error(`no tool ${step.tool}`);
  return { ok: true, tool, input: step.args, args: step.args, meta: {} };
}

function sketchFacts(scope: CallScope, step: StoredStep) {
  const tool = scope.deps.registry.get(step.tool ?? '');
  let addresses: string[];
  try {
    addresses = tool?.recipients?.(step.args) ?? [];
  } catch {
    // A sketch need not fit the tool's schema yet: whom it reaches is then only what the real call says.
    addresses = [];
  }
  return {
    reach: { recipients: addresses.map((address) => ({ address, role: 'named in the plan' })) },
    provenance: runProvenance(scope.state, scope.deps.registry),
  };
}

/** The steps in an order where each comes after what it waits for (Kahn); null when there is a cycle. */
export function topological(steps: readonly StoredStep[]): StoredStep[] | null {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const waiting = new Map(steps.map((step) => [step.id, step.dependsOn.filter((id) => byId.has(id)).length]));
  const order: StoredStep[] = [];
  const ready = steps.filter((step) => waiting.get(step.id) === 0);
  while (ready.length > 0) {
    const step = ready.shift() as StoredStep;
    order.push(step);
    for (const other of steps) {
      if (!other.dependsOn.includes(step.id)) continue;
      const left = (waiting.get(other.id) ?? 0) - 1;
      waiting.set(other.id, left);
      if (left === 0) ready.push(other);
    }
  }
  return order.length === steps.length ? order : null;
}

function cycleIn(steps: readonly StoredStep[]): string[] | null {
  if (topological(steps)) return null;
  const byId = new Map(steps.map((step) => [step.id, step]));
  const state = new Map<string, 'open' | 'closed'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'closed') return null;
    if (state.get(id) === 'open') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'open');
    path.push(id);
    for (const next of byId.get(id)?.dependsOn ?? []) {
      const found = byId.has(next) ? visit(next) : null;
      if (found) return found;
    }
    path.pop();
    state.set(id, 'closed');
    return null;
  };
  for (const step of steps) {
    const found = visit(step.id);
    if (found) return found;
  }
  return null;
}

/** optimizePlan: the waves of steps that can run together, each after the one before. */
export function waves(steps: readonly StoredStep[]): string[][] {
  const depth = new Map<string, number>();
  for (const step of topological(steps) ?? []) {
    const before = step.dependsOn.map((id) => depth.get(id) ?? 0);
    depth.set(step.id, before.length === 0 ? 0 : Math.max(...before) + 1);
  }
  const result: string[][] = [];
  for (const [id, level] of depth) (result[level] ??= []).push(id);
  return result;
}

/** A fresh plan for this run. */
export function newPlan(scope: CallScope, id: string, goal: string, steps: StoredStep[]): StoredPlan {
  const now = scope.deps.now().toISOString();
  return {
    id,
    runId: scope.spec.runId,
    threadId: scope.spec.threadId,
    goal,
    steps,
    currentStep: 0,
    status: 'planned',
    requiresApproval: steps.some((step) => step.needsApproval),
    approvedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}
