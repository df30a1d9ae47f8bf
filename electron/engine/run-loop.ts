import type { RunResponse } from '../../shared/contract';
import type { FinishReason, ModelClient, ModelMessage, ModelPart, ModelUsage } from '../llm/model-client';
import { processCall } from './call-processor';
import { describeModelFailure, type RunFailure } from './model-failure';
import type { RunLoopDeps, RunSpec } from './run-deps';
import { completeRun, failRun, pauseRun, saveAssistantText } from './run-endings';
import type { CallPart, RunState } from './run-state';

export type { RunLoopDeps, RunSpec } from './run-deps';

interface TurnOutput {
  text: string;
  calls: CallPart[];
  finishReason: FinishReason;
}

const GRACE_INSTRUCTION =
  '\n\n[FINAL TURN] The step limit is reached. Do not call tools. Answer the person now with what you have done and what is left.';

const NOT_CONFIGURED: RunFailure = {
  code: 'model_not_configured',
  message: 'Gemini is not configured yet. Set GEMINI_API_KEY in the environment and restart Deputy.',
};

/**
 * The tool loop of DESIGN.md §4: think (stream the model), act (validate, decide, run tools), observe (feed
 * results back), until final text, a pause for approval, a failure, cancellation or the step limit (then one
 * grace turn without tools). It starts from a state, so a run paused for approval continues the same way.
 */
export async function driveRun(deps: RunLoopDeps, spec: RunSpec, state: RunState): Promise<RunResponse> {
  const ids = { runId: spec.runId, threadId: spec.threadId };
  if (!deps.model) return failRun(deps, spec, state, NOT_CONFIGURED);
  const model = deps.model;

  for (;;) {
    if (state.pendingCalls.length > 0) deps.emit({ type: 'status', ...ids, status: 'executing' });
    while (state.pendingCalls.length > 0) {
      if (spec.signal.aborted) return failRun(deps, spec, state, { code: 'cancelled', message: 'Stopped.' });
      const call = state.pendingCalls.shift();
      if (!call) break;
      const outcome = await processCall(deps, spec, call);
      if (outcome.kind === 'pause') {
        state.awaiting = { call, actionId: outcome.approval.actionId, approvalId: outcome.approval.id };
        return pauseRun(deps, spec, state, outcome.approval);
      }
      state.lastAction = outcome.action;
      if (outcome.kind === 'clarify') {
        saveAssistantText(deps, spec, outcome.question);
        return completeRun(deps, spec, state, outcome.question, {
          decision: 'REQUEST_CLARIFICATION',
          outcome: 'AMBIGUITY:UNCLEAR_INTENT',
        });
      }
      if (outcome.kind === 'refuse')
        return failRun(deps, spec, state, outcome.failure, 'REFUSAL:RATE_LIMITED');
      state.turnResults.push(outcome.part);
    }
    if (state.turnResults.length > 0) {
      state.messages.push({ role: 'user', parts: state.turnResults });
      state.turnResults = [];
    }

    const budget = deps.checkModelBudget();
    if (budget) return failRun(deps, spec, state, budget, 'REFUSAL:RATE_LIMITED');
    const isGraceTurn = state.step >= spec.maxSteps;
    deps.emit({ type: 'status', ...ids, status: 'planning' });
    let turn: TurnOutput;
    try {
      turn = await streamTurn(deps, model, spec, state, isGraceTurn);
    } catch (error) {
      return failRun(deps, spec, state, describeModelFailure(error));
    }
    state.step += 1;
    const turnFailure = checkTurn(turn);
    if (turnFailure) return failRun(deps, spec, state, turnFailure);

    const parts: ModelPart[] = turn.text ? [{ kind: 'text', text: turn.text }] : [];
    state.messages.push({ role: 'model', parts: [...parts, ...turn.calls] });
    if (turn.text) saveAssistantText(deps, spec, turn.text);

    if (turn.calls.length === 0) return completeRun(deps, spec, state, turn.text);
    if (isGraceTurn) {
      return failRun(deps, spec, state, {
        code: 'step_limit',
        message: `Deputy stopped after ${spec.maxSteps} steps without a final answer. The steps it took are shown above.`,
      });
    }
    state.pendingCalls = [...turn.calls];
  }
}

async function streamTurn(
  deps: RunLoopDeps,
  model: ModelClient,
  spec: RunSpec,
  state: RunState,
  isGraceTurn: boolean,
): Promise<TurnOutput> {
  const ids = { runId: spec.runId, threadId: spec.threadId };
  const output: TurnOutput = { text: '', calls: [], finishReason: 'MISSING' };
  let usage: ModelUsage | null = null;
  const messages: ModelMessage[] = state.messages;
  const stream = model.stream({
    model: spec.model,
    systemInstruction: isGraceTurn ? state.systemInstruction + GRACE_INSTRUCTION : state.systemInstruction,
    messages,
    tools: isGraceTurn ? [] : deps.registry.declarations(),
    signal: spec.signal,
  });
  for await (const event of stream) {
    if (event.type === 'text') {
      output.text += event.text;
      deps.emit({ type: 'delta', ...ids, delta: event.text });
    } else if (event.type === 'function_call') {
      output.calls.push({ kind: 'call', callId: event.callId, name: event.name, args: event.args });
    } else {
      output.finishReason = event.finishReason;
      usage = event.usage;
    }
  }
  if (usage) {
    const now = deps.now().toISOString();
    deps.store.runs.addUsage(spec.runId, usage.inputTokens, usage.outputTokens);
    deps.store.policy.recordTokens(spec.runId, now, usage.totalTokens);
    deps.emit({ type: 'usage', ...ids, usage });
  }
  return output;
}

function checkTurn(turn: TurnOutput): RunFailure | null {
  const isEmpty = turn.text.trim() === '' && turn.calls.length === 0;
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
