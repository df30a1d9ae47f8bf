import { isoTime } from '../../shared/iso-time';
import {
  contractStateOf,
  type ApprovalPreview,
  type CallNames,
  type LedgerState,
} from '../../shared/contract';
import type { PolicyDecision, Reach } from '../policy/types';
import type { StoredApproval } from '../store/approvals-repo';
import type { LedgerEntry } from '../store/action-rows';
import type { Tool } from '../tools/tool';
import { fingerprint } from './fingerprint';
import { decidedCallEntry, unrunCallEntry } from './audit-entries';
import { continueApproval, rejectAction, requestApproval } from './call-approval';
import { toolContext, type CallScope } from './call-context';
import { answerUnrun, executeAction, settle } from './call-execution';
import { previewOf } from './call-preview';
import { logRuntime } from './journal';
import type { RunFailure } from './model-failure';
import type { CallPart, LastAction } from './run-state';
import { reconcileStarted } from './reconcile';
import { runProvenance } from './run-provenance';
import { planDecision } from './plans/plan-gate';
import { admitTool, phaseDecision } from './sop';

export type { CallScope } from './call-context';

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
  // Read after the reach, which may have asked the service what its ids are called.
  const names = namesOf(tool, check.input);
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
        ...(names && { names }),
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
    deps.emit({
      type: 'tool_call',
      ...ids,
      actionId,
      tool: tool.name,
      args,
      state: contractStateOf(state),
      ...(names && { names }),
    });
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

/** A call whose arguments were not an object, and what came instead ("an array", "a string"). */
export interface RefusedCall {
  call: CallPart;
  sentAs: string;
}

/**
 * Refuses the turn's calls whose arguments were not an object as the registry refuses invalid arguments
 * (invalid_arguments, a failed row in the ledger, an audit entry), and returns the others. Their record keeps
 * `{}` as args, so the history sent back stays one Gemini accepts.
 */
export function refuseBadArgs(scope: CallScope, calls: CallPart[], refused: RefusedCall[]): CallPart[] {
  const { deps, spec } = scope;
  for (const { call, sentAs } of refused) {
    const message = `${call.name}'s arguments must be an object of named fields, not ${sentAs}.`;
    // The ledger keeps one row per call id, and the model may send an id twice: a known one is only answered.
    if (deps.store.actions.byCall(spec.runId, call.callId))
      answerUnrun(scope, call, 'invalid_arguments', message);
    else failBeforeDecision(scope, call, deps.newId(), call.name, 'invalid_arguments', message);
  }
  return calls.filter((call) => !refused.some((entry) => entry.call === call));
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
    deps.store.actions.finish(actionId, { state: 'failed', error: message, errorCode: code }, now());
    deps.store.audit.open(unrunCallEntry(scope, actionId, tool, call.args, message), now());
    deps.emit({ type: 'tool_result', ...ids, actionId, tool, state: 'failed', error: message, code });
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

/** The names the tool knows for the ids in the call, or nothing when it knows none. */
function namesOf(tool: Tool, input: unknown): CallNames | null {
  const names = tool.names?.(input) ?? {};
  return Object.keys(names).length > 0 ? names : null;
}

function clarifyingQuestion(preview: ApprovalPreview, assumptions: readonly string[]): string {
  const assumed = assumptions.length > 0 ? ` I would be assuming: ${assumptions.join('; ')}.` : '';
  return `Before I do anything: I am not sure I understood. I was about to do this — ${preview.title}.${assumed} Is that what you want? Tell me more and I will go ahead.`;
}
