import { z } from 'zod';
import { RoutingPolicy } from '../../shared/contract';
import type { ModelMessage, ModelPart } from '../llm/model-client';
import type { RoutingDecision } from './routing';

export type CallPart = Extract<ModelPart, { kind: 'call' }>;
export type ResultPart = Extract<ModelPart, { kind: 'result' }>;

export interface LastAction {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  result?: Record<string, unknown>;
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
const lastAction = z
  .object({ id: z.string(), tool: z.string(), args: record, result: record.optional() })
  .nullable();
const awaiting = z.object({ call: callPart, actionId: z.string(), approvalId: z.string() });
const messages = z.array(z.object({ role: z.enum(['user', 'model']), parts: z.array(part) }));

const StoredRunStateV2 = z.object({
  version: z.literal(2),
  systemInstruction: z.string(),
  messages,
  compaction: z.object({ summary: z.string(), droppedMessages: z.number().int().min(0) }).nullable(),
  step: z.number().int().min(0),
  pendingCalls: z.array(callPart),
  turnResults: z.array(resultPart),
  awaiting: z.array(awaiting),
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
});

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
  if (current.success) return current.data;
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
