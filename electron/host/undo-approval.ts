import {
  DeputyError,
  type ApprovalPreview,
  type AuditUndoOutput,
  type RunResponse,
} from '../../shared/contract';
import { targetWords } from '../../shared/target-words';
import { previewText } from '../engine/call-preview';
import { fingerprint } from '../engine/fingerprint';
import type { StoredApproval } from '../store/approvals-repo';
import { actionWords, changedSinceMessage, forcedUndoWords } from './undo-conflict';
import { planUndo, readState, type UndoDeps, type UndoPlan, type UndoState } from './undo-plan';
import { commitUndo, failUndo, runUndo, tellConversation } from './undo-run';

export interface UndoHold {
  actionId: string;
  reason: string;
  level: 'confirm' | 'review';
  rule: string;
  /** What changed since the action, when the undo is forced over it. */
  changes: readonly string[];
}

/**
 * Holds an undo for the person's approval: its ledger row and entry (written by `write`) and the approval land
 * in one transaction, and the approval is published like any other (list, card, notification, expiry).
 */
export function holdUndo(
  deps: UndoDeps,
  plan: UndoPlan,
  hold: UndoHold,
  write: () => string,
): AuditUndoOutput {
  const { store } = deps;
  const now = deps.now();
  const preview = undoPreview(plan, hold.changes, deps.settings().timezone);
  const args = store.actions.get(hold.actionId)?.args ?? { undoOf: plan.original.id };
  // One undo row has one approval: asked again after a refusal or an expiry, the same approval is reopened.
  const earlier = store.approvals.get(hold.actionId);
  const build = (ledgerArgs: Record<string, unknown>): StoredApproval => ({
    id: earlier?.id ?? deps.newId(),
    runId: plan.runId,
    threadId: plan.threadId,
    actionId: hold.actionId,
    tool: plan.tool.name,
    args: ledgerArgs,
    fingerprint: fingerprint(`undo:${plan.tool.name}`, ledgerArgs),
    status: 'pending',
    level: hold.level,
    reason: hold.reason,
    rule: hold.rule,
    risk: plan.tool.risk,
    preview,
    previewText: previewText(preview),
    intent: `Undo: ${actionWords(plan.original)}`,
    reasoning: null,
    confidence: null,
    assumptions: [],
    alwaysAllowScopes: [],
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + deps.approvalLifetimeMs()).toISOString(),
    decidedAt: null,
    decisionNote: null,
  });
  let approval = build(args);
  const entryId = store.transaction(() => {
    const id = write();
    approval = build(store.actions.get(hold.actionId)?.args ?? args);
    if (!earlier) store.approvals.create(approval);
    else if (!store.approvals.reopen(approval))
      throw new DeputyError('conflict', 'This undo is already waiting.');
    return id;
  });
  // An undo has nothing to edit: no schema, so no editor is offered.
  deps.publishApproval({ ...approval, argsSchema: {} });
  const message =
    hold.changes.length > 0
      ? `This undo waits for your approval: ${forcedUndoWords(plan.original.entityType, hold.changes)}`
      : waitingWords(hold.reason);
  // The action's conversation may be open (here or in another window) while the undo was asked for elsewhere.
  tellConversation(deps, plan.original, { message, isUndoWaiting: true });
  return {
    status: 'approval_required',
    message,
    undo: store.auditQuery.get(entryId),
    original: plan.original,
    approvalId: approval.id,
  };
}

/** Asked again while the undo already waits: the same approval, not a second one. */
export function waitingUndo(deps: UndoDeps, plan: UndoPlan, actionId: string): AuditUndoOutput {
  const approval = deps.store.approvals.get(actionId);
  const entryId = deps.store.undoLedger.attemptOf(actionId);
  return {
    status: 'approval_required',
    message: waitingWords(approval?.reason ?? null),
    undo: entryId ? deps.store.auditQuery.get(entryId) : null,
    original: plan.original,
    approvalId: approval?.id ?? null,
  };
}

/** The undo behind an approval: its plan and ids, found from the approval's ledger row. */
function heldUndo(deps: UndoDeps, approval: StoredApproval) {
  const entryId = deps.store.undoLedger.attemptOf(approval.actionId);
  const undoOf = entryId ? deps.store.auditQuery.get(entryId)?.undo.undoOf : null;
  const original = undoOf ? deps.store.auditQuery.get(undoOf) : null;
  if (!entryId || !original) throw new DeputyError('conflict', 'The undo behind this approval is gone.');
  return { ids: { actionId: approval.actionId, entryId }, original };
}

/**
 * The person approved an undo (the approval is already claimed): it runs now. One that was not forced is
 * checked again first, since the thing may have changed while it waited.
 */
export async function approveUndo(deps: UndoDeps, approval: StoredApproval): Promise<RunResponse> {
  const { store } = deps;
  const { ids, original } = heldUndo(deps, approval);
  let plan: UndoPlan;
  let state: UndoState;
  try {
    plan = planUndo(deps, original);
    state = await readState(deps, plan, ids.actionId);
    if (approval.args.force !== true && state.changes.length > 0 && !state.isAlreadyUndone)
      throw new DeputyError('changed_since', changedSinceMessage(original.entityType, state.changes));
  } catch (error) {
    failUndo(deps, ids, original, error instanceof Error ? error.message : 'It can no longer be undone.');
    throw error;
  }
  store.transaction(() => {
    const now = deps.now().toISOString();
    store.actions.transition(ids.actionId, ['awaiting_confirmation'], 'approved', now);
    store.audit.change(ids.entryId, `approved_by = 'person', approved_at = @now`, {}, now);
  });
  // Changed back while it waited: nothing is done, and the record says so.
  const done = state.isAlreadyUndone
    ? commitUndo(deps, plan, ids, { wasAlreadyUndone: true }, 0)
    : await runUndo(deps, plan, ids);
  return undoAnswer(approval, done.message);
}

/** The person turned the undo down, or its approval expired: nothing is undone, and the entry says why. */
export function endHeldUndo(deps: UndoDeps, approval: StoredApproval, message: string): RunResponse {
  const { ids, original } = heldUndo(deps, approval);
  failUndo(deps, ids, original, message, { state: 'rejected' });
  return undoAnswer(approval, message);
}

/** What deciding an undo's approval answers: the decision landed, and what came of it. */
function undoAnswer(approval: StoredApproval, summary: string): RunResponse {
  return {
    ok: true,
    runId: approval.runId,
    threadId: approval.threadId,
    actionId: approval.actionId,
    status: 'completed',
    summary,
    mode: 'tool_call',
    model: '',
    tool: approval.tool,
  };
}

function undoPreview(plan: UndoPlan, changes: readonly string[], timeZone: string): ApprovalPreview {
  const { original } = plan;
  const field = (label: string, value: string | null) => (value ? [{ label, value }] : []);
  const doneAt = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' });
  return {
    title: `Undo: ${actionWords(original)}`,
    fields: [
      ...field('Where', original.target && targetWords(original.target)),
      { label: 'Done at', value: `${doneAt.format(new Date(original.createdAt))} (${timeZone})` },
      ...field('Changed since', changes.length > 0 ? changes.join(', ') : null),
    ],
    body:
      changes.length > 0
        ? 'It changed after Deputy did this. Undoing puts it back as it was before, and that later change is lost.'
        : 'Undoing puts it back as it was before Deputy did this.',
  };
}

/** "This undo waits for your approval. Supervised: every action waits for your approval." */
const waitingWords = (reason: string | null): string =>
  reason ? `This undo waits for your approval. ${reason}` : 'This undo waits for your approval.';
