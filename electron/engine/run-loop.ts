import type { RunResponse } from '../../shared/contract';
import { processCall, type CallOutcome } from './call-processor';
import type { CallScope } from './call-context';
import { answerUnrun } from './call-execution';
import { checkCompletion } from './completion';
import { controlCallOf, isControlCall } from './control-tools';
import { takeTurn } from './fair-turns';
import { logRuntime, logThrownCall, type ThrownCall } from './journal';
import { describeModelFailure, type RunFailure } from './model-failure';
import { modelTurn, type TurnOutput } from './model-turn';
import type { RunLoopDeps, RunSpec } from './run-deps';
import { completeRun, failRun, lastCall, pauseRun, saveAssistantText } from './run-endings';
import { inCallOrder, type RunState } from './run-state';
import { isPlanCancelled, keepStartedOnly } from './plans/plan-cancel';
import { planNote } from './plans/plan-note';
import { refreshPlan } from './plans/plan-progress';
import { endForSettled, endingFor, isTurnedDownWithRun, settledByDeputy } from './settled-by-deputy';
import { admitCompletion, enterLastPhase } from './sop';
import { NO_GEMINI_KEY_MESSAGE } from '../../shared/no-gemini-key';
import { PLAN_CANCELLED_WORDS } from '../../shared/rejection-words';

export type { RunLoopDeps, RunSpec } from './run-deps';

const NOT_CONFIGURED: RunFailure = {
  code: 'model_not_configured',
  message: NO_GEMINI_KEY_MESSAGE,
};

const NO_COMPLETION =
  '[FINAL WARNING] You stopped without calling complete_task. Call complete_task now, alone, with the result so far.';

/**
 * The tool loop of DESIGN.md §4 on the ledger of §5: think (stream the model), act (validate, decide, run
 * tools), observe (feed results back), until a final answer, a pause for approval, a failure, cancellation or
 * the limit (then one final-warning turn). Every step is checkpointed, so the loop starts from any state: a new
 * run, a run whose approval was decided, or a run picked up again after Deputy stopped.
 */
export function driveRun(deps: RunLoopDeps, spec: RunSpec, state: RunState): Promise<RunResponse> {
  // One unit of work per step: every write of the loop (and of whatever it calls) joins it; see WriteUnit.
  return deps.store.writes.step(() => loop(deps, spec, state));
}

async function loop(deps: RunLoopDeps, spec: RunSpec, state: RunState): Promise<RunResponse> {
  if (!deps.model) return failRun(deps, spec, state, NOT_CONFIGURED);
  const model = deps.model;
  const scope: CallScope = { deps, spec, state };
  const ids = { runId: spec.runId, threadId: spec.threadId };
  let mark = deps.now().getTime();
  const tick = (): void => {
    const now = deps.now().getTime();
    state.activeMs += Math.max(0, now - mark);
    mark = now;
  };

  for (;;) {
    // Each step waits its turn when the main thread is busy with other runs' steps (see fairTurn).
    await takeTurn(deps.store.writes);
    // A cancelled plan stops its run, even one picked up after a crash: what had started is finished first.
    const isCancelled = isPlanCancelled(scope);
    if (isCancelled) keepStartedOnly(scope);
    if (state.pendingCalls.length > 0) {
      deps.emit({ type: 'status', ...ids, status: 'executing' });
      const ending = await runPendingCalls(scope);
      if (ending) return ending;
    }
    tick();
    if (isCancelled) return failRun(deps, spec, state, { code: 'cancelled', message: PLAN_CANCELLED_WORDS });
    if (reopenDecided(scope)) continue;
    // A held call Deputy settled itself (expired, written over) ends the run as it ends a paused one, even when it
    // was settled while the turn's other calls still ran, or while Deputy was stopped.
    const settled = settledByDeputy(scope);
    if (settled)
      return endForSettled(scope, settled.approval, settled.failure, () => deps.onApprovalsChanged(null));
    refreshPlan(deps, spec);
    const held = state.awaiting[0];
    if (held) {
      const approval = deps.store.approvals.get(held.approvalId);
      if (approval) return pauseRun(deps, spec, state, approval, state.awaiting.length);
    }
    if (state.turnResults.length > 0) closeTurn(scope);

    const budget = deps.checkModelBudget();
    if (budget) return failRun(deps, spec, state, budget, 'REFUSAL:RATE_LIMITED');
    if (!state.recovery && isRecoveryDue(spec, state)) enterRecovery(scope, 'limit');
    const isFinalTurn = state.recovery;
    await takeTurn(deps.store.writes);
    deps.emit({ type: 'status', ...ids, status: 'planning' });
    let turn: TurnOutput;
    try {
      turn = await modelTurn(scope, model);
    } catch (error) {
      return failRun(deps, spec, state, describeModelFailure(error));
    }
    // An unsure intent, or one naming someone who cannot be told apart, is asked about before anything acts.
    if (turn.intent?.question) return askInstead(scope, turn.intent.question);
    // The model only stated its intent (or, for a task agent, stated it with text): its next turn acts.
    if (turn.intent?.isStated && turn.calls.length === 0 && (spec.completion || turn.text.trim() === ''))
      continue;
    const turnFailure = checkTurn(turn);
    if (turnFailure) return failRun(deps, spec, state, turnFailure);

    const ending =
      afterControlCall(scope, turn) ??
      (spec.completion ? afterTaskTurn(scope, turn, isFinalTurn) : afterChatTurn(scope, turn, isFinalTurn));
    if (ending) return ending;
  }
}

/**
 * A held call whose approval the person decided while the run was not going (Deputy stopped between the decision
 * and acting on it) goes back with the open calls: the ledger then says how far it got. One Deputy settled
 * itself stays held: it ends the run once these are done, as it would have ended the paused run.
 */
function reopenDecided(scope: CallScope): boolean {
  const { deps, state } = scope;
  const isEnding = settledByDeputy(scope) !== null;
  const decided = state.awaiting.filter((entry) => {
    const approval = deps.store.approvals.get(entry.approvalId);
    if (!approval) return true;
    if (approval.status === 'pending' || endingFor(approval)) return false;
    // Turned down because another call of its turn ends the run: refused with that one, in the run's words.
    return !(isEnding && isTurnedDownWithRun(approval));
  });
  if (decided.length === 0) return false;
  state.awaiting = state.awaiting.filter((entry) => !decided.includes(entry));
  state.pendingCalls = [...decided.map((entry) => entry.call), ...state.pendingCalls];
  return true;
}

/** Whether the next turn must be the final-warning one: the turn limit less the grace turns, or the time limit. */
export function isRecoveryDue(spec: RunSpec, state: RunState): boolean {
  return state.step >= Math.max(1, spec.maxSteps - spec.graceTurns) || state.activeMs >= spec.timeLimitMs;
}

function enterRecovery(scope: CallScope, why: 'limit' | 'no_completion'): void {
  const { deps, spec, state } = scope;
  deps.store.transaction(() => {
    state.recovery = true;
    if (why === 'no_completion')
      state.messages.push({ role: 'user', parts: [{ kind: 'text', text: NO_COMPLETION }] });
    logRuntime(deps, spec, 'recovery', state.step, {
      reason: why,
      steps: state.step,
      maxSteps: spec.maxSteps,
      activeMs: state.activeMs,
    });
    deps.checkpoints.save(spec, state);
  });
}

/**
 * The model asked a question or refused (spec 002's REQUEST_CLARIFICATION and REFUSE): the run ends with its
 * words as the answer. A control call with bad arguments is answered like a bad tool call, and the model tries again.
 */
function afterControlCall(scope: CallScope, turn: TurnOutput): RunResponse | null {
  const { deps, spec, state } = scope;
  const control = controlCallOf(turn.calls);
  if (!control) return null;
  const others = turn.calls.filter((call) => !isControlCall(call));
  const unrun = 'The run ended with a question or a refusal; this call was not run.';
  if (control.kind === 'invalid') {
    deps.store.transaction(() => {
      answerUnrun(scope, control.call, 'invalid_arguments', control.message);
      for (const call of others) answerUnrun(scope, call, 'not_run', unrun);
      deps.checkpoints.save(spec, state);
    });
    return null;
  }
  const text = control.kind === 'clarify' ? control.question : control.reason;
  saveAssistantText(deps, spec, text);
  state.pendingCalls = [];
  return completeRun(deps, spec, state, text, {
    decision: control.kind === 'clarify' ? 'REQUEST_CLARIFICATION' : 'REFUSE',
    outcome: control.kind === 'clarify' ? 'AMBIGUITY:UNCLEAR_INTENT' : 'REFUSAL:OUT_OF_SCOPE',
  });
}

/** Spec 002's REQUEST_CLARIFICATION, chosen by the engine from the run's intent analysis: nothing of the turn ran. */
function askInstead(scope: CallScope, question: string): RunResponse {
  const { deps, spec, state } = scope;
  saveAssistantText(deps, spec, question);
  state.pendingCalls = [];
  return completeRun(deps, spec, state, question, {
    decision: 'REQUEST_CLARIFICATION',
    outcome: 'AMBIGUITY:UNCLEAR_INTENT',
  });
}

/** Chat runs end with text; in the final-warning turn, a turn that still asks for tools ends the run as failed. */
function afterChatTurn(scope: CallScope, turn: TurnOutput, isFinalTurn: boolean): RunResponse | null {
  const { deps, spec, state } = scope;
  if (!hasCalls(turn)) return completeRun(deps, spec, state, turn.text);
  if (isFinalTurn) {
    state.pendingCalls = [];
    return failRun(
      deps,
      spec,
      state,
      {
        code: 'step_limit',
        message: `Deputy stopped after ${state.step} steps without a final answer. The steps it took are shown above.`,
      },
      undefined,
      partialOutput(scope, turn.text),
    );
  }
  return null;
}

/** Task agents end only through a valid `complete_task` alone in its turn; anything else gets one final warning. */
function afterTaskTurn(scope: CallScope, turn: TurnOutput, isFinalTurn: boolean): RunResponse | null {
  const { deps, spec, state } = scope;
  const contract = spec.completion;
  if (!contract) return null;
  const checked = checkCompletion(contract, turn.calls);
  const gate = checked.kind === 'complete' ? admitCompletion(spec, state) : { ok: true as const };
  const completion: typeof checked = gate.ok ? checked : { kind: 'violation', message: gate.message };
  if (completion.kind === 'complete') {
    state.pendingCalls = [];
    enterLastPhase(spec, state);
    const summary = contract.summarize
      ? contract.summarize(completion.output)
      : typeof completion.output.summary === 'string'
        ? completion.output.summary
        : turn.text;
    return completeRun(deps, spec, state, summary, {
      decision: 'COMPLETE_TASK',
      output: completion.output,
      ...(!state.recovery && { outcome: 'SUCCESS:TASK_COMPLETED' }),
    });
  }
  const failure: RunFailure = {
    code: 'incomplete',
    message:
      'The agent did not finish with a valid complete_task in its final turn. What it had produced is attached.',
  };
  if (isFinalTurn) {
    state.pendingCalls = [];
    return failRun(deps, spec, state, failure, 'ERROR:INCOMPLETE', partialOutput(scope, turn.text));
  }
  if (completion.kind === 'violation') {
    // Nothing of a turn that broke the contract runs; the model hears why and tries again.
    deps.store.transaction(() => {
      for (const call of turn.calls) answerUnrun(scope, call, 'completion_contract', completion.message);
      deps.checkpoints.save(spec, state);
    });
    return null;
  }
  if (!hasCalls(turn)) enterRecovery(scope, 'no_completion');
  return null;
}

function partialOutput(scope: CallScope, text: string): Record<string, unknown> {
  const { result } = lastCall(scope.deps, scope.state.lastAction);
  return { partial: true, ...(text && { text }), ...(result && { lastResult: result }) };
}

/**
 * Handles the open calls of the turn: one at a time (interactive), or up to `maxParallel` at once (batch). Each
 * call is its own unit of durability; a call that needs approval is held while the others go on.
 */
async function runPendingCalls(scope: CallScope): Promise<RunResponse | null> {
  const { deps, spec, state } = scope;
  const queue = [...state.pendingCalls];
  const width = spec.execution.policy === 'batch' ? Math.max(1, spec.execution.maxParallel) : 1;
  let ending: CallOutcome | null = null;
  // A call that throws (a bug, a write the disk refused) stops the turn, but the loop throws only once the turn's
  // calls still going have stopped: the host then ends the run, and one of them still deciding would otherwise ask
  // for approval in a run that has ended.
  let thrown: ThrownCall | null = null;
  const worker = async (): Promise<void> => {
    for (;;) {
      if (ending || thrown || spec.signal.aborted) return;
      const call = queue.shift();
      if (!call) return;
      try {
        const outcome = await processCall(scope, call);
        refreshPlan(deps, spec);
        if (outcome.kind === 'clarify' || outcome.kind === 'refuse') ending ??= outcome;
      } catch (error) {
        thrown ??= { error, call };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, queue.length) }, worker));
  const failure = thrown as ThrownCall | null;
  if (spec.signal.aborted) {
    // Stopped while the turn waited for the calls still going after one threw (a child paused for approval waits
    // until then): the run ends as every stop does, and the log keeps the call that threw and its error.
    if (failure) logThrownCall(deps, spec, state, failure);
    return failRun(deps, spec, state, { code: 'cancelled', message: 'Stopped.' });
  }
  if (failure) throw failure.error;
  const end = ending as CallOutcome | null;
  if (end?.kind === 'clarify') {
    state.lastAction = end.action;
    saveAssistantText(deps, spec, end.question);
    return completeRun(deps, spec, state, end.question, {
      decision: 'REQUEST_CLARIFICATION',
      outcome: 'AMBIGUITY:UNCLEAR_INTENT',
    });
  }
  if (end?.kind === 'refuse') {
    state.lastAction = end.action;
    return failRun(deps, spec, state, end.failure, 'REFUSAL:RATE_LIMITED');
  }
  return null;
}

/** The turn's results go back to the model in the order of its calls, as one message (a turn boundary). */
function closeTurn(scope: CallScope): void {
  const { deps, spec, state } = scope;
  // No checkpoint of its own: checkpoints already hold the open results as this very message. The plan's
  // note is read from the stored plan, so a resumed run closes the turn with the same words.
  const plan = refreshPlan(deps, spec);
  const note = plan ? [{ kind: 'text' as const, text: planNote(plan) }] : [];
  state.messages.push({ role: 'user', parts: [...inCallOrder(state.messages, state.turnResults), ...note] });
  state.turnResults = [];
}

/** Whether the model asked for any call, one refused with the turn included: its answer goes back to the model. */
function hasCalls(turn: TurnOutput): boolean {
  return turn.calls.length > 0 || turn.refused.length > 0;
}

function checkTurn(turn: TurnOutput): RunFailure | null {
  const isEmpty = turn.text.trim() === '' && !hasCalls(turn);
  if (!isEmpty) return null;
  if (turn.finishReason === 'SAFETY') {
    return {
      code: 'model_blocked',
      message: 'Gemini declined to answer this request (its safety filter stopped it).',
    };
  }
  if (turn.finishReason === 'MAX_TOKENS') {
    return {
      code: 'model_bad_response',
      message: 'Gemini ran out of output tokens before it said anything.',
    };
  }
  return { code: 'model_bad_response', message: 'Gemini returned an empty answer. Try again or rephrase.' };
}
