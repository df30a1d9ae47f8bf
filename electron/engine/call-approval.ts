import { isoTime } from '../../shared/iso-time';
import { turnedDownOnResume } from '../../shared/rejection-words';
import type { Reach } from '../policy/types';
import type { StoredApproval } from '../store/approvals-repo';
import type { ArgsCheck } from '../tools/registry';
import type { LedgerEntry } from '../store/action-rows';
import { fingerprint } from './fingerprint';
import type { CallScope } from './call-context';
import { executeAction, hold, settle } from './call-execution';
import type { CallOutcome } from './call-processor';
import { previewOf, previewText } from './call-preview';
import type { CheckedCall } from './run-deps';
import type { CallPart } from './run-state';

/*
 * A call and the person's say over it: asking (the approval, on disk before they can act on it), running what
 * they approved exactly as approved, and refusing what they did not, or what a pause stopped.
 */

/** An approved call runs (with the approved arguments); a pending one stays held; a refused one is answered. */
export async function continueApproval(
  scope: CallScope,
  call: CallPart,
  entry: LedgerEntry,
): Promise<CallOutcome> {
  const { deps } = scope;
  const approval = deps.store.approvals.get(entry.id);
  if (approval?.status === 'pending') {
    deps.store.transaction(() => hold(scope, call, entry.id, approval.id));
    return { kind: 'held', approval };
  }
  if (approval && approval.status !== 'approved') {
    // Turned down while Deputy was stopped: the model is told what the live run would have told it, reason and all.
    const { code, message } =
      approval.status === 'expired'
        ? { code: 'rejected_by_user', message: 'The approval expired; nothing was done.' }
        : turnedDownOnResume(approval.decisionNote, approval.decidedBy === 'person');
    rejectAction(scope, entry.id, entry.tool, message, () =>
      settle(scope, call, { error: { code, message } }, null),
    );
    return { kind: 'settled' };
  }
  if (!approval && entry.ledgerState !== 'approved') {
    // Held for approval, but Deputy stopped before the approval was written: ask, never assume a yes.
    const check = deps.registry.check(entry.tool, call.args);
    if (check.ok) {
      const asked = requestApproval(scope, call, entry.id, check, {
        level: 'confirm',
        reason: 'Deputy stopped before it could ask you about this. Approve to do it, or reject to leave it.',
        rule: 'resume.approval_missing',
      });
      return { kind: 'held', approval: asked };
    }
    rejectAction(scope, entry.id, entry.tool, check.message, () =>
      settle(scope, call, { error: { code: check.code, message: check.message } }, null),
    );
    return { kind: 'settled' };
  }
  if (deps.areSideEffectsPaused?.()) {
    refusePausedApproval(scope, call, entry.id, entry.tool);
    return { kind: 'settled' };
  }
  await runApproved(
    scope,
    call,
    entry.id,
    entry.tool,
    approval?.args ?? call.args,
    approval?.fingerprint ?? null,
  );
  return { kind: 'settled' };
}

/**
 * A call approved before side effects were paused, reached after the pause (it waited behind the turn's other
 * calls, or behind the run's other work): it is not done, and the model is told why. The same answer whether
 * the run went on by itself or from the person's decision, so a pause never lets an earlier yes through later.
 */
export function refusePausedApproval(scope: CallScope, call: CallPart, actionId: string, tool: string): void {
  const message =
    'All side effects were paused before this approved call ran, so it was not done. After Resume, ask for it again.';
  rejectAction(scope, actionId, tool, message, () =>
    settle(scope, call, { error: { code: 'side_effects_paused', message } }, null),
  );
}

/**
 * Runs a call whose approval was given: the arguments must still pass the tool's schema and, when an approval
 * bound them, match its fingerprint exactly. Anything else is refused and told to the model, never run.
 */
export async function runApproved(
  scope: CallScope,
  call: CallPart,
  actionId: string,
  toolName: string,
  args: Record<string, unknown>,
  boundFingerprint: string | null,
): Promise<void> {
  const { deps } = scope;
  const check = deps.registry.check(toolName, args);
  const gone = check.ok ? null : goneWhileWaiting(check);
  if (gone) {
    // The account was disconnected, or the tool removed (its MCP server removed or turned off), while the approval
    // waited: say so rather than run or blame the arguments.
    rejectAction(scope, actionId, toolName, gone.message, () => settle(scope, call, { error: gone }, null));
    return;
  }
  if (!check.ok || (boundFingerprint !== null && fingerprint(toolName, check.args) !== boundFingerprint)) {
    const message = 'The approved arguments no longer match what was approved; nothing was run.';
    rejectAction(scope, actionId, toolName, message, () =>
      settle(scope, call, { error: { code: 'approval_mismatch', message } }, null),
    );
    return;
  }
  await executeAction(scope, actionId, call, check, { notify: null, reach: null, isConfirmed: true });
}

type Refused = Extract<ArgsCheck, { ok: false }>;

/** An approved call whose tool is no longer there to run: its account disconnected, or the tool removed. */
function goneWhileWaiting(check: Refused): Pick<Refused, 'code' | 'message'> | null {
  if (check.code === 'not_connected') return { code: check.code, message: check.message };
  if (check.code !== 'unknown_tool') return null;
  return {
    code: check.code,
    message:
      'The tool was removed while the approval waited (its MCP server was removed or turned off, or its agent deleted), so nothing was run.',
  };
}

/** Records a refusal with its event; `inside` runs in the same transaction (to settle the call). */
export function rejectAction(
  scope: CallScope,
  actionId: string,
  tool: string,
  reason: string,
  inside: () => void = () => {},
): void {
  const { deps, spec } = scope;
  deps.store.transaction(() => {
    const now = isoTime(deps.now());
    deps.store.actions.finish(actionId, { state: 'rejected', error: reason }, now);
    deps.store.audit.settle(actionId, { status: 'failed', errorMessage: reason }, now);
    deps.emit({
      type: 'tool_result',
      runId: spec.runId,
      threadId: spec.threadId,
      actionId,
      tool,
      state: 'rejected',
      error: reason,
    });
    inside();
  });
}

export interface ApprovalRequest {
  level: StoredApproval['level'];
  reason: string;
  rule: string;
  origins?: string[];
}

/** Creates the approval and holds the call for it, in one transaction with the checkpoint. */
export function requestApproval(
  scope: CallScope,
  call: CallPart,
  actionId: string,
  check: CheckedCall,
  request: ApprovalRequest,
  reach?: Reach,
): StoredApproval {
  const { deps, spec } = scope;
  const now = deps.now();
  const described = previewOf(check.tool, check.input, reach);
  const preview =
    request.origins && request.origins.length > 0 ? { ...described, origins: request.origins } : described;
  // An action asked about before (approved, then Deputy stopped mid-effect) is asked about again, same card.
  const earlier = deps.store.approvals.get(actionId);
  const approval: StoredApproval = {
    id: earlier?.id ?? deps.newId(),
    runId: spec.runId,
    threadId: spec.threadId,
    actionId,
    tool: check.tool.name,
    args: check.args,
    fingerprint: fingerprint(check.tool.name, check.args),
    status: 'pending',
    level: request.level,
    reason: spec.lineage?.length ? askedBy(spec.lineage, described.title, request.reason) : request.reason,
    rule: request.rule,
    risk: check.tool.risk,
    preview,
    previewText: previewText(preview),
    intent: check.meta.intent ?? null,
    reasoning: check.meta.reasoning ?? null,
    confidence: check.meta.confidence ?? null,
    assumptions: check.meta.assumptions ?? [],
    alwaysAllowScopes: check.tool.alwaysAllowScopes?.(check.input) ?? [],
    createdAt: isoTime(now),
    expiresAt: new Date(now.getTime() + deps.approvalLifetimeMs()).toISOString(),
    decidedAt: null,
    decisionNote: null,
  };
  deps.store.transaction(() => {
    if (!earlier) deps.store.approvals.create(approval);
    else if (!deps.store.approvals.reopen(approval))
      throw new Error(`approval ${approval.id} is still pending`);
    deps.emit({
      type: 'approval_needed',
      runId: spec.runId,
      threadId: spec.threadId,
      approval: { ...approval, argsSchema: deps.registry.argsSchema(approval.tool) },
    });
    hold(scope, call, actionId, approval.id);
  });
  // The person is told about the approval: it is on disk before they can act on it.
  deps.store.writes.boundary();
  deps.onApprovalsChanged(null);
  return approval;
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * An agent's request names who asks, from the top ("researcher → reviewer wants to …"), then why it waits. That
 * line already names the agent: a reason that opens with its name ("Room booker’s step “Wait for your approval” asks you
 * before it acts.") says "Its" instead, so the card names the agent once.
 */
export function askedBy(lineage: readonly string[], title: string, reason: string): string {
  const own = `${lineage.at(-1)}’s `;
  const why = reason.startsWith(own) ? `Its ${reason.slice(own.length)}` : reason;
  return `${lineage.join(' → ')} wants to ${lowerFirst(title)}. ${why}`;
}
