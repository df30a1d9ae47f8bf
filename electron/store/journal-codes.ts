import { z } from 'zod';
import type { RunEvent } from '../../shared/contract';

/** What the runtime log records (Keep-Up §5.6): enough to replay and explain a run after the fact. */
export const RuntimeEventType = z.enum([
  'turn_start',
  'turn_end',
  'tool_call_start',
  'tool_call_end',
  'recovery',
  'completion',
  'error',
  'routing',
  'retry',
  'compression',
  'resume',
]);
export type RuntimeEventType = z.infer<typeof RuntimeEventType>;

export const RuntimeEventSchema = z.object({
  type: RuntimeEventType,
  runId: z.string(),
  threadId: z.string(),
  agentId: z.string(),
  turn: z.number(),
  timestamp: z.string(),
  toolCallId: z.string().optional(),
  payload: z.record(z.string(), z.unknown()),
});

/**
 * One entry of a run's runtime log: what the engine did and why (turns, tool calls, retries, routing,
 * recovery). Unlike the stream events it is for diagnosis, not for the UI.
 */
export type RuntimeEvent = z.infer<typeof RuntimeEventSchema>;

/** The journal's type codes (migration 15's `journal_types`): frozen, a code is never reused. */
export const STREAM_CODES: Readonly<Record<RunEvent['type'], number>> = {
  status: 1,
  tool_call: 2,
  tool_result: 3,
  usage: 4,
  approval_needed: 5,
  notice: 6,
  plan: 7,
  thinking: 8,
  result: 9,
  error: 10,
  delta: 11,
};
export const RUNTIME_CODES: Readonly<Record<RuntimeEventType, number>> = {
  turn_start: 21,
  turn_end: 22,
  tool_call_start: 23,
  tool_call_end: 24,
  recovery: 25,
  completion: 26,
  error: 27,
  routing: 28,
  retry: 29,
  compression: 30,
  resume: 31,
};
export const STREAM_NAMES = new Map(Object.entries(STREAM_CODES).map(([name, code]) => [code, name]));
export const RUNTIME_NAMES = new Map(Object.entries(RUNTIME_CODES).map(([name, code]) => [code, name]));
export const FIRST_RUNTIME_CODE = 21;
