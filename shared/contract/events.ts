import { z } from 'zod';
import { Approval } from './approvals';
import { Plan, PlanPatch } from './plans';
import { ActionState, CallNames, RunResponse, RunStatus } from './run';

/**
 * Run events: the runtime spec's NDJSON stream, extended as DESIGN.md §3 lists.
 * Clients ignore types they do not know, so later issues can add more without breaking old ones.
 */
const base = { runId: z.string(), threadId: z.string() };

export const StatusEvent = z.object({
  type: z.literal('status'),
  status: RunStatus,
  ...base,
  /** While `queued` behind the cap on runs at once: how many runs must finish before this one starts. */
  queuePosition: z.number().int().min(1).optional(),
  /** Set on an agent's child run: the run that delegated to it (the chat keeps following the parent). */
  parentRunId: z.string().optional(),
});
export const DeltaEvent = z.object({ type: z.literal('delta'), delta: z.string(), ...base });
export const ToolCallEvent = z.object({
  type: z.literal('tool_call'),
  ...base,
  actionId: z.string(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  state: ActionState,
  /** Names of ids its arguments give ("C0RANDOM01" → "#random"), when known; absent on events sent before it was. */
  names: CallNames.optional(),
});
export const ToolResultEvent = z.object({
  type: z.literal('tool_result'),
  ...base,
  actionId: z.string(),
  tool: z.string(),
  state: ActionState,
  result: z.unknown().optional(),
  error: z.string().optional(),
  /**
   * A failed call's error as a code, for a client to tell failures apart: `cancelled` is a call cut off because its
   * run was stopped (or its plan cancelled), not one that failed. Events stored before it was sent have none.
   */
  code: z.string().optional(),
  /** Completed, and its tool can undo it (from its card or the audit trail); absent on events sent before it was. */
  canUndo: z.boolean().optional(),
  /**
   * Completed, with a side effect its tool cannot undo: why, as `thread.get`'s action says it ("A sent email
   * cannot be unsent."). Absent on events sent before it was.
   */
  undoNote: z.string().optional(),
});
export const UsageEvent = z.object({
  type: z.literal('usage'),
  ...base,
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number(), totalTokens: z.number() }),
});
export const ApprovalNeededEvent = z.object({
  type: z.literal('approval_needed'),
  ...base,
  approval: Approval,
});
/**
 * Something Deputy did on its own that the user asked to hear about (autonomy level `notify`), or a step that
 * failed and will be tried again (`retryAt`: the instant the next try starts; until then the run only waits), an
 * action of the run that was undone (`isUndone`), an undo of one that waits for approval (`isUndoWaiting`), or an
 * undo of one that did not happen (`undoNotDone`).
 */
export const NoticeEvent = z.object({
  type: z.literal('notice'),
  ...base,
  actionId: z.string(),
  tool: z.string(),
  message: z.string(),
  retryAt: z.iso.datetime().optional(),
  /** The action (`actionId`) was undone: a client marks its card Undone rather than show the words. */
  isUndone: z.boolean().optional(),
  /**
   * An undo of the action (`actionId`) ended without undoing it: it `failed` (or cannot be told done), or was
   * `rejected` (turned down, or its approval expired). No undo of it waits any more and it can be undone again:
   * a client offers Undo on its card, with the words. Absent on events sent before it was.
   */
  undoNotDone: z.enum(['failed', 'rejected']).optional(),
  /**
   * An undo of the action (`actionId`) now waits for the person's approval, however it was asked for (its card,
   * the audit trail, another window): a client shows its card waiting rather than show the words. Absent on
   * events sent before it was.
   */
  isUndoWaiting: z.boolean().optional(),
});
/** The run's plan: the whole of it when proposed (`plan`), then each change (`patch`). */
export const PlanEvent = z.object({
  type: z.literal('plan'),
  ...base,
  plan: Plan.optional(),
  patch: PlanPatch.optional(),
});
/** The model's thought summaries, when Gemini returns them and the person switched them on. */
export const ThinkingEvent = z.object({ type: z.literal('thinking'), ...base, text: z.string() });
export const ResultEvent = z.object({ type: z.literal('result'), ...base, result: RunResponse });
export const ErrorEvent = z.object({
  type: z.literal('error'),
  ...base,
  error: z.string(),
  code: z.string().optional(),
});

export const RunEvent = z.discriminatedUnion('type', [
  StatusEvent,
  DeltaEvent,
  ToolCallEvent,
  ToolResultEvent,
  UsageEvent,
  ApprovalNeededEvent,
  NoticeEvent,
  PlanEvent,
  ThinkingEvent,
  ResultEvent,
  ErrorEvent,
]);
export type RunEvent = z.infer<typeof RunEvent>;
export type RunEventOf<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;

/** Subscribe to one run (replaying what it already emitted), one thread, or everything. */
export const RunEventsFilter = z.object({
  runId: z.string().min(1).optional(),
  threadId: z.string().min(1).optional(),
  /**
   * With `runId`: replay the run only when the host holds all it emitted since it was queued, words included, and
   * else only follow it from now. Without it, a run the host restarted since is replayed from its journal, which
   * keeps every event but the words (`delta`): a client that shows the words would lose them.
   */
  isWholeReplayOnly: z.boolean().optional(),
});
export type RunEventsFilter = z.infer<typeof RunEventsFilter>;
