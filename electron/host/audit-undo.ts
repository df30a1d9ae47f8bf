import {
  type AuditUndoOutput,
  type CommandParsedInput,
  DeputyError,
  type LedgerState,
  notFound,
} from '../../shared/contract';
import { approverOf } from '../engine/audit-entries';
import { fingerprint } from '../engine/fingerprint';
import { decide } from '../policy/decide';
import type { PolicyDecision } from '../policy/types';
import type { NewAuditEntry } from '../store/audit-repo';
import { undoCallId } from '../store/undo-ledger';
import { policyContext } from './policy-context';
import { actionWords, changedSinceMessage } from './undo-conflict';
import { holdUndo, waitingUndo } from './undo-approval';
import { planUndo, readState, type UndoDeps, type UndoPlan } from './undo-plan';
import { commitUndo, runUndo } from './undo-run';

export type { UndoDeps } from './undo-plan';

/** Ledger states from which an undo may be asked for again: the last attempt did not happen. */
const RETRYABLE: readonly LedgerState[] = ['failed', 'rejected', 'unknown'];

/**
 * Undo is itself an action (spec 004's `Tool.undo`): a ledger action keyed by the entry it undoes, decided by
 * the policy like any side effect, audited as its own entry, and marking the original `rolled_back` when it
 * commits. It never silently overwrites a later change: the thing is read as it is now and compared with what
 * the action left, and a difference is a `changed_since` 409 naming it. `force` undoes anyway, and always waits
 * for the person's approval; so does an undo the policy holds for approval. Both are approvals like any
 * other: the same record, card, notification and expiry.
 */
export async function undoEntry(
  deps: UndoDeps,
  input: CommandParsedInput<'audit.undo'>,
): Promise<AuditUndoOutput> {
  const { store } = deps;
  const original = store.auditQuery.get(input.id);
  if (!original) throw notFound('audit entry', input.id);
  const plan = planUndo(deps, original);
  const check = deps.registry.check(plan.tool.name, plan.args);
  if (!check.ok) throw new DeputyError('conflict', `It cannot be undone now: ${check.message}`);

  const earlier = store.actions.byCall(plan.runId, undoCallId(original.id));
  if (earlier?.ledgerState === 'awaiting_confirmation') return waitingUndo(deps, plan, earlier.id);
  if (earlier?.ledgerState === 'committed')
    throw new DeputyError('conflict', 'This action was already undone.');
  if (earlier && !RETRYABLE.includes(earlier.ledgerState))
    throw new DeputyError('conflict', 'This undo is already under way.');

  const actionId = earlier?.id ?? deps.newId();
  const { changes, isAlreadyUndone } = await readState(deps, plan, actionId);
  // Changed back to how the action found it is no conflict: there is nothing left to overwrite.
  const isForced = changes.length > 0 && !isAlreadyUndone;
  if (isForced && !input.force)
    throw new DeputyError('changed_since', changedSinceMessage(original.entityType, changes));
  const decision = undoDecision(deps, plan, check.input);
  // Forced over a later change or not: the approval is bound to these arguments, and checks again unless forced.
  const args = { undoOf: original.id, ...(isForced && { force: true }) };
  const createRow = (state: LedgerState, now: string): void => {
    try {
      store.actions.create(
        {
          id: actionId,
          runId: plan.runId,
          threadId: plan.threadId,
          callId: undoCallId(original.id),
          tool: plan.tool.name,
          args,
          state,
          idempotencyKey: undoCallId(original.id),
          hasSideEffects: true,
          isExternal: plan.tool.isExternal ?? false,
          meta: { undoOf: original.id },
        },
        now,
      );
    } catch (error) {
      // A second request for the same undo got here first: one entry has one undo row (UNIQUE run, call).
      if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE')
        throw new DeputyError('conflict', 'This undo is already under way.');
      throw error;
    }
  };
  const claim = (state: LedgerState): void => {
    const now = deps.now().toISOString();
    if (earlier) {
      if (!store.actions.transition(actionId, RETRYABLE, state, now))
        throw new DeputyError('conflict', 'This undo is already under way.');
      store.actions.replaceArgs(actionId, args, fingerprint(`undo:${plan.tool.name}`, args), now);
    } else {
      createRow(state, now);
    }
    store.actions.setPolicy(
      actionId,
      { decision: decision.kind, rule: decision.rule, reason: decision.reason },
      now,
    );
  };
  const entry = (extra: Partial<NewAuditEntry>): string =>
    store.audit.open({ ...undoEntryBase(plan, actionId, decision), ...extra }, deps.now().toISOString());

  if (decision.kind === 'deny' || decision.kind === 'clarify') {
    store.transaction(() => {
      claim('rejected');
      entry({ status: 'failed', errorMessage: decision.reason });
    });
    throw new DeputyError(decision.rule.startsWith('rate:') ? 'rate_limited' : 'conflict', decision.reason);
  }
  if (isAlreadyUndone) {
    // Nothing is done, so there is nothing to approve: the record says so, and the action counts as undone.
    const entryId = store.transaction(() => {
      claim('approved');
      return entry({ status: 'pending', ...ALREADY_UNDONE, approvedAt: deps.now().toISOString() });
    });
    return commitUndo(deps, plan, { actionId, entryId }, { wasAlreadyUndone: true }, 0);
  }
  if (decision.kind === 'require_approval' || isForced) {
    const reason = isForced ? changedSinceMessage(original.entityType, changes) : decision.reason;
    const level = decision.kind === 'require_approval' ? decision.level : 'confirm';
    const rule = decision.kind === 'require_approval' ? decision.rule : 'undo:changed_since';
    return holdUndo(deps, plan, { actionId, reason, level, rule, changes }, () => {
      claim('awaiting_confirmation');
      return entry({ status: 'pending', decision: 'require_approval', rule, reason });
    });
  }
  const entryId = store.transaction(() => {
    claim('approved');
    return entry({
      status: 'pending',
      approvedBy: approverOf(decision.rule),
      approvedAt: deps.now().toISOString(),
    });
  });
  return runUndo(deps, plan, { actionId, entryId });
}

/** The authority of an undo found already done: the person asked, and nothing needed doing. */
const ALREADY_UNDONE = {
  decision: 'allow',
  rule: 'undo:already_undone',
  reason: 'It was already as it was before the action, so nothing needed doing.',
  approvedBy: 'person',
} satisfies Partial<NewAuditEntry>;

function undoEntryBase(plan: UndoPlan, actionId: string, decision: PolicyDecision): NewAuditEntry {
  const { original, tool } = plan;
  return {
    kind: 'undo',
    actionId,
    threadId: original.threadId,
    runId: original.runId,
    agentId: original.agentId,
    actionType: tool.name,
    actionCategory: 'undo',
    risk: tool.risk,
    intent: `Undo: ${actionWords(original)}`,
    target: original.target,
    input: { undoOf: original.id, args: plan.args },
    status: 'pending',
    decision: decision.kind,
    rule: decision.rule,
    reason: decision.reason,
    undoOf: original.id,
    undoNote: 'An undo is not undone; do the action again instead.',
  };
}

function undoDecision(deps: UndoDeps, plan: UndoPlan, input: unknown): PolicyDecision {
  const { tool } = plan;
  return decide(
    {
      tool: {
        name: tool.name,
        category: tool.category,
        risk: tool.risk,
        hasSideEffects: true,
        ...(tool.actionKind && { actionKind: tool.actionKind }),
        ...(tool.isExternal !== undefined && { isExternal: tool.isExternal }),
        ...(tool.recipients && { recipients: () => tool.recipients?.(input) ?? [] }),
      },
      args: plan.args,
      // The person asked for this undo themselves: there is no model confidence to weigh.
      meta: { intent: `Undo ${tool.name}`, confidence: 1 },
    },
    policyContext(deps.settings(), deps.store, deps.now()),
  );
}
