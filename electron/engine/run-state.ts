import { z } from 'zod';
import { RoutingPolicy } from '../../shared/contract';
import type { ModelMessage, ModelPart } from '../llm/model-client';
import type { RoutingDecision } from './routing';

export type CallPart = Extract<ModelPart, { kind: 'call' }>;
export type ResultPart = Extract<ModelPart, { kind: 'result' }>;

/** The last call that reached the ledger; its arguments and result are read from there, not copied here. */
export interface LastAction {
  id: string;
  tool: string;
}

/** A call of the current turn held for the user's decision; the turn's other calls go on without it. */
export interface AwaitingCall {
  call: CallPart;
  actionId: string;
  approvalId: string;
}

export const RUN_STATE_VERSION = 2;

/**
 * Everything the next step of a run needs, checkpointed after every tool result and at every turn boundary
 * (DESIGN.md §5): what the model sees (after compression, with the summary of what was compressed), the calls
 * of the current turn still open and those held for approval, the routing decision, usage, retry memory, how
 * long the run has been active and whether it is in its final-warning turn. It never holds a secret.
 */
export interface RunState {
  version: typeof RUN_STATE_VERSION;
  systemInstruction: string;
  messages: ModelMessage[];
  /** Set once older messages were replaced by a summary; the summary is reused (and extended) on resume. */
  compaction: { summary: string; droppedMessages: number } | null;
  /** Model turns taken. */
  step: number;
  /** Calls of the current turn without a result yet (a started one included: the ledger says how far it got). */
  pendingCalls: CallPart[];
  /** Results of the current turn so far; they go back to the model in the order of its calls. */
  turnResults: ResultPart[];
  awaiting: AwaitingCall[];
  lastAction: LastAction | null;
  routing: RoutingDecision | null;
  usage: {
    inputTokens: number;
    outputTokens: number;
    /** The prompt size the model reported, and at how many messages: the base of the next estimate. */
    prompt: { tokens: number; messageCount: number } | null;
  };
  /** How often each error signature has failed in this run: one seen twice is not retried again. */
  retry: { signatures: Record<string, number> };
  /** Time spent running (not waiting for approval, not while Deputy was closed), for the time limit. */
  activeMs: number;
  /** In the final-warning turn: only a final answer (or `complete_task`) is accepted. */
  recovery: boolean;
  /** The role SOP's current phase (null: the first, or the agent has no SOP). */
  sopPhase: string | null;
  /** Successful tool calls in the current phase, for its quality gate. */
  sopResults: number;
}

export function initialState(systemInstruction: string, messages: ModelMessage[]): RunState {
  return {
    version: RUN_STATE_VERSION,
    systemInstruction,
    messages,
    compaction: null,
    step: 0,
    pendingCalls: [],
    turnResults: [],
    awaiting: [],
    lastAction: null,
    routing: null,
    usage: { inputTokens: 0, outputTokens: 0, prompt: null },
    retry: { signatures: {} },
    activeMs: 0,
    recovery: false,
    sopPhase: null,
    sopResults: 0,
  };
}

const record = z.record(z.string(), z.unknown());
const callPart = z.object({
  kind: z.literal('call'),
  callId: z.string(),
  name: z.string(),
  args: record,
  signature: z.string().optional(),
});
const resultPart = z.object({
  kind: z.literal('result'),
  callId: z.string(),
  name: z.string(),
  result: record,
});
const part = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  callPart,
  resultPart,
]);
const lastAction = z.object({ id: z.string(), tool: z.string() }).nullable();
const awaiting = z.object({ call: callPart, actionId: z.string(), approvalId: z.string() });
const messages = z.array(z.object({ role: z.enum(['user', 'model']), parts: z.array(part) }));

/**
 * How a state is checkpointed: the calls of the current turn by id (they are in the last model message), and
 * the turn's results so far as the message they will become. A checkpoint delta then holds each call and each
 * result once, not again when the turn closes.
 */
const StoredRunStateV2 = z.object({
  version: z.literal(2),
  systemInstruction: z.string(),
  messages,
  /** How many of the last message's parts are results of the open turn (0: the turn has no result yet). */
  openResults: z.number().int().min(0),
  compaction: z.object({ summary: z.string(), droppedMessages: z.number().int().min(0) }).nullable(),
  step: z.number().int().min(0),
  pendingCallIds: z.array(z.string()),
  awaiting: z.array(z.object({ callId: z.string(), actionId: z.string(), approvalId: z.string() })),
  lastAction,
  routing: z
    .object({
      requested: z.string(),
      resolved: z.string(),
      reason: z.string(),
      policy: RoutingPolicy,
      phase: z.enum(['plan', 'act', 'recover']),
    })
    .nullable(),
  usage: z.object({
    inputTokens: z.number().min(0),
    outputTokens: z.number().min(0),
    prompt: z.object({ tokens: z.number().min(0), messageCount: z.number().int().min(0) }).nullable(),
  }),
  retry: z.object({ signatures: z.record(z.string(), z.number().int().min(0)) }),
  activeMs: z.number().min(0),
  recovery: z.boolean(),
  /** Added with agent SOPs; checkpoints from before have none (no SOP, first phase). */
  sopPhase: z.string().nullable().optional(),
  sopResults: z.number().int().min(0).optional(),
});
type StoredRunState = z.infer<typeof StoredRunStateV2>;

/** The results of a turn in the order of the model's calls (the order they go back in). */
export function inCallOrder(messages: readonly ModelMessage[], results: readonly ResultPart[]): ResultPart[] {
  const calls = lastModelCalls(messages);
  const order = new Map(calls.map((call, index) => [call.callId, index]));
  return [...results].sort((a, b) => (order.get(a.callId) ?? Infinity) - (order.get(b.callId) ?? Infinity));
}

function lastModelCalls(messages: readonly ModelMessage[]): CallPart[] {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'model')
      return message.parts.filter((part): part is CallPart => part.kind === 'call');
  }
  return [];
}

/** The state as a checkpoint holds it (see StoredRunStateV2). */
export function toStoredState(state: RunState): StoredRunState {
  const results = inCallOrder(state.messages, state.turnResults);
  return {
    version: state.version,
    systemInstruction: state.systemInstruction,
    messages: results.length > 0 ? [...state.messages, { role: 'user', parts: results }] : state.messages,
    openResults: results.length,
    compaction: state.compaction,
    step: state.step,
    pendingCallIds: state.pendingCalls.map((call) => call.callId),
    awaiting: state.awaiting.map(({ call, actionId, approvalId }) => ({
      callId: call.callId,
      actionId,
      approvalId,
    })),
    lastAction: state.lastAction,
    routing: state.routing,
    usage: state.usage,
    retry: state.retry,
    activeMs: state.activeMs,
    recovery: state.recovery,
    ...(state.sopPhase !== null && { sopPhase: state.sopPhase, sopResults: state.sopResults }),
  };
}

function fromStoredState(stored: StoredRunState): RunState | null {
  const messages = [...stored.messages];
  let turnResults: ResultPart[] = [];
  if (stored.openResults > 0) {
    const open = messages.pop();
    if (!open || open.role !== 'user' || open.parts.length !== stored.openResults) return null;
    turnResults = open.parts.filter((part): part is ResultPart => part.kind === 'result');
    if (turnResults.length !== stored.openResults) return null;
  }
  const calls = new Map(lastModelCalls(messages).map((call) => [call.callId, call]));
  const pendingCalls = stored.pendingCallIds.map((id) => calls.get(id));
  const awaiting = stored.awaiting.map((entry) => {
    const call = calls.get(entry.callId);
    return call && { call, actionId: entry.actionId, approvalId: entry.approvalId };
  });
  // A call id that is not in the last model message means the checkpoint does not fit together.
  if (pendingCalls.some((call) => !call) || awaiting.some((entry) => !entry)) return null;
  return {
    version: RUN_STATE_VERSION,
    systemInstruction: stored.systemInstruction,
    messages,
    compaction: stored.compaction,
    step: stored.step,
    pendingCalls: pendingCalls.filter((call): call is CallPart => call !== undefined),
    turnResults,
    awaiting: awaiting.filter((entry): entry is AwaitingCall => entry !== undefined),
    lastAction: stored.lastAction,
    routing: stored.routing,
    usage: stored.usage,
    retry: stored.retry,
    activeMs: stored.activeMs,
    recovery: stored.recovery,
    sopPhase: stored.sopPhase ?? null,
    sopResults: stored.sopResults ?? 0,
  };
}

/** What a run paused for approval stored before durable runs (schema version 1). */
const StoredRunStateV1 = z.object({
  version: z.literal(1),
  systemInstruction: z.string(),
  messages,
  step: z.number().int().min(0),
  pendingCalls: z.array(callPart),
  turnResults: z.array(resultPart),
  awaiting: awaiting.nullable(),
  lastAction,
});

/** Reads a stored state back (upgrading an older version); anything that does not fit is unreadable, not guessed at. */
export function parseRunState(value: unknown): RunState | null {
  const current = StoredRunStateV2.safeParse(value);
  if (current.success) return fromStoredState(current.data);
  const old = StoredRunStateV1.safeParse(value);
  if (!old.success) return null;
  return {
    ...initialState(old.data.systemInstruction, old.data.messages),
    step: old.data.step,
    pendingCalls: old.data.pendingCalls,
    turnResults: old.data.turnResults,
    awaiting: old.data.awaiting ? [old.data.awaiting] : [],
    lastAction: old.data.lastAction,
  };
}

/** The calls that were asked for in the current turn but have no result: pending ones and those held for approval. */
export function openCalls(state: RunState): CallPart[] {
  return [...state.awaiting.map((entry) => entry.call), ...state.pendingCalls];
}
