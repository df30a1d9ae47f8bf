import { isoTime } from '../../shared/iso-time';
import { contractStateOf, type ApprovalPreview, type LedgerState } from '../../shared/contract';
import type { PolicyDecision, Reach } from '../policy/types';
import type { StoredApproval } from '../store/approvals-repo';
import type { LedgerEntry } from '../store/actions-repo';
import { fingerprint } from './fingerprint';
import { decidedCallEntry, unrunCallEntry } from './audit-entries';
import { executeAction, type CallScope, hold, settle, toolContext } from './call-execution';
import { previewOf, previewText } from './call-preview';
import { logRuntime } from './journal';
import type { RunFailure } from './model-failure';
import type { CheckedCall } from './run-deps';
import type { CallPart, LastAction } from './run-state';
import { reconcileStarted } from './reconcile';
import { runProvenance } from './run-provenance';
import { planDecision } from './plans/plan-gate';
import { admitTool, phaseDecision } from './sop';

export type { CallScope } from './call-execution';

/**
 * What became of one call: its result is in the state (settled), it waits for the user (held), or it ends the
 * run (a clarifying question, a refusal).
 */
export type CallOutcome =
  | { kind: 'settled' }
  | { kind: 'held'; approval: StoredApproval }
  | { kind: 'clarify'; question: string; action: LastAction }
  | { kind: 'refuse'; failure: RunFailure; action: LastAction };

const LEDGER_FOR: Record<PolicyDecision['kind'], LedgerState> = {
  allow: 'approved',
  require_approval: 'awaiting_confirmation',
  deny: 'rejected',
  clarify: 'rejected',
};

/**
 * One model call: validate → policy → run it, hold it for approval, or tell the model why not. A call the ledger
 * already knows (a resumed run) continues from where the ledger says it got to instead.
 */
export async function processCall(scope: CallScope, call: CallPart): Promise<CallOutcome> {
  const { deps, spec } = scope;
  const known = deps.store.actions.byCall(spec.runId, call.callId);
  if (known) return continueKnownCall(scope, call, known);

  const ids = { runId: spec.runId, threadId: spec.threadId };
  const actionId = deps.newId();
  // The agent's grant and its SOP phase are enforced by the registry's check, before anything else.
  const check = deps.registry.check(call.name, call.args, (name) => {
    const verdict = admitTool(spec, scope.state, name);
    return verdict.ok ? null : verdict.message;
  });
  const now = (): string => isoTime(deps.now());

  if (!check.ok) {
    failBeforeDecision(scope, call, actionId, call.name, check.code, check.message);
    return { kind: 'settled' };
  }
  // Whom the effect reaches is read before the decision (an update tells every attendee), never guessed.
  const nobody: { ok: true; reach: Reach } = { ok: true, reach: { recipients: [] } };
  const read = check.tool.hasSideEffects
    ? await deps.registry.reach(check, toolContext(scope, actionId, call, check), (error) =>
        deps.logError(
          `tool ${check.tool.name} failed unexpectedly while checking whom it would reach`,
          error,
        ),
      )
    : nobody;
  if (!read.ok) {
    const message = `${read.message} Deputy could not check whom this would reach, so nothing was done.`;
    failBeforeDecision(scope, call, actionId, check.tool.name, 'reach_unknown', message);
    return { kind: 'settled' };
  }
  const { reach } = read;

  // An agent's SOP phase may ask first where the policy alone would not.
  const decided = phaseDecision(
    spec,
    scope.state,
    deps.decide(check, { reach, provenance: runProvenance(scope.state, deps.registry) }),
    check.tool.hasSideEffects,
  );
  // A step of a plan the person approved goes ahead; a call the plan did not show them still asks.
  const decision = planDecision(scope, call, check, decided);
  const state = LEDGER_FOR[decision.kind];
  const { tool, args, meta } = check;
  deps.store.transaction(() => {
    deps.store.actions.create(
      {
        id: actionId,
        ...ids,
        callId: call.callId,
        tool: tool.name,
        args,
        state,
        fingerprint: fingerprint(tool.name, args),
        meta: { ...meta },
        hasSideEffects: tool.hasSideEffects,
        isExternal: tool.isExternal ?? false,
        policy: { decision: decision.kind, rule: decision.rule, reason: decision.reason },
      },
      now(),
    );
    // The audit entry lands with the ledger row it describes: a crash keeps both or neither.
    deps.store.audit.open(decidedCallEntry(scope, actionId, check, decision, reach), now());
    if (tool.hasSideEffects) {
      deps.store.policy.audit({
        timestamp: now(),
        ...ids,
        actionId,
        tool: tool.name,
        event: 'policy_decision',
        decision: decision.kind,
        rule: decision.rule,
        reason: decision.reason,
        // Whom it reaches and where its content came from are part of why the policy decided as it did.
        detail: {
          args,
          meta,
          reach: reach.recipients,
          ...(decision.kind === 'require_approval' && decision.origins && { origins: decision.origins }),
        },
      });
    }
    deps.emit({ type: 'tool_call', ...ids, actionId, tool: tool.name, args, state: contractStateOf(state) });
  });
  const action: LastAction = { id: actionId, tool: tool.name };

  switch (decision.kind) {
    case 'allow': {
      const notify = decision.shouldNotify ? `Done: ${previewOf(tool, check.input, reach).title}` : null;
      const result = await executeAction(scope, actionId, call, check, { notify, reach, isConfirmed: false });
      // A look-up that found the request ambiguous (two people fit, the intent is unclear) ends the run with its
      // question instead of letting the model guess.
      const question = result ? tool.clarification?.(result) : null;
      if (question) return { kind: 'clarify', question, action };
      return { kind: 'settled' };
    }
    case 'deny': {
      if (decision.outcome === 'REFUSAL:RATE_LIMITED') {
        rejectAction(scope, actionId, tool.name, decision.reason);
        return { kind: 'refuse', failure: { code: 'rate_limited', message: decision.reason }, action };
      }
      rejectAction(scope, actionId, tool.name, decision.reason, () =>
        settle(scope, call, { error: { code: 'denied_by_policy', message: decision.reason } }, action),
      );
      return { kind: 'settled' };
    }
    case 'clarify':
      rejectAction(scope, actionId, tool.name, decision.reason);
      return {
        kind: 'clarify',
        question: clarifyingQuestion(previewOf(tool, check.input), meta.assumptions ?? []),
        action,
      };
    case 'require_approval':
      return { kind: 'held', approval: requestApproval(scope, call, actionId, check, decision, reach) };
  }
}

/** A call that never reached the policy (bad arguments, an account not connected, its reach unreadable). */
function failBeforeDecision(
  scope: CallScope,
  call: CallPart,
  actionId: string,
  tool: string,
  code: string,
  message: string,
): void {
  const { deps, spec } = scope;
  const ids = { runId: spec.runId, threadId: spec.threadId };
  const now = (): string => isoTime(deps.now());
  deps.store.transaction(() => {
    deps.store.actions.create(
      { id: actionId, ...ids, callId: call.callId, tool, args: call.args, state: 'planned' },
      now(),
    );
    deps.emit({ type: 'tool_call', ...ids, actionId, tool, args: call.args, state: 'planned' });
    deps.store.actions.finish(actionId, { state: 'failed', error: message }, now());
    deps.store.audit.open(unrunCallEntry(scope, actionId, tool, call.args, message), now());
    deps.emit({ type: 'tool_result', ...ids, actionId, tool, state: 'failed', error: message });
    settle(scope, call, { error: { code, message } }, null);
  });
}

/** A call the ledger already has: never run twice, never lost (DESIGN.md §5, resume). */
async function continueKnownCall(scope: CallScope, call: CallPart, entry: LedgerEntry): Promise<CallOutcome> {
  const { deps, spec } = scope;
  const action: LastAction = { id: entry.id, tool: entry.tool };
  const replay = (result: Record<string, unknown>, detail: Record<string, unknown>): CallOutcome => {
    deps.store.transaction(() => {
      logRuntime(deps, spec, 'recovery', scope.state.step, { tool: entry.tool, ...detail }, call.callId);
      settle(scope, call, result, action);
    });
    return { kind: 'settled' };
  };
  switch (entry.ledgerState) {
    case 'committed':
      // Done before the restart: its stored result is replayed, the tool is not called again.
      return replay(entry.result ?? {}, { replayed: 'committed' });
    case 'failed':
      return replay(
        { error: { code: 'tool_failed', message: entry.error ?? `${entry.tool} failed.` } },
        { replayed: 'failed' },
      );
    case 'rejected':
      return replay(
        { error: { code: 'rejected', message: entry.error ?? 'This call was not run.' } },
        { replayed: 'rejected' },
      );
    case 'planned': {
      const message =
        'Deputy stopped before this call was checked; it was not run. Ask for it again if needed.';
      deps.store.transaction(() => {
        const now = isoTime(deps.now());
        deps.store.actions.finish(entry.id, { state: 'failed', error: message }, now);
        deps.store.audit.settle(entry.id, { status: 'failed', errorMessage: message }, now);
      });
      return replay({ error: { code: 'not_run', message } }, { replayed: 'planned' });
    }
    case 'approved':
    case 'awaiting_confirmation':
    case 'unknown':
      return continueApproval(scope, call, entry);
    case 'started':
      return reconcileStarted(scope, call, entry);
  }
}

/** An approved call runs (with the approved arguments); a pending one stays held; a refused one is answered. */
async function continueApproval(scope: CallScope, call: CallPart, entry: LedgerEntry): Promise<CallOutcome> {
  const { deps } = scope;
  const approval = deps.store.approvals.get(entry.id);
  if (approval?.status === 'pending') {
    deps.store.transaction(() => hold(scope, call, entry.id, approval.id));
    return { kind: 'held', approval };
  }
  if (approval && approval.status !== 'approved') {
    const message =
      approval.status === 'expired'
        ? 'The approval expired; nothing was done.'
        : 'The user rejected this call.';
    rejectAction(scope, entry.id, entry.tool, message, () =>
      settle(scope, call, { error: { code: 'rejected_by_user', message } }, null),
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
  if (!check.ok && check.code === 'not_connected') {
    // The account was disconnected while the approval waited: say so rather than run or blame the arguments.
    rejectAction(scope, actionId, toolName, check.message, () =>
      settle(scope, call, { error: { code: check.code, message: check.message } }, null),
    );
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
    // A subagent's request names who asks, from the top: "researcher → reviewer wants to …".
    reason: spec.lineage?.length
      ? `${spec.lineage.join(' → ')} wants to ${lowerFirst(described.title)}. ${request.reason}`
      : request.reason,
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

function clarifyingQuestion(preview: ApprovalPreview, assumptions: readonly string[]): string {
  const assumed = assumptions.length > 0 ? ` I would be assuming: ${assumptions.join('; ')}.` : '';
  return `Before I do anything: I am not sure I understood. I was about to do this — ${preview.title}.${assumed} Is that what you want? Tell me more and I will go ahead.`;
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);
