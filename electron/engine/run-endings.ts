import { cutText } from '../../shared/cut-text';
import { PLAN_CANCELLED_WORDS, RUN_ENDED_NOTE } from '../../shared/rejection-words';
import { errorOutcome, type RunEvent, type RunIntent, type RunResponse } from '../../shared/contract';
import type { StoredApproval } from '../store/approvals-repo';
import type { NewAuditEntry } from '../store/audit-repo';
import type { RunEnding } from '../store/runs-repo';
import { rejectAction } from './call-approval';
import { settleCutOffCalls, settleUnsure } from './cut-off-calls';
import { logRuntime } from './journal';
import { isPlanCancelled } from './plans/plan-cancel';
import { settlePlanAtEnding } from './plans/plan-ending';
import type { RunFailure } from './model-failure';
import type { RunLoopDeps, RunSpec } from './run-deps';
import type { LastAction, RunState } from './run-state';

type EventBody<T extends RunEvent['type']> = Omit<Extract<RunEvent, { type: T }>, 'runId' | 'threadId'>;
type EndingEvent = EventBody<'error'> | EventBody<'status'>;

/** The last call's arguments and result, from the ledger (the state keeps only its id). */
export function lastCall(deps: RunLoopDeps, lastAction: LastAction | null) {
  const record = lastAction ? deps.store.actions.get(lastAction.id) : null;
  const result = record?.result;
  return {
    args: record?.args ?? {},
    result:
      typeof result === 'object' && result !== null && !Array.isArray(result)
        ? (result as Record<string, unknown>)
        : undefined,
  };
}

const base = (spec: RunSpec, lastAction: LastAction | null, last: ReturnType<typeof lastCall>) => ({
  runId: spec.runId,
  threadId: spec.threadId,
  actionId: lastAction?.id ?? spec.runId,
  model: spec.model,
  ...(lastAction && { tool: lastAction.tool, toolArgs: last.args }),
});

export function saveAssistantText(deps: RunLoopDeps, spec: RunSpec, text: string): void {
  const now = deps.now().toISOString();
  deps.store.transaction(() => {
    deps.store.threads.addMessage({
      id: deps.newId(),
      threadId: spec.threadId,
      runId: spec.runId,
      role: 'assistant',
      text,
      createdAt: now,
    });
    deps.store.threads.touch(spec.threadId, now);
  });
}

/** What the ledger says of a call that waited for approval when its run ended, not stopped, another way. */
const ENDED_WHILE_HELD = 'The run ended before this was approved, so Deputy did not do it.';

/**
 * A run that ends other than by a pause (stopped, a question asked, a failure) while calls of its turn still wait
 * for approval turns them down: none can be done once it has ended, and approving one left in the inbox would
 * start the ended run again. Each stays among the run's open calls, which a later prompt answers as not run.
 * Says whether any approval was turned down here.
 */
function turnDownHeld(deps: RunLoopDeps, spec: RunSpec, state: RunState, ending: RunEnding): boolean {
  // Stopped, the call is refused with the run's own words, so its card reads as stopped with it, not turned down.
  const why =
    ending.errorCode === 'cancelled' && ending.errorMessage ? ending.errorMessage : ENDED_WHILE_HELD;
  let isAnyTurnedDown = false;
  for (const held of heldCalls(deps, spec, state)) {
    const now = deps.now().toISOString();
    if (deps.store.approvals.claim(held.approvalId, 'rejected', now, RUN_ENDED_NOTE, 'deputy'))
      isAnyTurnedDown = true;
    // One its run's ending already refused (endForSettled) is left as it is.
    if (deps.store.actions.get(held.actionId)?.ledgerState === 'awaiting_confirmation')
      rejectAction({ deps, spec, state }, held.actionId, held.tool, why);
  }
  return isAnyTurnedDown;
}

/**
 * What the run holds for approval: its state's held calls, and any approval of it the store still has pending. A
 * run the host ends (its loop threw, its state could not be read) goes by its last checkpoint, which may not know
 * an approval asked for since. An undo waiting for approval is the audit trail's, not the run's, and is left.
 */
function heldCalls(deps: RunLoopDeps, spec: RunSpec, state: RunState) {
  const held = state.awaiting.map(({ approvalId, actionId, call }) => ({
    approvalId,
    actionId,
    tool: call.name,
  }));
  const known = new Set(held.map(({ approvalId }) => approvalId));
  for (const approval of deps.store.approvals.pendingInRun(spec)) {
    if (known.has(approval.id)) continue;
    held.push({ approvalId: approval.id, actionId: approval.actionId, tool: approval.tool });
  }
  return held;
}

/** How every ending lands: the run row, its state and its last events, in one transaction, then the result. */
function recordEnding(
  deps: RunLoopDeps,
  spec: RunSpec,
  state: RunState,
  ending: RunEnding,
  events: EndingEvent[],
  response: RunResponse,
): RunResponse {
  const ids = { runId: spec.runId, threadId: spec.threadId };
  let answer: RunResponse = { ...response, decision: ending.decision, outcome: ending.outcome };
  let isAnyTurnedDown = false;
  deps.store.transaction(() => {
    if (ending.status !== 'awaiting_confirmation') {
      for (const entry of settleCutOffCalls(deps, spec, state)) settleUnsure(deps, spec, state, entry);
      isAnyTurnedDown = turnDownHeld(deps, spec, state, ending);
    }
    const now = deps.now().toISOString();
    const planId = settlePlanAtEnding(deps, spec, ending);
    if (planId) answer = { ...answer, planId };
    deps.store.runs.end(spec.runId, ending, now);
    deps.checkpoints.save(spec, state);
    if (ending.status !== 'awaiting_confirmation') {
      const entry = decisionEntry(deps, spec, state, ending);
      const auditEntryId = deps.store.audit.open(entry, now);
      deps.store.decisions.record(
        {
          runId: spec.runId,
          agentId: spec.agentId,
          decision: ending.decision,
          outcome: ending.outcome,
          errorCode: ending.errorCode,
          durationMs: entry.durationMs ?? null,
          model: entry.modelUsed ?? null,
          tokensUsed: entry.tokensUsed ?? null,
          auditEntryId,
        },
        now,
      );
      logRuntime(deps, spec, ending.status === 'completed' ? 'completion' : 'error', state.step, {
        outcome: ending.outcome,
        recovered: ending.recovered ?? false,
        ...(ending.errorCode !== null && { code: ending.errorCode }),
      });
    }
    for (const event of events) deps.emit({ ...event, ...ids } as RunEvent);
    deps.emit({ type: 'result', ...ids, result: answer });
  });
  if (isAnyTurnedDown) deps.onApprovalsChanged(null);
  // An ended run writes no more checkpoints; a paused one keeps its encoder state for the decision. Forgotten
  // after its last checkpoint is written (at the step's commit), so that one is still a delta.
  if (ending.status !== 'awaiting_confirmation')
    deps.store.writes.atCommit(`checkpoint-ended:${spec.runId}`, () =>
      deps.store.checkpoints.forget(spec.runId),
    );
  return answer;
}

/** How much of the request a run's decision entry keeps: enough to tell runs apart; the thread keeps it all. */
const REQUEST_CHARS = 500;

/**
 * Spec 002's DecisionLog: the run's one AgentDecision and its outcome, as an entry of the audit trail. Its input
 * holds what was asked (`request`, since this version), so each run's row can say it; an older entry has none.
 */
function decisionEntry(deps: RunLoopDeps, spec: RunSpec, state: RunState, ending: RunEnding): NewAuditEntry {
  const intent = deps.store.runs.get(spec.runId)?.intent ?? null;
  const prompt = deps.store.runs.prompt(spec.runId);
  const request = prompt === null ? null : cutText(prompt, REQUEST_CHARS);
  return {
    ...intentOfDecision(intent),
    kind: 'decision',
    threadId: spec.threadId,
    runId: spec.runId,
    agentId: spec.agentId,
    actionType: 'agent_decision',
    actionCategory: 'decision',
    input: {
      decision: ending.decision,
      outcome: ending.outcome,
      intent,
      ...(request !== null && { request }),
    },
    output: { summary: ending.summary },
    decision: ending.decision,
    rule: ending.outcome,
    status: ending.status === 'completed' ? 'completed' : 'failed',
    errorMessage: ending.errorMessage,
    durationMs: Math.round(state.activeMs),
    modelUsed: state.routing?.resolved ?? spec.model,
    tokensUsed: state.usage.inputTokens + state.usage.outputTokens,
    undoNote: 'A decision is not an action: there is nothing to undo.',
  };
}

/** The run's intent analysis on its decision entry: the intent, how sure, and each assumption with its evidence. */
function intentOfDecision(intent: RunIntent | null): Partial<NewAuditEntry> {
  if (!intent?.stated) return {};
  const { analysis } = intent;
  return {
    intent: analysis.intent,
    confidence: analysis.confidence,
    assumptions: analysis.assumptions.map((assumption) => ({
      statement: assumption.statement,
      category: 'intent' as const,
      evidence: assumption.evidence,
    })),
  };
}

export interface Completion {
  decision?: string;
  outcome?: string;
  /** A task agent's `complete_task` output (chat runs report the last tool's result). */
  output?: Record<string, unknown>;
}

/** A run that ends in its final-warning turn is recorded as recovered, never as a plain success. */
export function completeRun(
  deps: RunLoopDeps,
  spec: RunSpec,
  state: RunState,
  text: string,
  completion: Completion = {},
): RunResponse {
  const { lastAction } = state;
  const recovered = state.recovery;
  const mode = lastAction ? 'tool_call' : 'assistant_text';
  const last = lastCall(deps, lastAction);
  const output = completion.output ?? last.result;
  const success = lastAction ? 'SUCCESS:TASK_COMPLETED' : 'SUCCESS:RESPONSE_GIVEN';
  return recordEnding(
    deps,
    spec,
    state,
    {
      status: 'completed',
      mode,
      summary: text,
      decision: completion.decision ?? (lastAction ? 'INVOKE_TOOL' : 'RESPOND_ONLY'),
      outcome: completion.outcome ?? (recovered ? 'SUCCESS:RECOVERED' : success),
      errorCode: null,
      errorMessage: null,
      recovered,
    },
    [{ type: 'status', status: 'completed' }],
    {
      ok: true,
      ...base(spec, lastAction, last),
      status: 'completed',
      summary: text,
      mode,
      ...(output && { output }),
      ...(recovered && { recovered: true }),
    },
  );
}

/** `partial` is what a run that could not finish had produced (its last text, its last tool's result). */
export function failRun(
  deps: RunLoopDeps,
  spec: RunSpec,
  state: RunState,
  failure: RunFailure,
  outcome = errorOutcome(failure.code),
  partial?: Record<string, unknown>,
): RunResponse {
  const { lastAction } = state;
  const mode = lastAction ? 'tool_call' : 'assistant_text';
  // Stopped because the person cancelled its plan: said so, however far its turn had got (a model turn, a call
  // running, or paused for an approval), as the plan's tree says it.
  const message =
    failure.code === 'cancelled' && isPlanCancelled({ deps, spec, state })
      ? PLAN_CANCELLED_WORDS
      : failure.message;
  return recordEnding(
    deps,
    spec,
    state,
    {
      status: 'failed',
      mode,
      summary: message,
      decision: outcome.startsWith('REFUSAL:') ? 'REFUSE' : lastAction ? 'INVOKE_TOOL' : 'RESPOND_ONLY',
      outcome,
      errorCode: failure.code,
      errorMessage: message,
    },
    [
      { type: 'error', error: message, code: failure.code },
      { type: 'status', status: 'failed' },
    ],
    {
      ok: false,
      ...base(spec, lastAction, lastCall(deps, lastAction)),
      status: 'failed',
      summary: message,
      mode,
      ...(partial && { output: partial }),
    },
  );
}

/** Stops the run where it is, with its state stored, until the user decides on what it holds for approval. */
export function pauseRun(
  deps: RunLoopDeps,
  spec: RunSpec,
  state: RunState,
  approval: StoredApproval,
  waiting = 1,
): RunResponse {
  const more = waiting > 1 ? ` (and ${waiting - 1} more)` : '';
  const summary = `Waiting for your approval: ${approval.preview.title}${more}`;
  return recordEnding(
    deps,
    spec,
    state,
    {
      status: 'awaiting_confirmation',
      mode: 'approval_required',
      summary,
      decision: 'INVOKE_TOOL',
      outcome: 'PENDING:APPROVAL',
      errorCode: null,
      errorMessage: null,
    },
    [{ type: 'status', status: 'awaiting_confirmation' }],
    {
      ok: true,
      runId: spec.runId,
      threadId: spec.threadId,
      actionId: approval.actionId,
      model: spec.model,
      status: 'awaiting_confirmation',
      summary,
      mode: 'approval_required',
      tool: approval.tool,
      toolArgs: approval.args,
      approval: {
        id: approval.id,
        tool: approval.tool,
        reason: approval.reason,
        preview: approval.previewText,
      },
    },
  );
}
