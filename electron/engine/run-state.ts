import { z } from 'zod';
import type { ModelMessage, ModelPart } from '../llm/model-client';

export type CallPart = Extract<ModelPart, { kind: 'call' }>;
export type ResultPart = Extract<ModelPart, { kind: 'result' }>;

export interface LastAction {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  result?: Record<string, unknown>;
}

/**
 * Everything a run needs to take its next step: what the model has seen, how many turns it took, the calls of
 * the current turn still to handle, and the call waiting for the user's decision. Stored when a run pauses.
 */
export interface RunState {
  version: 1;
  systemInstruction: string;
  messages: ModelMessage[];
  step: number;
  pendingCalls: CallPart[];
  turnResults: ResultPart[];
  awaiting: { call: CallPart; actionId: string; approvalId: string } | null;
  lastAction: LastAction | null;
}

export function initialState(systemInstruction: string, messages: ModelMessage[]): RunState {
  return {
    version: 1,
    systemInstruction,
    messages,
    step: 0,
    pendingCalls: [],
    turnResults: [],
    awaiting: null,
    lastAction: null,
  };
}

const record = z.record(z.string(), z.unknown());
const callPart = z.object({ kind: z.literal('call'), callId: z.string(), name: z.string(), args: record });
const part = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  callPart,
  z.object({ kind: z.literal('result'), callId: z.string(), name: z.string(), result: record }),
]);
const StoredRunState = z.object({
  version: z.literal(1),
  systemInstruction: z.string(),
  messages: z.array(z.object({ role: z.enum(['user', 'model']), parts: z.array(part) })),
  step: z.number().int().min(0),
  pendingCalls: z.array(callPart),
  turnResults: z.array(
    z.object({ kind: z.literal('result'), callId: z.string(), name: z.string(), result: record }),
  ),
  awaiting: z.object({ call: callPart, actionId: z.string(), approvalId: z.string() }).nullable(),
  lastAction: z
    .object({ id: z.string(), tool: z.string(), args: record, result: record.optional() })
    .nullable(),
});

/** Reads a stored state back; anything that does not fit is reported as unreadable rather than guessed at. */
export function parseRunState(value: unknown): RunState | null {
  const parsed = StoredRunState.safeParse(value);
  return parsed.success ? parsed.data : null;
}
