import type { RunEvent, RunResponse } from '../../shared/contract';
import type { FinishReason, ModelClient, ModelMessage, ModelPart, ModelUsage } from '../llm/model-client';
import type { ToolRegistry } from '../tools/registry';
import type { Store } from '../store/store';
import { describeModelFailure, type RunFailure } from './model-failure';

export interface RunLoopDeps {
  store: Store;
  registry: ToolRegistry;
  /** Null when no model is configured: the run fails with a message that says how to configure one. */
  model: ModelClient | null;
  /** Persists (all but text deltas) and publishes one run event. */
  emit: (event: RunEvent) => void;
  now: () => Date;
  newId: () => string;
  /** Where unexpected tool failures are reported (the model only hears that the tool failed). */
  logError: (message: string, error: unknown) => void;
}

export interface RunSpec {
  runId: string;
  threadId: string;
  model: string;
  maxSteps: number;
  systemInstruction: string;
  /** Earlier turns of the conversation followed by the new prompt. */
  messages: ModelMessage[];
  signal: AbortSignal;
}

interface LastAction {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  result?: Record<string, unknown>;
}

interface TurnOutput {
  text: string;
  calls: Extract<ModelPart, { kind: 'call' }>[];
  finishReason: FinishReason;
}

const GRACE_INSTRUCTION =
  '\n\n[FINAL TURN] The step limit is reached. Do not call tools. Answer the person now with what you have done and what is left.';

const NOT_CONFIGURED: RunFailure = {
  code: 'model_not_configured',
  message: 'Gemini is not configured yet. Set GEMINI_API_KEY in the environment and restart Deputy.',
};

/**
 * The tool loop of DESIGN.md §4: think (stream the model), act (validate, run tools), observe (feed results back),
 * until final text, a failure, cancellation or the step limit (then one grace turn without tools).
 */
export async function executeRun(deps: RunLoopDeps, spec: RunSpec): Promise<RunResponse> {
  const ids = { runId: spec.runId, threadId: spec.threadId };
  const messages = [...spec.messages];
  let lastAction: LastAction | null = null;
  const stamp = (): string => deps.now().toISOString();

  const fail = (failure: RunFailure): RunResponse => {
    const response: RunResponse = {
      ok: false,
      ...ids,
      actionId: lastAction?.id ?? spec.runId,
      status: 'failed',
      summary: failure.message,
      mode: lastAction ? 'tool_call' : 'assistant_text',
      model: spec.model,
      ...(lastAction && { tool: lastAction.tool, toolArgs: lastAction.args }),
    };
    deps.store.transaction(() => {
      deps.store.runs.end(
        spec.runId,
        {
          status: 'failed',
          mode: response.mode,
          summary: failure.message,
          decision: lastAction ? 'INVOKE_TOOL' : 'RESPOND_ONLY',
          outcome: `ERROR:${failure.code.toUpperCase()}`,
          errorCode: failure.code,
          errorMessage: failure.message,
        },
        stamp(),
      );
      deps.emit({ type: 'error', ...ids, error: failure.message, code: failure.code });
      deps.emit({ type: 'status', ...ids, status: 'failed' });
      deps.emit({ type: 'result', ...ids, result: response });
    });
    return response;
  };

  if (!deps.model) return fail(NOT_CONFIGURED);
  const model = deps.model;

  for (let step = 1; step <= spec.maxSteps + 1; step += 1) {
    const isGraceTurn = step > spec.maxSteps;
    deps.emit({ type: 'status', ...ids, status: 'planning' });
    let turn: TurnOutput;
    try {
      turn = await streamTurn(deps, model, spec, messages, isGraceTurn);
    } catch (error) {
      return fail(describeModelFailure(error));
    }
    const turnFailure = checkTurn(turn);
    if (turnFailure) return fail(turnFailure);

    const parts: ModelPart[] = turn.text ? [{ kind: 'text', text: turn.text }] : [];
    messages.push({ role: 'model', parts: [...parts, ...turn.calls] });
    if (turn.text) saveAssistantText(deps, spec, turn.text);

    if (turn.calls.length === 0) return complete(deps, spec, turn.text, lastAction);
    if (isGraceTurn) {
      return fail({
        code: 'step_limit',
        message: `Deputy stopped after ${spec.maxSteps} steps without a final answer. The steps it took are shown above.`,
      });
    }

    deps.emit({ type: 'status', ...ids, status: 'executing' });
    const results: ModelPart[] = [];
    for (const call of turn.calls) {
      if (spec.signal.aborted) return fail({ code: 'cancelled', message: 'Stopped.' });
      const outcome = await runCall(deps, spec, call);
      lastAction = outcome.action;
      results.push({ kind: 'result', callId: call.callId, name: call.name, result: outcome.forModel });
    }
    messages.push({ role: 'user', parts: results });
  }
  // The loop always returns: the grace turn either answers or fails.
  throw new Error('unreachable: run loop exited without an ending');
}

async function streamTurn(
  deps: RunLoopDeps,
  model: ModelClient,
  spec: RunSpec,
  messages: ModelMessage[],
  isGraceTurn: boolean,
): Promise<TurnOutput> {
  const ids = { runId: spec.runId, threadId: spec.threadId };
  const output: TurnOutput = { text: '', calls: [], finishReason: 'MISSING' };
  let usage: ModelUsage | null = null;
  const stream = model.stream({
    model: spec.model,
    systemInstruction: isGraceTurn ? spec.systemInstruction + GRACE_INSTRUCTION : spec.systemInstruction,
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
    deps.store.runs.addUsage(spec.runId, usage.inputTokens, usage.outputTokens);
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

function saveAssistantText(deps: RunLoopDeps, spec: RunSpec, text: string): void {
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

async function runCall(
  deps: RunLoopDeps,
  spec: RunSpec,
  call: Extract<ModelPart, { kind: 'call' }>,
): Promise<{ action: LastAction; forModel: Record<string, unknown> }> {
  const ids = { runId: spec.runId, threadId: spec.threadId };
  const actionId = deps.newId();
  const check = deps.registry.check(call.name, call.args);
  // The call is recorded before anything runs; a call that cannot run stays `planned` until it is marked failed.
  const state = check.ok ? 'executing' : 'planned';
  deps.store.transaction(() => {
    deps.store.actions.create(
      { id: actionId, ...ids, callId: call.callId, tool: call.name, args: call.args, state },
      deps.now().toISOString(),
    );
    deps.emit({ type: 'tool_call', ...ids, actionId, tool: call.name, args: call.args, state });
  });

  const outcome = check.ok
    ? await deps.registry.run(
        check,
        {
          ...ids,
          actionId,
          signal: spec.signal,
          now: deps.now,
        },
        (error) => deps.logError(`tool ${call.name} failed unexpectedly`, error),
      )
    : check;

  deps.store.transaction(() => {
    const now = deps.now().toISOString();
    if (outcome.ok) {
      deps.store.actions.finish(actionId, { state: 'completed', result: outcome.result }, now);
      deps.emit({
        type: 'tool_result',
        ...ids,
        actionId,
        tool: call.name,
        state: 'completed',
        result: outcome.result,
      });
    } else {
      deps.store.actions.finish(actionId, { state: 'failed', error: outcome.message }, now);
      deps.emit({
        type: 'tool_result',
        ...ids,
        actionId,
        tool: call.name,
        state: 'failed',
        error: outcome.message,
      });
    }
  });

  const action: LastAction = outcome.ok
    ? { id: actionId, tool: call.name, args: outcome.args, result: outcome.result }
    : { id: actionId, tool: call.name, args: call.args };
  const forModel = outcome.ok ? outcome.result : { error: { code: outcome.code, message: outcome.message } };
  return { action, forModel };
}

function complete(
  deps: RunLoopDeps,
  spec: RunSpec,
  text: string,
  lastAction: LastAction | null,
): RunResponse {
  const ids = { runId: spec.runId, threadId: spec.threadId };
  const response: RunResponse = {
    ok: true,
    ...ids,
    actionId: lastAction?.id ?? spec.runId,
    status: 'completed',
    summary: text,
    mode: lastAction ? 'tool_call' : 'assistant_text',
    model: spec.model,
    ...(lastAction && { tool: lastAction.tool, toolArgs: lastAction.args }),
    ...(lastAction?.result && { output: lastAction.result }),
  };
  deps.store.transaction(() => {
    deps.store.runs.end(
      spec.runId,
      {
        status: 'completed',
        mode: response.mode,
        summary: text,
        decision: lastAction ? 'INVOKE_TOOL' : 'RESPOND_ONLY',
        outcome: lastAction ? 'SUCCESS:TASK_COMPLETED' : 'SUCCESS:RESPONSE_GIVEN',
        errorCode: null,
        errorMessage: null,
      },
      deps.now().toISOString(),
    );
    deps.emit({ type: 'status', ...ids, status: 'completed' });
    deps.emit({ type: 'result', ...ids, result: response });
  });
  return response;
}
