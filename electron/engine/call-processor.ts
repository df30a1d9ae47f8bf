import type { ActionState, ApprovalPreview } from '../../shared/contract';
import type { PolicyDecision } from '../policy/types';
import type { StoredApproval } from '../store/approvals-repo';
import type { Tool } from '../tools/tool';
import { fingerprint, idempotencyKey } from './fingerprint';
import type { RunFailure } from './model-failure';
import type { CheckedCall, RunLoopDeps, RunSpec } from './run-deps';
import type { CallPart, LastAction, ResultPart } from './run-state';

export type CallOutcome =
  | { kind: 'result'; part: ResultPart; action: LastAction }
  | { kind: 'pause'; approval: StoredApproval }
  | { kind: 'clarify'; question: string; action: LastAction }
  | { kind: 'refuse'; failure: RunFailure; action: LastAction };

const STATE_FOR: Record<PolicyDecision['kind'], ActionState> = {
  allow: 'executing',
  require_approval: 'awaiting_confirmation',
  deny: 'rejected',
  clarify: 'rejected',
};

/** One model call: validate → policy → run it, pause for approval, or tell the model why not. */
export async function processCall(deps: RunLoopDeps, spec: RunSpec, call: CallPart): Promise<CallOutcome> {
  const ids = { runId: spec.runId, threadId: spec.threadId };
  const actionId = deps.newId();
  const check = deps.registry.check(call.name, call.args);
  const now = (): string => deps.now().toISOString();

  if (!check.ok) {
    deps.store.transaction(() => {
      deps.store.actions.create(
        { id: actionId, ...ids, callId: call.callId, tool: call.name, args: call.args, state: 'planned' },
        now(),
      );
      deps.emit({ type: 'tool_call', ...ids, actionId, tool: call.name, args: call.args, state: 'planned' });
      deps.store.actions.finish(actionId, { state: 'failed', error: check.message }, now());
      deps.emit({
        type: 'tool_result',
        ...ids,
        actionId,
        tool: call.name,
        state: 'failed',
        error: check.message,
      });
    });
    return resultOf(
      call,
      { id: actionId, tool: call.name, args: call.args },
      { error: { code: check.code, message: check.message } },
    );
  }

  const decision = deps.decide(check);
  const state = STATE_FOR[decision.kind];
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
      },
      now(),
    );
    deps.store.actions.setPolicy(
      actionId,
      { decision: decision.kind, rule: decision.rule, reason: decision.reason },
      now(),
    );
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
        detail: { args, meta },
      });
    }
    deps.emit({ type: 'tool_call', ...ids, actionId, tool: tool.name, args, state });
  });
  const action: LastAction = { id: actionId, tool: tool.name, args };

  switch (decision.kind) {
    case 'allow': {
      const executed = await executeAction(deps, spec, actionId, check);
      if (decision.shouldNotify && executed.ok) {
        deps.emit({
          type: 'notice',
          ...ids,
          actionId,
          tool: tool.name,
          message: `Done: ${previewOf(tool, check.input).title}`,
        });
      }
      return resultOf(call, executed.action, executed.forModel);
    }
    case 'deny': {
      rejectAction(deps, spec, actionId, tool.name, decision.reason);
      if (decision.outcome === 'REFUSAL:RATE_LIMITED') {
        return { kind: 'refuse', failure: { code: 'rate_limited', message: decision.reason }, action };
      }
      return resultOf(call, action, { error: { code: 'denied_by_policy', message: decision.reason } });
    }
    case 'clarify': {
      rejectAction(deps, spec, actionId, tool.name, decision.reason);
      return {
        kind: 'clarify',
        question: clarifyingQuestion(previewOf(tool, check.input), meta.assumptions ?? []),
        action,
      };
    }
    case 'require_approval':
      return { kind: 'pause', approval: createApproval(deps, spec, actionId, check, decision) };
  }
}

function resultOf(call: CallPart, action: LastAction, result: Record<string, unknown>): CallOutcome {
  return { kind: 'result', part: { kind: 'result', callId: call.callId, name: call.name, result }, action };
}

export function rejectAction(
  deps: RunLoopDeps,
  spec: RunSpec,
  actionId: string,
  tool: string,
  reason: string,
): void {
  deps.store.transaction(() => {
    deps.store.actions.finish(actionId, { state: 'rejected', error: reason }, deps.now().toISOString());
    deps.emit({
      type: 'tool_result',
      runId: spec.runId,
      threadId: spec.threadId,
      actionId,
      tool,
      state: 'rejected',
      error: reason,
    });
  });
}

/** Runs a checked call whose action row exists, and records the outcome with its event in one transaction. */
export async function executeAction(
  deps: RunLoopDeps,
  spec: RunSpec,
  actionId: string,
  check: CheckedCall,
): Promise<{ ok: boolean; action: LastAction; forModel: Record<string, unknown> }> {
  const ids = { runId: spec.runId, threadId: spec.threadId };
  const { tool } = check;
  const callId = deps.store.actions.callIdOf(actionId) ?? actionId;
  const key = idempotencyKey(spec.runId, callId, fingerprint(tool.name, check.args));
  const outcome = await deps.registry.run(
    check,
    { ...ids, actionId, idempotencyKey: key, signal: spec.signal, now: deps.now },
    (error) => deps.logError(`tool ${tool.name} failed unexpectedly`, error),
  );
  deps.store.transaction(() => {
    const now = deps.now().toISOString();
    if (outcome.ok) {
      deps.store.actions.finish(actionId, { state: 'completed', result: outcome.result }, now);
      const recipients = tool.recipients?.(check.input) ?? [];
      if (recipients.length > 0) deps.store.policy.rememberRecipients(recipients, now);
      deps.emit({
        type: 'tool_result',
        ...ids,
        actionId,
        tool: tool.name,
        state: 'completed',
        result: outcome.result,
      });
    } else {
      deps.store.actions.finish(actionId, { state: 'failed', error: outcome.message }, now);
      deps.emit({
        type: 'tool_result',
        ...ids,
        actionId,
        tool: tool.name,
        state: 'failed',
        error: outcome.message,
      });
    }
  });
  if (outcome.ok) {
    return {
      ok: true,
      action: { id: actionId, tool: tool.name, args: check.args, result: outcome.result },
      forModel: outcome.result,
    };
  }
  return {
    ok: false,
    action: { id: actionId, tool: tool.name, args: check.args },
    forModel: { error: { code: outcome.code, message: outcome.message } },
  };
}

export function previewOf(tool: Tool, input: unknown): ApprovalPreview {
  if (tool.preview) return tool.preview(input);
  const args = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  return {
    title: `Run ${tool.name}`,
    fields: Object.entries(args).map(([label, value]) => ({
      label,
      value: typeof value === 'string' ? value : JSON.stringify(value),
    })),
  };
}

export function previewText(preview: ApprovalPreview): string {
  const lines = [preview.title, ...preview.fields.map((field) => `${field.label}: ${field.value}`)];
  for (const change of preview.changes ?? [])
    lines.push(`${change.label}: ${change.before} → ${change.after}`);
  if (preview.body) lines.push('', preview.body);
  return lines.join('\n');
}

function createApproval(
  deps: RunLoopDeps,
  spec: RunSpec,
  actionId: string,
  check: CheckedCall,
  decision: Extract<PolicyDecision, { kind: 'require_approval' }>,
): StoredApproval {
  const now = deps.now();
  const preview = previewOf(check.tool, check.input);
  const approval: StoredApproval = {
    id: deps.newId(),
    runId: spec.runId,
    threadId: spec.threadId,
    actionId,
    tool: check.tool.name,
    args: check.args,
    fingerprint: fingerprint(check.tool.name, check.args),
    status: 'pending',
    level: decision.level,
    reason: decision.reason,
    rule: decision.rule,
    risk: check.tool.risk,
    preview,
    previewText: previewText(preview),
    intent: check.meta.intent ?? null,
    reasoning: check.meta.reasoning ?? null,
    confidence: check.meta.confidence ?? null,
    assumptions: check.meta.assumptions ?? [],
    alwaysAllowScopes: check.tool.alwaysAllowScopes?.(check.input) ?? [],
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + deps.approvalLifetimeMs()).toISOString(),
    decidedAt: null,
    decisionNote: null,
  };
  deps.store.transaction(() => {
    deps.store.approvals.create(approval);
    deps.emit({
      type: 'approval_needed',
      runId: spec.runId,
      threadId: spec.threadId,
      approval: { ...approval, argsSchema: deps.registry.argsSchema(approval.tool) },
    });
  });
  deps.onApprovalsChanged(null);
  return approval;
}

function clarifyingQuestion(preview: ApprovalPreview, assumptions: readonly string[]): string {
  const assumed = assumptions.length > 0 ? ` I would be assuming: ${assumptions.join('; ')}.` : '';
  return `Before I do anything: I am not sure I understood. I was about to do this — ${preview.title}.${assumed} Is that what you want? Tell me more and I will go ahead.`;
}
