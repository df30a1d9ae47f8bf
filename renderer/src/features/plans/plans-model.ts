import type { Plan, PlanStep, PlanStepStatus, RunEvent, RunRecord } from '../../../../shared/contract';

export type PlanEvent = Extract<RunEvent, { type: 'plan' }>;

/** A `plan` event on the plans this window knows: a snapshot sets the plan, a patch replaces what changed. */
export function applyPlanEvent(plans: Record<string, Plan>, event: PlanEvent): Record<string, Plan> {
  if (event.plan) return { ...plans, [event.plan.id]: event.plan };
  const patch = event.patch;
  const known = patch ? plans[patch.id] : undefined;
  if (!patch || !known) return plans;
  const changed = new Map(patch.steps.map((step) => [step.id, step]));
  const steps = known.steps.map((step) => changed.get(step.id) ?? step);
  for (const step of patch.steps) if (!known.steps.some((old) => old.id === step.id)) steps.push(step);
  const { status, currentStep, requiresApproval, approvedAt } = patch;
  return { ...plans, [patch.id]: { ...known, status, currentStep, requiresApproval, approvedAt, steps } };
}

/** Each step state as a symbol (for the eye, hidden from screen readers) and in words. */
export const STEP_STATE: Record<PlanStepStatus, { icon: string; words: string }> = {
  pending: { icon: '○', words: 'Waiting' },
  ready: { icon: '◔', words: 'Ready' },
  running: { icon: '◑', words: 'Running' },
  awaiting_approval: { icon: '!', words: 'Needs your approval' },
  awaiting_user: { icon: '?', words: 'Needs your answer' },
  done: { icon: '✓', words: 'Done' },
  failed: { icon: '✕', words: 'Failed' },
  skipped: { icon: '–', words: 'Skipped' },
  cancelled: { icon: '–', words: 'Cancelled' },
};

/**
 * A question step whose turn has come, before Deputy has asked it (it asks as the run gets there, or once the
 * approval the plan waits on is given): the person's answer is what it waits for, not a step that is "Ready".
 */
export const QUESTION_TO_COME = { icon: '?', words: 'Will need your answer' };

/** Where a step stands, as its line says it (a question step's turn said as a question's). */
export const stepState = (step: Pick<PlanStep, 'kind' | 'status'>): { icon: string; words: string } =>
  step.kind === 'ask' && step.status === 'ready' ? QUESTION_TO_COME : STEP_STATE[step.status];

/** A failed step whose call was refused (turned down, or not done): said as its card says it. */
export const REFUSED_STEP_ICON = '✕';
/** A failed step whose call's approval expired with nobody answering: it did not fail, it was not done. */
export const EXPIRED_STEP = { icon: '–', words: 'Expired' };

export const PLAN_STATE: Record<Plan['status'], string> = {
  planned: 'Planned',
  executing: 'Working on it',
  paused: 'Waiting for you',
  completed: 'Done',
  failed: 'Finished with problems',
  cancelled: 'Cancelled',
};

const FINAL = new Set<Plan['status']>(['completed', 'failed', 'cancelled']);
export const isPlanOpen = (plan: Plan): boolean => !FINAL.has(plan.status);

/**
 * Whether `plan`, as a command's answer read it, is behind `shown`, the plan the window already drew from later
 * events: it is open where `shown` has ended, or at an earlier step. A plan never goes back, so such an answer is
 * old news (a slow host may answer after the run went on).
 */
export const isPlanBehind = (plan: Plan, shown: Plan | undefined): boolean =>
  shown !== undefined && ((isPlanOpen(plan) && !isPlanOpen(shown)) || plan.currentStep < shown.currentStep);

/** Whether approving the plan whole would grant anything: side-effect steps not yet approved. */
export const canApprovePlan = (plan: Plan): boolean =>
  isPlanOpen(plan) &&
  plan.approvedAt === null &&
  // A step already done (approved by itself), failed, skipped or cancelled is not granted anything.
  plan.steps.some((step) => step.needsApproval && !step.isApproved && !ENDED_STEPS.has(step.status));

const ENDED_STEPS = new Set<PlanStepStatus>(['done', 'failed', 'skipped', 'cancelled']);

/** A step's own Approve, said apart from the plan's "Approve the whole plan": it approves this step's call only. */
export const APPROVE_STEP = 'Approve this step';
/** Its name to a screen reader, with the step it approves ("Approve this step: Add a task: Buy milk"). */
export const approveStepLabel = (step: string): string => `${APPROVE_STEP}: ${step}`;

/** The action ids the plan's steps own: their tool cards sit inside the tree, not in the timeline. */
export function plannedActionIds(plans: Record<string, Plan>): Set<string> {
  return new Set(Object.values(plans).flatMap((plan) => plan.steps.flatMap((step) => step.actionIds)));
}

/**
 * The run whose request a stored plan sits under: the one that made it, the thread's last top-level run started
 * by the time the plan was made. (A plan moves on to the run that goes on with it after an answer, so its own
 * `runId` is the latest; live, the window keeps the first it heard of.)
 */
export function madeBy(plan: Plan, runs: readonly RunRecord[]): string {
  const made = Date.parse(plan.createdAt);
  let found: RunRecord | undefined;
  for (const run of runs) {
    if (run.threadId !== plan.threadId || run.parentRunId !== undefined || Date.parse(run.createdAt) > made)
      continue;
    if (!found || Date.parse(run.createdAt) >= Date.parse(found.createdAt)) found = run;
  }
  return found?.id ?? plan.runId;
}

const ENDED_AS: Partial<Record<PlanStepStatus, string>> = {
  failed: 'failed',
  skipped: 'was skipped',
  cancelled: 'was cancelled',
};

/** Why a skipped step did not run, when a step it waits for did not happen: "It waits for “Rename…”, which failed." */
export function skipReason(plan: Plan, step: PlanStep): string | null {
  if (step.status !== 'skipped') return null;
  for (const id of step.dependsOn) {
    const before = plan.steps.find((other) => other.id === id);
    const endedAs = before && ENDED_AS[before.status];
    if (before && endedAs) return `It waits for “${before.title}”, which ${endedAs}.`;
  }
  return null;
}
