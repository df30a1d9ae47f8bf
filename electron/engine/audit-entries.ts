import { isoTime } from '../../shared/iso-time';
import type { AuditApprover } from '../../shared/contract';
import type { PolicyDecision, Reach } from '../policy/types';
import type { NewAssumption, NewAuditEntry } from '../store/audit-repo';
import type { Tool } from '../tools/tool';
import type { CallScope } from './call-context';
import type { CheckedCall } from './run-deps';
import { turnTokens } from './turn-tokens';

/** Who let a call happen when the policy allowed it, read from the rule that fired. */
export function approverOf(rule: string): AuditApprover {
  if (rule.startsWith('plan_approval:')) return 'plan';
  if (rule.startsWith('user_rule:')) return 'rule';
  if (rule.startsWith('trust:')) return 'trust_level';
  if (rule.startsWith('autonomy:')) return 'autonomy';
  return 'policy';
}

/** Why an action has no Undo, as the viewer says it. */
export function undoNoteOf(tool: Tool): string | null {
  if (tool.undo) return null;
  if (tool.irreversibleBecause) return tool.irreversibleBecause;
  return tool.hasSideEffects ? 'This action cannot be undone.' : 'It only read: there is nothing to undo.';
}

/**
 * What a completed call's `tool_result` says about Undo, as `thread.get` says it of the stored action: that its
 * tool can undo it, or, for a side effect it cannot undo, why not (a read says nothing).
 */
export function undoFieldsOf(tool: Tool): { canUndo?: true; undoNote?: string } {
  if (tool.undo) return { canUndo: true };
  const note = undoNoteOf(tool);
  return tool.hasSideEffects && note !== null ? { undoNote: note } : {};
}

/** The model states assumptions as sentences or as structured objects; both become spec 004's shape. */
function assumptionsOf(check: CheckedCall): NewAssumption[] {
  const { meta } = check;
  if (meta.assumptionDetails) return meta.assumptionDetails;
  return (meta.assumptions ?? []).map((statement) => ({
    statement,
    category: 'inference',
    evidence: [],
    confidence: meta.confidence ?? null,
  }));
}

/** To whom or where, as a person names it: the thing changed, then everyone the effect reaches. */
export function targetOf(reach: Reach | null): string | null {
  if (!reach) return null;
  const people = reach.recipients.map((recipient) => recipient.name ?? recipient.address);
  const parts = [reach.target, people.length > 0 ? people.join(', ') : undefined].filter(Boolean);
  return parts.length > 0 ? parts.join(' — ') : null;
}

/** Where and why of a call's entry, common to every way a call is recorded. */
function base(scope: CallScope, actionId: string, tool: string): NewAuditEntry {
  const { spec, state } = scope;
  return {
    kind: 'tool_call',
    actionId,
    threadId: spec.threadId,
    runId: spec.runId,
    agentId: spec.agentId,
    actionType: tool,
    actionCategory: 'unknown',
    status: 'pending',
    modelUsed: state.routing?.resolved ?? spec.model,
    // The tokens of the model turn that asked for this call, not the run's running total.
    tokensUsed: turnTokens(state),
  };
}

/** The entry of a call the policy decided on, written in the transaction that creates its ledger row. */
export function decidedCallEntry(
  scope: CallScope,
  actionId: string,
  check: CheckedCall,
  decision: PolicyDecision,
  reach: Reach,
): NewAuditEntry {
  const { tool, meta } = check;
  const isAllowed = decision.kind === 'allow';
  return {
    ...base(scope, actionId, tool.name),
    actionCategory: tool.category,
    risk: tool.risk,
    intent: meta.intent ?? null,
    reasoning: meta.reasoning ?? null,
    confidence: meta.confidence ?? null,
    assumptions: assumptionsOf(check),
    target: targetOf(reach),
    input: check.args,
    decision: decision.kind,
    rule: decision.rule,
    reason: decision.reason,
    ...(isAllowed && {
      approvedBy: approverOf(decision.rule),
      approvedAt: isoTime(scope.deps.now()),
    }),
    isReversible: tool.undo !== undefined,
    undoNote: undoNoteOf(tool),
  };
}

/** The entry of a call that never reached the policy (unknown tool, bad arguments, unreadable reach). */
export function unrunCallEntry(
  scope: CallScope,
  actionId: string,
  tool: string,
  args: Record<string, unknown>,
  message: string,
): NewAuditEntry {
  return {
    ...base(scope, actionId, tool),
    actionCategory: scope.deps.registry.get(tool)?.category ?? 'unknown',
    input: args,
    status: 'failed',
    errorMessage: message,
    undoNote: 'It was not run.',
  };
}
