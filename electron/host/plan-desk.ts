import {
  DeputyError,
  notFound,
  type Plan,
  type PlanContinueInput,
  type RunStarted,
} from '../../shared/contract';
import { derivePlan, isFinalPlan, planView, refreshPlan, savePlan } from '../engine/plans/plan-progress';
import { isAsShown, isCovered, scopeOf } from '../engine/plans/plan-scope';
import type { RunLoopDeps } from '../engine/run-deps';
import type { StoredApproval } from '../store/approvals-repo';
import type { StoredPlan } from '../store/plans-repo';
import type { Store } from '../store/store';
import type { ApprovalDesk } from './approval-desk';
import { ENDED_BY_DEPUTY } from '../engine/settled-by-deputy';

export interface PlanDeskDeps {
  store: Store;
  now: () => Date;
  runDeps: () => RunLoopDeps;
  approvals: ApprovalDesk;
  /** Stops a run that is going; false when it was not. */
  cancelRun: (runId: string) => boolean;
  /** Starts the run that goes on with a plan after the person answered its question. */
  continueInThread: (threadId: string, answer: string, planId: string) => RunStarted;
  /** Throws `too_many` when the line of runs waiting to start is full. */
  checkRoomInLine: () => void;
  logError: (message: string, error: unknown) => void;
}

/** The plans domain: read a plan, approve it whole, continue it (with an answer), cancel it. */
export class PlanDesk {
  constructor(private readonly deps: PlanDeskDeps) {}

  get(planId: string): { plan: Plan } {
    const plan = this.require(planId);
    return { plan: planView(this.deps, plan) };
  }

  /**
   * The person approves the plan as it stands: each side-effect step is granted, for this plan only, with its
   * tool and the target fields it shows. Calls already waiting that are exactly such a step go ahead.
   */
  approve(planId: string): { plan: Plan } {
    const { store } = this.deps;
    const plan = this.open(planId);
    this.deps.approvals.refuseIfPaused();
    const now = this.deps.now().toISOString();
    const registry = this.deps.runDeps().registry;
    const approved: StoredPlan = {
      ...plan,
      approvedAt: now,
      steps: plan.steps.map((step) => {
        const tool = step.tool ? registry.get(step.tool) : undefined;
        if (!tool?.hasSideEffects || !step.tool || step.status === 'done') return step;
        return { ...step, approved: scopeOf(step.tool, step.args) };
      }),
    };
    store.transaction(() => {
      this.save(plan, derivePlan(this.deps.runDeps(), approved));
      store.policy.audit({
        timestamp: now,
        runId: plan.runId,
        actionId: plan.id,
        tool: 'plan',
        event: 'plan_approval',
        decision: 'approved',
        rule: `plan_approval:${plan.id}`,
        reason: plan.goal,
        detail: { steps: approved.steps.filter((s) => s.approved).map((s) => ({ id: s.id, ...s.approved })) },
      });
    });
    this.releaseCovered(this.require(planId));
    return this.get(planId);
  }

  /**
   * Goes on with a paused plan: with the person's answer to its question step (a new run in the thread takes
   * the plan up), or, after a plan approval, with the waiting calls that approval covers.
   */
  continue(input: PlanContinueInput): { plan: Plan } {
    const { store } = this.deps;
    const plan = this.open(input.planId);
    const asking = plan.steps.find((step) => step.status === 'awaiting_user');
    if (asking) {
      if (!input.answer)
        throw new DeputyError(
          'invalid_input',
          `This plan waits for your answer: ${asking.question ?? asking.title}`,
        );
      const answer = input.answer;
      // A full line refuses the run that takes the plan up: checked before the answer is saved, or the plan would
      // stand answered with no run to go on with it, and the question could not be answered again.
      this.deps.checkRoomInLine();
      const answered: StoredPlan = {
        ...plan,
        status: 'executing',
        steps: plan.steps.map((step) =>
          step === asking ? { ...step, status: 'done', answer, result: `You answered: ${answer}` } : step,
        ),
      };
      store.transaction(() => this.save(plan, derivePlan(this.deps.runDeps(), answered)));
      this.deps.continueInThread(plan.threadId, answer, plan.id);
      return this.get(plan.id);
    }
    this.deps.approvals.refuseIfPaused();
    if (this.releaseCovered(plan) === 0) {
      const waiting = this.waitingApprovals(plan).length > 0;
      throw new DeputyError(
        'conflict',
        waiting
          ? 'This plan waits for an approval: approve the plan or the step first.'
          : 'This plan is not waiting for anything.',
      );
    }
    return this.get(plan.id);
  }

  /**
   * Cancels what is left of the plan. A call already started finishes or is reconciled as the ledger says;
   * calls waiting for approval are rejected, never run.
   */
  cancel(planId: string): { plan: Plan } {
    const { store } = this.deps;
    const plan = this.require(planId);
    // Cancelling twice is the one cancel (a retry after a crash finishes what the first began).
    if (plan.status !== 'cancelled') {
      if (isFinalPlan(plan)) throw new DeputyError('conflict', `This plan is already ${plan.status}.`);
      store.transaction(() =>
        this.save(plan, derivePlan(this.deps.runDeps(), { ...plan, status: 'cancelled' })),
      );
    }
    const run = store.runs.get(plan.runId);
    if (!this.deps.cancelRun(plan.runId) && run?.status === 'awaiting_confirmation')
      this.deps.approvals.endPaused(plan.runId, plan.threadId, ENDED_BY_DEPUTY.planCancelled);
    refreshPlan(this.deps.runDeps(), { runId: plan.runId, threadId: plan.threadId }, plan.id);
    return this.get(planId);
  }

  private waitingApprovals(plan: StoredPlan): StoredApproval[] {
    return this.deps.store.approvals.pendingInRun(plan);
  }

  /** Approves every waiting call that is exactly a step of the approved plan; returns how many. */
  private releaseCovered(plan: StoredPlan): number {
    if (plan.approvedAt === null) return 0;
    const { store } = this.deps;
    const ties = store.plans.calls(plan.id);
    let released = 0;
    for (const approval of this.waitingApprovals(plan)) {
      const tie = ties.find((t) => store.actions.byCall(t.runId, t.callId)?.id === approval.actionId);
      const step = plan.steps.find((s) => s.id === tie?.stepId);
      if (!step?.approved || !isCovered(step.approved, approval.tool, approval.args)) continue;
      // A call content could have steered, with a value the plan showed otherwise: only the person's own yes.
      if ((approval.preview.origins ?? []).length > 0 && !isAsShown(step.args, approval.args)) continue;
      released += 1;
      const decided = this.deps.approvals.decide({ approvalId: approval.id, decision: 'approve' });
      // Who let it happen: the person, through the plan they approved (only once the approval was claimed).
      if (this.deps.store.approvals.get(approval.id)?.status === 'approved')
        // In a group of its own: a step's open unit of work must not carry it past the answer to the client.
        store.transaction(() =>
          store.audit.authorize(approval.actionId, 'plan', this.deps.now().toISOString()),
        );
      void decided.catch((error: unknown) => this.deps.logError('could not continue a plan step', error));
    }
    return released;
  }

  private save(before: StoredPlan, after: StoredPlan): void {
    savePlan(
      this.deps.runDeps(),
      { runId: before.runId, threadId: before.threadId },
      after,
      planView(this.deps, before),
    );
  }

  private require(planId: string): StoredPlan {
    const plan = this.deps.store.plans.get(planId);
    if (!plan) throw notFound('plan', planId);
    return plan;
  }

  private open(planId: string): StoredPlan {
    const plan = this.require(planId);
    if (isFinalPlan(plan)) throw new DeputyError('conflict', `This plan is already ${plan.status}.`);
    return plan;
  }
}
