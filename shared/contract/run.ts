import { z } from 'zod';
import { LIMITS } from './limits';

/** Request and response shapes of the runtime spec (POST /api/agent/run), exactly. */
export const ConversationTurn = z.object({
  role: z.enum(['user', 'assistant']),
  text: z.string(),
});
export type ConversationTurn = z.infer<typeof ConversationTurn>;

export const AttachedContextItem = z.object({
  type: z.enum(['email', 'calendar_event']),
  id: z.string().min(1),
  title: z.string().optional(),
  snippet: z.string().optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});
export type AttachedContextItem = z.infer<typeof AttachedContextItem>;

export const RunRequest = z.object({
  prompt: z.string().trim().min(1, 'prompt must not be empty'),
  threadId: z.string().min(1).max(100).optional(),
  conversation: z.array(ConversationTurn).max(500).optional(),
  attachedContext: z.array(AttachedContextItem).max(100).optional(),
});
export type RunRequest = z.infer<typeof RunRequest>;

export const RunStatus = z.enum([
  'queued',
  'planning',
  'executing',
  'awaiting_confirmation',
  'completed',
  'failed',
]);
export type RunStatus = z.infer<typeof RunStatus>;

export const ActionState = z.enum([
  'planned',
  'awaiting_confirmation',
  'executing',
  'completed',
  'failed',
  'rejected',
]);
export type ActionState = z.infer<typeof ActionState>;

/**
 * What a person knows the ids among a call's arguments by, keyed by the id as the arguments give it: a Slack
 * channel C0RANDOM01 as "#random", a DM D0CAROL001 as "Slack DM with carol.c". The tool found them as the call
 * was decided (the approval names them so); a card's line reads them rather than the id.
 */
export const CallNames = z.record(z.string(), z.string());
export type CallNames = z.infer<typeof CallNames>;

/**
 * The ledger's finer states of DESIGN.md §5. `started` is written before a side effect and `committed` after;
 * a `started` call found after a crash is reconciled, and becomes `unknown` (the user is asked) when its effect
 * cannot be found. The contract's `ActionState` is derived from it for the stream and the HTTP API.
 */
export const LedgerState = z.enum([
  'planned',
  'awaiting_confirmation',
  'approved',
  'started',
  'committed',
  'failed',
  'rejected',
  'unknown',
]);
export type LedgerState = z.infer<typeof LedgerState>;

const CONTRACT_STATE: Record<LedgerState, ActionState> = {
  planned: 'planned',
  awaiting_confirmation: 'awaiting_confirmation',
  approved: 'executing',
  started: 'executing',
  committed: 'completed',
  failed: 'failed',
  rejected: 'rejected',
  // Nobody knows whether it happened, so the user is asked: to them it waits for a decision.
  unknown: 'awaiting_confirmation',
};

export function contractStateOf(state: LedgerState): ActionState {
  return CONTRACT_STATE[state];
}

/** How a run spends its tool calls: one per turn, or several at once up to `maxParallel`. */
export const ExecutionPolicy = z.enum(['interactive', 'batch']);
export type ExecutionPolicy = z.infer<typeof ExecutionPolicy>;

/** What model routing optimises for when it picks the model of a turn. */
export const RoutingPolicy = z.enum(['quality', 'cost', 'latency']);
export type RoutingPolicy = z.infer<typeof RoutingPolicy>;

export const ResponseMode = z.enum(['assistant_text', 'tool_call', 'approval_required']);
export type ResponseMode = z.infer<typeof ResponseMode>;

export const ApprovalSummary = z.object({
  id: z.string(),
  tool: z.string(),
  reason: z.string(),
  preview: z.string(),
});

export const RunResponse = z.object({
  ok: z.boolean(),
  runId: z.string(),
  actionId: z.string(),
  threadId: z.string(),
  status: z.enum(['completed', 'awaiting_confirmation', 'failed']),
  summary: z.string(),
  mode: ResponseMode,
  model: z.string(),
  tool: z.string().optional(),
  toolArgs: z.record(z.string(), z.unknown()).optional(),
  approval: ApprovalSummary.optional(),
  output: z.record(z.string(), z.unknown()).optional(),
  /** The run ended in its final-warning (recovery) turn: it finished, but not on its own terms. */
  recovered: z.boolean().optional(),
  /** Spec 002's AgentDecision: RESPOND_ONLY, INVOKE_TOOL, REQUEST_CLARIFICATION, REFUSE (or COMPLETE_TASK). */
  decision: z.string().optional(),
  /** Its outcome category: SUCCESS:TASK_COMPLETED, AMBIGUITY:UNCLEAR_INTENT, REFUSAL:OUT_OF_SCOPE, ERROR:…. */
  outcome: z.string().optional(),
  /** The run's plan, when it made one (spec 004). */
  planId: z.string().optional(),
});
export type RunResponse = z.infer<typeof RunResponse>;

/** What `run.start` answers at once; the run's progress arrives on `run.events`. */
export const RunStarted = z.object({ runId: z.string(), threadId: z.string() });
export type RunStarted = z.infer<typeof RunStarted>;

export const RunCancelInput = z.object({ runId: z.string().min(1) });
export const RunCancelOutput = z.object({ cancelled: z.boolean() });

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

// Control characters other than tab and newline have no business in a prompt and can hide text.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
export const cleanText = (text: string, max: number): string =>
  clip(text.replace(CONTROL_CHARS, '').trim(), max);

function cleanMeta(meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!meta) return undefined;
  const json = JSON.stringify(meta);
  return json.length <= LIMITS.contextMetaChars ? meta : undefined;
}

/** Sanitises and caps a parsed request: last N turns, each clipped; at most N context items, each clipped. */
export function normalizeRunRequest(request: RunRequest): RunRequest {
  const conversation = (request.conversation ?? [])
    .map((turn) => ({ role: turn.role, text: cleanText(turn.text, LIMITS.conversationTurnChars) }))
    .filter((turn) => turn.text.length > 0)
    .slice(-LIMITS.conversationTurns);
  const attachedContext = (request.attachedContext ?? []).slice(0, LIMITS.contextItems).map((item) => ({
    type: item.type,
    id: cleanText(item.id, LIMITS.contextIdChars),
    ...(item.title !== undefined && { title: cleanText(item.title, LIMITS.contextTitleChars) }),
    ...(item.snippet !== undefined && { snippet: cleanText(item.snippet, LIMITS.contextSnippetChars) }),
    ...(cleanMeta(item.meta) && { meta: cleanMeta(item.meta) }),
  }));
  return {
    prompt: cleanText(request.prompt, LIMITS.promptChars),
    ...(request.threadId !== undefined && { threadId: request.threadId }),
    ...(request.conversation !== undefined && { conversation }),
    ...(request.attachedContext !== undefined && { attachedContext }),
  };
}
