import type { Plan, PlanStep, PlanStepStatus } from '../../../shared/contract';
import type { LedgerEntry } from '../../store/action-rows';
import type { StoredPlan, StoredStep } from '../../store/plans-repo';
import type { RunLoopDeps, RunSpec } from '../run-deps';
import { topological } from './plan-validation';

const FINISHED: ReadonlySet<PlanStepStatus> = new Set(['done', 'failed', 'skipped', 'cancelled']);
const FINAL_PLAN = new Set(['completed', 'failed', 'cancelled']);

export const isFinishedStep = (status: PlanStepStatus): boolean => FINISHED.has(status);
export const isFinalPlan = (plan: Pick<StoredPlan, 'status'>): boolean => FINAL_PLAN.has(plan.status);

type Deps = Pick<RunLoopDeps, 'store' | 'now' | 'emit'>;

/** The ledger rows of the calls tied to each step, in the order they were made. */
function ledgerByStep(deps: Deps, plan: StoredPlan): Map<string, LedgerEntry[]> {
  const byStep = new Map<string, LedgerEntry[]>();
  for (const call of deps.store.plans.calls(plan.id)) {
    const entry = deps.store.actions.byCall(call.runId, call.callId);
    if (entry) byStep.set(call.stepId, [...(byStep.get(call.stepId) ?? []), entry]);
  }
  return byStep;
}

function shortResult(entry: LedgerEntry): string {
  if (entry.ledgerState !== 'committed')
    return (entry.error ?? `${entry.tool} did not succeed.`).slice(0, 300);
  const text = JSON.stringify(entry.result ?? {});
  return text.length > 300 ? `${text.slice(0, 297)}…` : text;
}

/** What a tool step's calls say of it, or null when none of them got anywhere yet. */
function fromLedger(step: StoredStep, entries: readonly LedgerEntry[]): Partial<StoredStep> | null {
  if (entries.length === 0) return null;
  const done = entries.find((entry) => entry.ledgerState === 'committed');
  if (done) return { status: 'done', result: shortResult(done), attempts: entries.length };
  const failures = entries.filter(
    (entry) => entry.ledgerState === 'failed' || entry.ledgerState === 'rejected',
  );
  const open = entries.find((entry) => !failures.includes(entry));
  if (open) {
    const status = open.ledgerState === 'awaiting_confirmation' ? 'awaiting_approval' : 'running';
    return { status, attempts: entries.length };
  }
  const last = failures.at(-1) as LedgerEntry;
  if (failures.length >= step.maxAttempts)
    return { status: 'failed', result: shortResult(last), attempts: failures.length };
  // Attempts are left: the step is open again, and the model hears why the last one failed.
  return { result: shortResult(last), attempts: failures.length };
}

/**
 * The plan as the ledger has it now: each tool step from the calls tied to it, each step skipped when one it
 * waits for failed or was skipped, ready when all it waits for is done. A pure reading of stored facts, so a
 * resumed run computes the same plan it had.
 */
export function derivePlan(deps: Deps, plan: StoredPlan): StoredPlan {
  const byStep = ledgerByStep(deps, plan);
  const status = new Map<string, StoredStep>();
  for (const original of topological(plan.steps) ?? plan.steps) {
    let step: StoredStep = { ...original };
    const ledger = step.kind === 'tool' ? fromLedger(step, byStep.get(step.id) ?? []) : null;
    if (ledger) step = { ...step, ...ledger };
    const before = step.dependsOn.map((id) => status.get(id)?.status);
    const isExplicit = step.status === 'skipped' || (step.kind !== 'tool' && isFinishedStep(step.status));
    if (!ledger?.status && !isExplicit && step.status !== 'awaiting_user') {
      if (plan.status === 'cancelled') step.status = 'cancelled';
      else if (before.some((s) => s === 'failed' || s === 'skipped' || s === 'cancelled'))
        step.status = 'skipped';
      else step.status = before.every((s) => s === 'done') ? 'ready' : 'pending';
    }
    status.set(step.id, step);
  }
  const steps = plan.steps.map((step) => status.get(step.id) ?? step);
  const firstOpen = steps.findIndex((step) => !isFinishedStep(step.status));
  const isWaiting = steps.some(
    (step) => step.status === 'awaiting_approval' || step.status === 'awaiting_user',
  );
  const hasStarted = steps.some((step) => step.status !== 'pending' && step.status !== 'ready');
  const next = isFinalPlan(plan)
    ? plan.status
    : isWaiting
      ? 'paused'
      : hasStarted
        ? 'executing'
        : plan.status;
  return {
    ...plan,
    steps,
    currentStep: firstOpen === -1 ? steps.length : firstOpen,
    status: next,
    requiresApproval: steps.some(
      (step) => step.needsApproval && step.approved === null && !isFinishedStep(step.status),
    ),
  };
}

/** The plan as the contract shows it: each step with the ledger actions that carried it out. */
export function planView(deps: Pick<RunLoopDeps, 'store'>, plan: StoredPlan): Plan {
  const actions = new Map<string, string[]>();
  for (const call of deps.store.plans.calls(plan.id)) {
    const entry = deps.store.actions.byCall(call.runId, call.callId);
    if (entry) actions.set(call.stepId, [...(actions.get(call.stepId) ?? []), entry.id]);
  }
  return {
    ...plan,
    steps: plan.steps.map(({ approved, ...step }): PlanStep => ({
      ...step,
      isApproved: approved !== null,
      actionIds: actions.get(step.id) ?? [],
    })),
  };
}

const sameStep = (a: PlanStep, b: PlanStep | undefined): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Saves the plan and tells subscribers what changed (inside the caller's transaction). `before` null means the
 * plan is new: its whole tree goes out. Nothing is written or sent when nothing changed.
 */
export function savePlan(
  deps: Deps,
  spec: Pick<RunSpec, 'runId' | 'threadId'>,
  plan: StoredPlan,
  before: Plan | null,
): Plan {
  const view = planView(deps, plan);
  const ids = { runId: spec.runId, threadId: spec.threadId };
  if (before === null) {
    deps.store.plans.save(plan);
    deps.emit({ type: 'plan', ...ids, plan: view });
    return view;
  }
  const changed = view.steps.filter(
    (step) =>
      !sameStep(
        step,
        before.steps.find((b) => b.id === step.id),
      ),
  );
  const isSame =
    changed.length === 0 &&
    view.status === before.status &&
    view.currentStep === before.currentStep &&
    view.requiresApproval === before.requiresApproval &&
    view.approvedAt === before.approvedAt &&
    view.steps.length === before.steps.length;
  if (isSame) return before;
  const updated = { ...plan, updatedAt: deps.now().toISOString() };
  deps.store.plans.save(updated);
  const { id, status, currentStep, requiresApproval, approvedAt } = view;
  deps.emit({
    type: 'plan',
    ...ids,
    patch: { id, status, currentStep, requiresApproval, approvedAt, steps: changed },
  });
  return { ...view, updatedAt: updated.updatedAt };
}

/** Reads the run's plan again from the ledger and saves what moved; returns the plan, or null if it has none. */
export function refreshPlan(
  deps: Deps,
  spec: Pick<RunSpec, 'runId' | 'threadId'>,
  planId?: string,
): Plan | null {
  const plan = planId ? deps.store.plans.get(planId) : deps.store.plans.ofRun(spec.runId);
  if (!plan) return null;
  return deps.store.transaction(() => savePlan(deps, spec, derivePlan(deps, plan), planView(deps, plan)));
}
