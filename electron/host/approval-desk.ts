import {
  type Approval,
  type ApprovalDecider,
  type ApprovalDecideInput,
  type ApprovalEditInput,
  DeputyError,
  notFound,
  type RunResponse,
} from '../../shared/contract';
import { asSentence, rejectionForModel } from '../../shared/rejection-words';
import { RESUME_RULE } from '../engine/reconcile';
import { fingerprint } from '../engine/fingerprint';
import type { RunFailure } from '../engine/model-failure';
import type { ModelMessage } from '../llm/model-client';
import type { StoredApproval } from '../store/approvals-repo';
import { redactNullable } from '../vault/redactor';
import { answeredHistory } from './paused-runs';
import { continuePausedRun } from './paused-run-continue';
import { ENDED_BY_DEPUTY, expiredFailure } from '../engine/settled-by-deputy';
import { endPausedRun } from './paused-run-end';
import type { ApprovalDeskDeps } from './approval-desk-deps';

/** Why Deputy turned an approval down itself: `note` for the person (the approval's history), the rest for the model. */
export interface Refusal {
  code: string;
  note: string;
  message: string;
}

/** Everything that can happen to a pending approval: approve, reject, edit and approve, expire, be superseded. */
export class ApprovalDesk {
  constructor(private readonly deps: ApprovalDeskDeps) {}

  /** `canEdit`: false where the arguments can no longer be changed, which then go without the tool's schema. */
  view(approval: StoredApproval, canEdit = true): Approval {
    // An undo has nothing to edit: no schema, so no editor is offered.
    const isUndo = this.deps.undos.isUndo(approval);
    const step = this.deps.store.plans.stepOfAction(approval.actionId);
    const argsSchema = canEdit && !isUndo ? this.deps.registry.argsSchema(approval.tool) : {};
    return { ...approval, argsSchema, ...step };
  }

  list(status: 'pending' | 'all' = 'pending', limit = 200): Approval[] {
    this.expireDue();
    return status === 'pending'
      ? this.pending(limit)
      : this.deps.store.approvals.all(limit).map((a) => this.view(a));
  }

  /**
   * Every approval a conversation's calls asked for, decided or not (its cards show how each went). A decided one
   * has nothing left to edit, so it goes without the tool's schema: built for each, that cost about 0.1 ms and a
   * kilobyte a card on every reading of a long conversation.
   */
  inThread(threadId: string): Approval[] {
    return this.deps.store.approvals.inThread(threadId).map((a) => this.view(a, a.status === 'pending'));
  }

  /** What is pending in the store right now, without sweeping expiries (the sweep itself publishes this). */
  pending(limit = 200): Approval[] {
    return this.deps.store.approvals.pending(limit).map((a) => this.view(a));
  }

  get(id: string): Approval {
    return this.view(this.require(id));
  }

  /** `by`: Deputy, when it turns a call down for the person (`rejectWaitingIn`); the model is told the same. */
  async decide(input: ApprovalDecideInput, by: ApprovalDecider = 'person'): Promise<RunResponse> {
    const approval = this.decidable(input.approvalId);
    if (this.deps.undos.isUndo(approval)) return this.decideUndo(approval, input);
    if (input.decision === 'reject') {
      // The reason as it is stored, redacted on its own: what a run resumed after a crash reads back, and inside
      // the model's sentence a secret in it could go unseen.
      const note = redactNullable(input.reason?.trim() || null);
      this.claim(approval, 'rejected', note, by);
      return continuePausedRun(this.deps, approval, { kind: 'reject', message: rejectionForModel(note) });
    }
    const scope = input.alwaysAllow;
    // "Always allow" may only create one of the scoped rules this approval offered: never a blanket grant.
    if (
      scope &&
      !approval.alwaysAllowScopes.some((s) => s.field === scope.field && s.pattern === scope.pattern)
    ) {
      throw new DeputyError('invalid_input', 'That "always allow" scope is not one this approval offers.');
    }
    this.refuseIfPaused();
    this.claim(approval, 'approved', null, 'person');
    if (scope) {
      this.deps.settings.addRule({
        id: this.deps.newId(),
        tool: approval.tool,
        field: scope.field,
        pattern: scope.pattern,
        effect: 'allow',
        expiresAt: null,
        createdAt: this.deps.now().toISOString(),
      });
    }
    return continuePausedRun(this.deps, approval, { kind: 'approve' });
  }

  /** Edit and approve: the new arguments must fit the tool's schema, and are bound to the approval by a new fingerprint. */
  async edit(input: ApprovalEditInput): Promise<RunResponse> {
    const approval = this.decidable(input.approvalId);
    if (this.deps.undos.isUndo(approval))
      throw new DeputyError('invalid_input', 'An undo cannot be edited: approve it or reject it.');
    if (approval.rule === RESUME_RULE) {
      // Its key must stay the one the first attempt carried, so it can still be found: no other arguments.
      throw new DeputyError(
        'invalid_input',
        'This action may already have happened, so it can only be approved as it was or rejected. Reject it and ask Deputy for the changed version.',
      );
    }
    this.refuseIfPaused();
    const check = this.deps.registry.check(approval.tool, input.args);
    if (!check.ok) throw new DeputyError('invalid_input', check.message);
    const print = fingerprint(approval.tool, check.args);
    const { store } = this.deps;
    const now = this.deps.now().toISOString();
    store.transaction(() => {
      if (!store.approvals.replaceArgs(approval.id, check.args, print))
        throw this.alreadyDecided(approval.id);
      store.actions.replaceArgs(approval.actionId, check.args, print, now);
    });
    const edited = { ...approval, args: check.args, fingerprint: print };
    this.claim(edited, 'approved', 'edited', 'person');
    return continuePausedRun(this.deps, edited, { kind: 'approve' });
  }

  /** While all side effects are paused, nothing may be approved: a 409 in words, and what waits stays waiting. */
  refuseIfPaused(): void {
    if (!this.deps.settings.get().areSideEffectsPaused) return;
    throw new DeputyError(
      'conflict',
      'All side effects are paused, so this cannot be approved now. It stays here: press Resume, then approve it.',
    );
  }

  /** Ends every run whose approval has passed its expiry; called on a timer and before each read. */
  expireDue(): number {
    const expired = this.deps.store.approvals.expiredBy(this.deps.now().toISOString());
    for (const approval of expired) {
      // In a group of its own, so it is on disk before anyone is told, even while a run's step is open.
      const { store } = this.deps;
      if (!store.transaction(() => this.settleItself(approval, 'expired', null))) continue;
      const at = new Date(approval.expiresAt).toISOString();
      if (this.deps.undos.isUndo(approval)) {
        this.deps.undos.end(approval, `The approval expired at ${at}, so nothing was undone.`);
        this.deps.publish(this.view({ ...approval, status: 'expired' }));
        continue;
      }
      endPausedRun((stored) => this.view(stored), this.deps, approval, expiredFailure(approval));
    }
    return expired.length;
  }

  /** Rejects, with `reason`, whatever waits in a thread (an MCP client's call whose client went away). */
  rejectWaitingIn(threadId: string, reason: string): void {
    for (const approval of this.deps.store.approvals.pendingInThread(threadId))
      void this.decide({ approvalId: approval.id, decision: 'reject', reason }, 'deputy').catch(
        (error: unknown) => this.deps.runDeps().logError('could not reject an abandoned call', error),
      );
  }

  /**
   * Turns down at once what waits for a tool that is gone (an MCP server removed or turned off: its tools' names
   * start with `toolPrefix`), and each run goes on, told why. Left waiting, they could only fail once approved.
   */
  turnDownWaitingFor(toolPrefix: string, refusal: Refusal): void {
    for (const approval of this.deps.store.approvals.pendingForToolsStartingWith(toolPrefix)) {
      try {
        this.claim(approval, 'rejected', refusal.note, 'deputy');
        if (this.deps.undos.isUndo(approval)) {
          this.deps.undos.end(approval, `${refusal.note} Nothing was undone.`);
          continue;
        }
        void continuePausedRun(this.deps, approval, {
          kind: 'reject',
          message: refusal.message,
          code: refusal.code,
        }).catch((error: unknown) =>
          this.deps.runDeps().logError('could not go on after turning down a call', error),
        );
      } catch (error) {
        this.deps.runDeps().logError('could not turn down a call whose tool is gone', error);
      }
    }
  }

  /**
   * A new message in a thread rejects what is still waiting there. Returns what the model had seen, with each
   * waiting call answered by a tool result saying so, for the new run to continue from.
   */
  supersede(threadId: string): ModelMessage[] | null {
    const waiting = this.deps.store.approvals.pendingInThread(threadId);
    let history: ModelMessage[] | null = null;
    for (const approval of waiting) {
      const { note, message } = ENDED_BY_DEPUTY.superseded;
      if (!this.settleItself(approval, 'rejected', note)) continue;
      const state = endPausedRun((stored) => this.view(stored), this.deps, approval, {
        code: 'cancelled',
        message,
      });
      if (state)
        history = answeredHistory(
          state,
          'The user sent a new message instead of approving this call; it was not run.',
        );
    }
    return history;
  }

  private decideUndo(
    approval: StoredApproval,
    input: ApprovalDecideInput,
  ): Promise<RunResponse> | RunResponse {
    if (input.decision === 'reject') {
      const note = input.reason?.trim() || null;
      this.claim(approval, 'rejected', note, 'person');
      return this.deps.undos.end(
        approval,
        // The person's note after the sentence: said inside it, its own full stop would end it early.
        `You turned this undo down; nothing was undone.${note ? ` Your reason: ${asSentence(note)}` : ''}`,
      );
    }
    if (input.alwaysAllow)
      throw new DeputyError(
        'invalid_input',
        'An undo offers no "always allow": approve it once or reject it.',
      );
    this.refuseIfPaused();
    this.claim(approval, 'approved', null, 'person');
    return this.deps.undos.approve(approval);
  }

  /** Ends, after a restart, a run Deputy had begun to end before it stopped (`endingFor` says how). */
  finishEnding(approval: StoredApproval, failure: RunFailure): void {
    endPausedRun((stored) => this.view(stored), this.deps, approval, failure);
  }

  /** Ends a run paused for approval whose plan was cancelled: what waited there is rejected, never run. */
  endPaused(runId: string, threadId: string, message: string): void {
    for (const approval of this.deps.store.approvals.pendingInThread(threadId)) {
      if (approval.runId !== runId) continue;
      if (!this.settleItself(approval, 'rejected', message)) continue;
      endPausedRun((stored) => this.view(stored), this.deps, approval, { code: 'cancelled', message });
    }
  }

  /** Deputy settles a pending approval itself (it expired, the person wrote again…); false when already settled. */
  private settleItself(
    approval: StoredApproval,
    status: 'expired' | 'rejected',
    note: string | null,
  ): boolean {
    return this.deps.store.approvals.claim(
      approval.id,
      status,
      this.deps.now().toISOString(),
      note,
      'deputy',
    );
  }

  private require(id: string): StoredApproval {
    const approval = this.deps.store.approvals.get(id);
    if (!approval) throw notFound('approval', id);
    return approval;
  }

  private decidable(id: string): StoredApproval {
    this.expireDue();
    const approval = this.require(id);
    if (approval.status === 'expired') {
      throw new DeputyError(
        'approval_expired',
        'This approval has expired; nothing was done. Ask Deputy again.',
      );
    }
    if (approval.status !== 'pending') throw this.alreadyDecided(approval.id, approval.status);
    return approval;
  }

  private alreadyDecided(id: string, status?: string): DeputyError {
    const current = status ?? this.deps.store.approvals.get(id)?.status ?? 'decided';
    return new DeputyError(
      'approval_decided',
      `This approval was already ${current}; it can be decided only once.`,
    );
  }

  private claim(
    approval: StoredApproval,
    status: 'approved' | 'rejected',
    note: string | null,
    by: ApprovalDecider,
  ): void {
    const now = this.deps.now().toISOString();
    const { store } = this.deps;
    store.transaction(() => {
      if (!store.approvals.claim(approval.id, status, now, note, by)) throw this.alreadyDecided(approval.id);
      // The person let it happen, now: the entry's authority, in the transaction of the decision itself.
      if (status === 'approved') store.audit.authorize(approval.actionId, 'person', now);
      store.policy.audit({
        timestamp: now,
        runId: approval.runId,
        actionId: approval.actionId,
        tool: approval.tool,
        event: 'approval_decision',
        decision: status,
        rule: approval.rule,
        reason: note,
        detail: { args: approval.args, fingerprint: approval.fingerprint },
      });
    });
    this.deps.publish(this.view({ ...approval, status, decidedAt: now, decisionNote: note, decidedBy: by }));
  }
}
