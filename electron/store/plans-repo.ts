import type { Plan, PlanStatus, PlanStep, PlanStepKind, PlanStepStatus } from '../../shared/contract';
import { redactedJson } from '../vault/redactor';
import type { Db } from './database';
import { asRecord, parseStoredJson } from './json';

/** What the person approved of a step with the plan: its tool and the values of the fields it fixes. */
export interface ApprovedScope {
  tool: string;
  fixed: Record<string, unknown>;
}

/** A step as stored: the contract's step, and the scope of the plan approval that covers it (if any). */
export type StoredStep = Omit<PlanStep, 'isApproved' | 'actionIds'> & { approved: ApprovedScope | null };
export type StoredPlan = Omit<Plan, 'steps'> & { steps: StoredStep[] };

interface PlanRow {
  id: string;
  run_id: string;
  thread_id: string;
  goal: string;
  status: PlanStatus;
  current_step: number;
  requires_approval: number;
  approved_at: string | null;
  created_at: string;
  updated_at: string;
}

interface StepRow {
  step_id: string;
  title: string;
  kind: PlanStepKind;
  tool: string | null;
  args: string;
  fixed: string;
  depends_on: string;
  status: PlanStepStatus;
  needs_approval: number;
  approval_reason: string | null;
  approved: string | null;
  question: string | null;
  answer: string | null;
  result: string | null;
  attempts: number;
  max_attempts: number;
}

const strings = (json: string): string[] => {
  const value = parseStoredJson(json);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
};

const toStep = (row: StepRow): StoredStep => ({
  id: row.step_id,
  title: row.title,
  kind: row.kind,
  tool: row.tool,
  args: asRecord(parseStoredJson(row.args)),
  fixed: strings(row.fixed),
  dependsOn: strings(row.depends_on),
  status: row.status,
  needsApproval: row.needs_approval === 1,
  approvalReason: row.approval_reason,
  approved: row.approved === null ? null : (parseStoredJson(row.approved) as ApprovedScope),
  question: row.question,
  answer: row.answer,
  result: row.result,
  attempts: row.attempts,
  maxAttempts: row.max_attempts,
});

/** A call of a run tied to the step it carries out. */
export interface StepCall {
  runId: string;
  callId: string;
  stepId: string;
}

/** How many plan-less runs are remembered before the memory starts over. */
const RUNS_REMEMBERED = 1_000;

/** Plans, their steps and the calls tied to them. A plan is saved whole: it has a handful of steps. */
export class PlansRepo {
  private readonly upsertPlan;
  private readonly deleteSteps;
  private readonly insertStep;
  private readonly selectPlan;
  private readonly selectSteps;
  private readonly selectByRun;
  private readonly insertCall;
  private readonly selectCalls;
  private readonly attachStmt;
  private readonly selectStepOfAction;
  private readonly selectByThread;
  /**
   * Runs known to have no plan: most runs never propose one, and the loop asks after every call. A run gets a
   * plan only through save() or attach() here (the process that drives a run is the only one to plan for it).
   */
  private readonly runsWithoutPlan = new Set<string>();

  constructor(db: Db) {
    this.upsertPlan = db.prepare(
      `INSERT INTO plans (id, run_id, thread_id, goal, status, current_step, requires_approval, approved_at,
         created_at, updated_at)
       VALUES (@id, @runId, @threadId, @goal, @status, @currentStep, @requiresApproval, @approvedAt,
         @createdAt, @updatedAt)
       ON CONFLICT (id) DO UPDATE SET run_id = @runId, goal = @goal, status = @status,
         current_step = @currentStep, requires_approval = @requiresApproval, approved_at = @approvedAt,
         updated_at = @updatedAt`,
    );
    // Ties go with their steps (ON DELETE CASCADE): saving replaces only the steps, then puts the ties back.
    this.deleteSteps = db.prepare('DELETE FROM plan_steps WHERE plan_id = ?');
    this.insertStep = db.prepare(
      `INSERT INTO plan_steps (plan_id, step_id, position, title, kind, tool, args, fixed, depends_on, status,
         needs_approval, approval_reason, approved, question, answer, result, attempts, max_attempts)
       VALUES (@planId, @id, @position, @title, @kind, @tool, @args, @fixed, @dependsOn, @status,
         @needsApproval, @approvalReason, @approved, @question, @answer, @result, @attempts, @maxAttempts)`,
    );
    this.selectPlan = db.prepare<[string], PlanRow>('SELECT * FROM plans WHERE id = ?');
    this.selectSteps = db.prepare<[string], StepRow>(
      'SELECT * FROM plan_steps WHERE plan_id = ? ORDER BY position',
    );
    this.selectByRun = db
      .prepare<[string], string>('SELECT id FROM plans WHERE run_id = ? ORDER BY created_at DESC LIMIT 1')
      .pluck();
    this.insertCall = db.prepare(
      `INSERT OR IGNORE INTO plan_step_calls (run_id, call_id, plan_id, step_id)
       VALUES (@runId, @callId, @planId, @stepId)`,
    );
    this.selectStepOfAction = db.prepare<[string], { plan_id: string; step_id: string }>(
      `SELECT c.plan_id, c.step_id FROM actions a
       JOIN plan_step_calls c ON c.run_id = a.run_id AND c.call_id = a.call_id WHERE a.id = ?`,
    );
    this.selectByThread = db
      .prepare<[string], string>('SELECT id FROM plans WHERE thread_id = ? ORDER BY created_at')
      .pluck();
    this.attachStmt = db.prepare('UPDATE plans SET run_id = ?, updated_at = ? WHERE id = ?');
    this.selectCalls = db.prepare<[string], { run_id: string; call_id: string; step_id: string }>(
      'SELECT run_id, call_id, step_id FROM plan_step_calls WHERE plan_id = ? ORDER BY rowid',
    );
  }

  get(id: string): StoredPlan | null {
    const row = this.selectPlan.get(id);
    if (!row) return null;
    return {
      id: row.id,
      runId: row.run_id,
      threadId: row.thread_id,
      goal: row.goal,
      status: row.status,
      currentStep: row.current_step,
      requiresApproval: row.requires_approval === 1,
      approvedAt: row.approved_at,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      steps: this.selectSteps.all(id).map(toStep),
    };
  }

  /** The plan a run works on (the latest, if it proposed more than one). */
  ofRun(runId: string): StoredPlan | null {
    if (this.runsWithoutPlan.has(runId)) return null;
    const id = this.selectByRun.get(runId);
    if (id) return this.get(id);
    if (this.runsWithoutPlan.size >= RUNS_REMEMBERED) this.runsWithoutPlan.clear();
    this.runsWithoutPlan.add(runId);
    return null;
  }

  byThread(threadId: string): StoredPlan[] {
    return this.selectByThread.all(threadId).flatMap((id) => this.get(id) ?? []);
  }

  /** Saves the plan and its steps (call inside the transaction of the change that moved it). */
  save(plan: StoredPlan): void {
    if (plan.runId !== null) this.runsWithoutPlan.delete(plan.runId);
    const calls = this.calls(plan.id);
    this.upsertPlan.run({
      ...plan,
      requiresApproval: plan.requiresApproval ? 1 : 0,
    });
    this.deleteSteps.run(plan.id);
    plan.steps.forEach((step, position) =>
      this.insertStep.run({
        planId: plan.id,
        id: step.id,
        position,
        title: step.title,
        kind: step.kind,
        tool: step.tool,
        args: redactedJson(step.args),
        fixed: JSON.stringify(step.fixed),
        dependsOn: JSON.stringify(step.dependsOn),
        status: step.status,
        needsApproval: step.needsApproval ? 1 : 0,
        approvalReason: step.approvalReason,
        approved: step.approved === null ? null : redactedJson(step.approved),
        question: step.question,
        answer: step.answer,
        result: step.result,
        attempts: step.attempts,
        maxAttempts: step.maxAttempts,
      }),
    );
    const ids = new Set(plan.steps.map((step) => step.id));
    for (const call of calls) if (ids.has(call.stepId)) this.tie(plan.id, call);
  }

  /** The plan goes on in another run of its thread (after the person answered one of its questions). */
  attach(planId: string, runId: string, now: string): void {
    this.runsWithoutPlan.delete(runId);
    this.attachStmt.run(runId, now, planId);
  }

  /** The plan step a ledger action carried out, if any. */
  stepOfAction(actionId: string): { planId: string; stepId: string } | null {
    const row = this.selectStepOfAction.get(actionId);
    return row ? { planId: row.plan_id, stepId: row.step_id } : null;
  }

  /** Ties a call to a step; a call is tied once (the first tie stands). */
  tie(planId: string, call: StepCall): void {
    this.insertCall.run({ ...call, planId });
  }

  calls(planId: string): StepCall[] {
    return this.selectCalls
      .all(planId)
      .map((row) => ({ runId: row.run_id, callId: row.call_id, stepId: row.step_id }));
  }
}
