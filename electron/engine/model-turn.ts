import { isoTime } from '../../shared/iso-time';
import { contextWindowOf } from '../llm/model-config';
import {
  ModelError,
  type FinishReason,
  type ModelClient,
  type ModelPart,
  type ModelUsage,
  type ToolDeclaration,
} from '../llm/model-client';
import type { CallScope } from './call-context';
import { noteFailure } from './call-retries';
import { COMPLETE_TASK } from './completion';
import { isControlCall } from './control-tools';
import { fairTurn } from './fair-turns';
import { takeIntent, type PeopleReach } from './intent-statement';
import { handlePlanCalls } from './plans/plan-calls';
import { answerUnrun } from './call-execution';
import { refuseBadArgs, type RefusedCall } from './call-processor';
import {
  compressContext,
  DEFAULT_CONTEXT,
  estimateTokens,
  needsCompression,
  promptTokens,
  type ContextConfig,
} from './context-window';
import { logRuntime } from './journal';
import { errorSignature } from './retry';
import { modelRetryNotice, retryAt } from './retry-notice';
import { MODEL_NOTICE_SOURCE } from '../../shared/model-failure-words';
import { routeModel, type RoutingDecision, type RunPhase } from './routing';
import { saveAssistantText } from './run-endings';
import type { CallPart, RunState } from './run-state';
import { withOwnIds } from './call-ids';
import type { RoutingPolicy } from '../../shared/contract';
import { redactSecrets } from '../vault/redactor';
import { setTurnTokens } from './turn-tokens';
import { turnRequest, type TurnRequest } from './turn-request';

export interface TurnOutput {
  text: string;
  /**
   * The calls that may act (a `state_intent` call is taken out: it is the turn's intent, not an action; so is
   * a refused call).
   */
  calls: CallPart[];
  /** Calls whose arguments were not an object, with what came instead: answered with the turn, never run. */
  refused: RefusedCall[];
  finishReason: FinishReason;
  /** What the turn said of the request's intent (see intent-statement.ts); absent from a turn not yet read. */
  intent?: { isStated: boolean; question: string | null };
}

const TRANSIENT_MODEL_ERRORS = new Set(['unavailable', 'rate_limited', 'server_error', 'timeout']);

function phaseOf(state: RunState): RunPhase {
  if (state.recovery) return 'recover';
  const last = state.messages.at(-1);
  return last?.parts.some((part) => part.kind === 'result') ? 'act' : 'plan';
}

/**
 * Routes the turn. Gemini's thought signatures belong to the model that made them: once the run carries any,
 * it stays with the model that made them rather than hand them to a sibling.
 */
function routeFor(state: RunState, requested: string, policy: RoutingPolicy): RoutingDecision {
  const decision = routeModel({ requested, phase: phaseOf(state), policy });
  const previous = state.routing;
  const hasSignatures = state.messages.some((message) =>
    message.parts.some((part) => part.kind === 'call' && part.signature !== undefined),
  );
  if (!previous || !hasSignatures || previous.resolved === decision.resolved) return decision;
  return {
    ...decision,
    resolved: previous.resolved,
    reason: `${decision.reason} Kept ${previous.resolved} instead: this run's thought signatures belong to it.`,
  };
}

/**
 * The calls of a logged turn that may run: none in the final-warning turn or a task agent's completion turn,
 * the first only in interactive mode (the others are answered at once).
 */
function runnableCalls(scope: CallScope, turnCalls: CallPart[]): CallPart[] {
  const { spec, state } = scope;
  if (state.recovery) return [];
  // The plan's own calls are answered here, with the turn: they change the plan, never the world.
  const calls = handlePlanCalls(scope, turnCalls);
  if (spec.completion && calls.some((call) => call.name === COMPLETE_TASK)) return [];
  // A turn that asks or refuses ends the run: nothing else of it runs (the loop answers the rest).
  if (calls.some(isControlCall)) return [];
  const [first, ...rest] = calls;
  if (spec.execution.policy !== 'interactive' || !first) return [...calls];
  for (const call of rest) {
    answerUnrun(
      scope,
      call,
      'one_call_per_turn',
      `Only one tool call runs per turn here; ${first.name} ran first. Call ${call.name} again if it is still needed.`,
    );
  }
  return [first];
}

/**
 * One model turn: route (recorded), compress if the prompt passed 80 % of the window (summary checkpointed),
 * stream with retries for transient failures that happened before any output, then log the response with its
 * checkpoint in one transaction — a logged turn is never asked again.
 */
export async function modelTurn(scope: CallScope, model: ModelClient): Promise<TurnOutput> {
  const { deps, spec, state } = scope;
  // The step's durability point: the state this turn starts from is on disk before its request is sent, so a
  // resumed run asks the same (routing and compression are worked out again from it). One commit per step.
  deps.store.writes.boundary();
  const routing = routeFor(state, spec.model, spec.routingPolicy);
  const turn = state.step + 1;
  state.routing = routing;
  compressIfNeeded(scope, routing);
  // No checkpoint here: routing is a pure function of the state, and a compression saved its own.
  // The routing decision is recorded with the turn it is for. The row is written with the turn's outcome (its
  // answer, a retry, a failure), stamped with the time the request was sent: written now, the event loop turning
  // while the model answers would commit it alone, and every step would commit twice.
  const sentAt = deps.now();
  let isStartLogged = false;
  const logStart = (): void => {
    if (isStartLogged) return;
    isStartLogged = true;
    logRuntime(deps, spec, 'turn_start', turn, { model: routing.resolved, routing }, undefined, sentAt);
  };

  const request = turnRequest(scope, routing);
  const sentMessages = request.messages.length;
  let streamed: Awaited<ReturnType<typeof streamWithRetries>>;
  try {
    streamed = await streamWithRetries(scope, model, request, logStart);
  } finally {
    logStart();
  }
  const { output, usage } = streamed;
  const calls = withOwnIds(deps, spec.runId, output.calls);
  // The refused calls as `calls` holds them (with an id of their own if the model repeated theirs).
  const refused = output.refused.map((entry) => ({
    ...entry,
    call: calls[output.calls.indexOf(entry.call)] ?? entry.call,
  }));
  const parts: ModelPart[] = output.text ? [{ kind: 'text', text: output.text }] : [];
  let intent: ReturnType<typeof takeIntent> = { calls, isStated: false, question: null };
  deps.store.transaction(() => {
    state.step = turn;
    state.messages.push({ role: 'model', parts: [...parts, ...calls] });
    // A call whose arguments are not an object is refused before anything (the intent, a plan, a control call)
    // reads them.
    const wellFormed = refuseBadArgs(scope, calls, refused);
    // The intent is read before anything runs: an unsure one, or one naming two Sarahs, runs nothing of the turn.
    intent = takeIntent(scope, wellFormed, turn, {
      of: (call) => peopleReach(scope, call),
      recipients: (call) => namedRecipients(scope, call),
    });
    // What may run is decided with the turn, so a crash right after cannot run what was not allowed.
    state.pendingCalls = intent.question ? [] : runnableCalls(scope, intent.calls);
    if (output.text) saveAssistantText(deps, spec, output.text);
    setTurnTokens(state, usage ? usage.inputTokens + usage.outputTokens : null);
    if (usage) {
      const now = isoTime(deps.now());
      state.usage = {
        inputTokens: state.usage.inputTokens + usage.inputTokens,
        outputTokens: state.usage.outputTokens + usage.outputTokens,
        prompt: { tokens: usage.inputTokens, messageCount: sentMessages },
      };
      deps.store.runs.addUsage(spec.runId, usage.inputTokens, usage.outputTokens);
      deps.store.policy.recordTokens(spec.runId, now, usage.totalTokens);
      deps.emit({ type: 'usage', runId: spec.runId, threadId: spec.threadId, usage });
    }
    logRuntime(deps, spec, 'turn_end', turn, {
      model: routing.resolved,
      finishReason: output.finishReason,
      calls: calls.map((call) => call.name),
      ...(usage && { usage }),
    });
    deps.checkpoints.save(spec, state);
  });
  return {
    ...output,
    calls: intent.calls,
    refused,
    intent: { isStated: intent.isStated, question: intent.question },
  };
}

/**
 * How a call would act towards other people (it has a reach: recipients, attendees, a channel): by their mail
 * address (a Google tool: a mail, an invitation), elsewhere (Slack), or not at all (null).
 */
function peopleReach(scope: CallScope, call: CallPart): PeopleReach | null {
  const tool = scope.deps.registry.get(call.name);
  if (tool?.hasSideEffects !== true || tool.reach === undefined) return null;
  return tool.requires === 'google' ? 'mail' : 'elsewhere';
}

/** The addresses a call's arguments name (a mail's recipients, an event's attendees); none when they do not check. */
function namedRecipients(scope: CallScope, call: CallPart): string[] {
  const checked = scope.deps.registry.check(call.name, call.args);
  return checked.ok ? (checked.tool.recipients?.(checked.input) ?? []) : [];
}

// The registry hands out the same declarations array until a tool is added: measure each array once.
const toolsTokenCache = new WeakMap<ToolDeclaration[], number>();
function toolsTokens(tools: ToolDeclaration[]): number {
  let tokens = toolsTokenCache.get(tools);
  if (tokens === undefined) {
    tokens = estimateTokens(JSON.stringify(tools));
    toolsTokenCache.set(tools, tokens);
  }
  return tokens;
}

/** Keeps the prompt under the threshold: the summary goes into the state (and its checkpoint) and is reused. */
function compressIfNeeded(scope: CallScope, routing: RoutingDecision): void {
  const { deps, spec, state } = scope;
  const config: ContextConfig = { ...DEFAULT_CONTEXT, maxTokens: contextWindowOf(routing.resolved) };
  const tokens = promptTokens({
    systemInstruction: state.systemInstruction,
    messages: state.messages,
    toolsTokens: toolsTokens(turnRequest(scope, routing).tools),
    known: state.usage.prompt,
  });
  if (!needsCompression(tokens, config)) return;
  const compressed = compressContext(state.messages, state.compaction?.summary ?? null, config);
  if (!compressed) return;
  deps.store.transaction(() => {
    state.messages = compressed.messages;
    state.compaction = {
      summary: compressed.summary,
      droppedMessages: (state.compaction?.droppedMessages ?? 0) + compressed.droppedMessages,
    };
    state.usage = { ...state.usage, prompt: null };
    logRuntime(deps, spec, 'compression', state.step + 1, {
      tokensBefore: tokens,
      window: config.maxTokens,
      droppedMessages: compressed.droppedMessages,
      summaryChars: compressed.summary.length,
    });
    deps.checkpoints.save(spec, state);
  });
}

/** `logStart` records the turn's start: before a failure of the stream is counted. */
async function streamWithRetries(
  scope: CallScope,
  model: ModelClient,
  request: TurnRequest,
  logStart: () => void,
): Promise<{ output: TurnOutput; usage: ModelUsage | null }> {
  const { deps, spec } = scope;
  for (let retries = 0; ; retries += 1) {
    let hasOutput = false;
    try {
      return await streamOnce(scope, model, request, () => {
        hasOutput = true;
      });
    } catch (error) {
      // Text already shown cannot be taken back: only a call that failed before any output is tried again.
      if (!(error instanceof ModelError) || hasOutput || spec.signal.aborted) throw error;
      logStart();
      const verdict = noteFailure(
        scope,
        {
          transient: TRANSIENT_MODEL_ERRORS.has(error.kind),
          retryAfterSeconds: error.retryAfterSeconds,
          signature: errorSignature('model', error.kind, error.message),
        },
        retries,
        null,
        { model: request.model, errorKind: error.kind },
      );
      if (!verdict.retry) throw error;
      deps.emit({
        type: 'notice',
        runId: spec.runId,
        threadId: spec.threadId,
        actionId: spec.runId,
        tool: MODEL_NOTICE_SOURCE,
        message: modelRetryNotice(error.kind, verdict.delayMs),
        retryAt: retryAt(deps.now(), verdict.delayMs),
      });
      try {
        await deps.sleep(verdict.delayMs, spec.signal);
      } catch {
        throw new ModelError('cancelled', 'Stopped.');
      }
    }
  }
}

async function streamOnce(
  scope: CallScope,
  model: ModelClient,
  request: TurnRequest,
  onOutput: () => void,
): Promise<{ output: TurnOutput; usage: ModelUsage | null }> {
  const { deps, spec } = scope;
  const ids = { runId: spec.runId, threadId: spec.threadId };
  const output: TurnOutput = { text: '', calls: [], refused: [], finishReason: 'MISSING' };
  let usage: ModelUsage | null = null;
  const stream = model.stream({ ...request, signal: spec.signal });
  for await (const event of stream) {
    // Twenty answers streaming at once would each handle their chunks in the same turn of the loop: a run
    // that has had the main thread for a while lets the others (and the person's clicks) go first. A chunk
    // writes nothing, so the wait does not hold the step's unit of work open: what others wrote commits as usual.
    await fairTurn();
    if (event.type === 'thinking') {
      // Thought summaries are shown, not kept in the run's state: the model does not read them back.
      onOutput();
      if (spec.showThinking) deps.emit({ type: 'thinking', ...ids, text: redactSecrets(event.text) });
    } else if (event.type === 'text') {
      onOutput();
      output.text += event.text;
      deps.emit({ type: 'delta', ...ids, delta: event.text });
    } else if (event.type === 'function_call') {
      onOutput();
      const call: CallPart = {
        kind: 'call',
        callId: event.callId,
        name: event.name,
        args: event.args,
        ...(event.signature !== undefined && { signature: event.signature }),
      };
      output.calls.push(call);
      if (event.argsSentAs !== undefined) output.refused.push({ call, sentAs: event.argsSentAs });
    } else {
      output.finishReason = event.finishReason;
      usage = event.usage;
    }
  }
  // The model's text enters the run's state redacted, so the checkpoint holds what the thread shows. Its
  // calls are kept as written: they run exactly as approved (and the model saw no secret to copy into them).
  return { output: { ...output, text: redactSecrets(output.text) }, usage };
}
