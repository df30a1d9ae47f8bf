import { z } from 'zod';
import { PageCursor } from './paging';

/** Spec 002's DecisionLog: one per request, refusals before any run included. */
export const DecisionRecord = z.object({
  id: z.string(),
  seq: z.number().int(),
  /** Null for a request refused before it had a run (its input did not parse). */
  runId: z.string().nullable(),
  threadId: z.string().nullable(),
  agentId: z.string(),
  /** RESPOND_ONLY, INVOKE_TOOL, REQUEST_CLARIFICATION, REFUSE (or COMPLETE_TASK for a task agent). */
  decision: z.string(),
  /** SUCCESS:…, AMBIGUITY:UNCLEAR_INTENT, REFUSAL:RATE_LIMITED, REFUSAL:INVALID_INPUT, ERROR:…. */
  outcome: z.string(),
  /** What was asked (redacted, capped); gone with its conversation. */
  intent: z.string().nullable(),
  summary: z.string().nullable(),
  errorCode: z.string().nullable(),
  durationMs: z.number().nullable(),
  model: z.string().nullable(),
  tokensUsed: z.number().nullable(),
  /** The decision's entry in the hash-chained audit trail, when the request had a run. */
  auditEntryId: z.string().nullable(),
  createdAt: z.string(),
});
export type DecisionRecord = z.infer<typeof DecisionRecord>;

/** Spec 002's ToolInvocationLog: one per tool call (and undo), read from its audit entry. */
export const ToolInvocation = z.object({
  id: z.string(),
  /** The order of invocations: later calls have higher numbers. */
  sequence: z.number().int(),
  kind: z.enum(['tool_call', 'undo']),
  actionId: z.string().nullable(),
  runId: z.string().nullable(),
  threadId: z.string().nullable(),
  agentId: z.string(),
  tool: z.string(),
  category: z.string(),
  parameters: z.unknown(),
  result: z.unknown(),
  /** Null while it is pending. */
  success: z.boolean().nullable(),
  outcome: z.string(),
  errorMessage: z.string().nullable(),
  startedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  modelUsed: z.string().nullable(),
  /** The tokens of the model turn that asked for this call. */
  tokensUsed: z.number().nullable(),
  createdAt: z.string(),
});
export type ToolInvocation = z.infer<typeof ToolInvocation>;

const Id = z.string().min(1).max(128);
const Cursor = PageCursor.optional();
const Limit = z.number().int().min(1).max(200).optional();

export const DecisionListInput = z
  .object({
    runId: Id.optional(),
    threadId: Id.optional(),
    limit: Limit,
    cursor: Cursor,
  })
  .strict()
  .default({});
export const DecisionListOutput = z.object({
  decisions: z.array(DecisionRecord),
  nextCursor: z.string().nullable(),
});

export const ToolInvocationListInput = z
  .object({
    runId: Id.optional(),
    threadId: Id.optional(),
    tool: z.string().trim().min(1).max(100).optional(),
    limit: Limit,
    cursor: Cursor,
  })
  .strict()
  .default({});
export const ToolInvocationListOutput = z.object({
  invocations: z.array(ToolInvocation),
  nextCursor: z.string().nullable(),
});
