import { z } from 'zod';
import { LineageNode } from './agents';
import { Approval } from './approvals';
import { Plan } from './plans';
import { ActionState, CallNames, LedgerState, RunStatus } from './run';
import { LIMITS } from './limits';
import { RunIntent } from './intent';

export const ThreadSummary = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastRunStatus: RunStatus.nullable(),
  /** Why a failed last run ended (its run record's errorCode): `cancelled` is a run the person stopped. */
  lastRunErrorCode: z.string().nullable().optional(),
  /**
   * True when that `cancelled` run ended because the person cancelled its plan (not with Stop): the list says
   * "cancelled", as the plan's tree does. Absent otherwise.
   */
  isLastRunPlanCancelled: z.literal(true).optional(),
});
export type ThreadSummary = z.infer<typeof ThreadSummary>;

export const ThreadsListInput = z
  .object({
    limit: z.number().int().min(1).max(LIMITS.threadListPage).optional(),
    before: z.string().optional(),
  })
  .default({});
export const ThreadsListOutput = z.object({
  threads: z.array(ThreadSummary),
  nextBefore: z.string().nullable(),
});

export const MessageRecord = z.object({
  id: z.string(),
  threadId: z.string(),
  runId: z.string().nullable(),
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  createdAt: z.string(),
});
export type MessageRecord = z.infer<typeof MessageRecord>;

export const ActionRecord = z.object({
  id: z.string(),
  runId: z.string(),
  threadId: z.string(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  state: ActionState,
  /** Names of ids its arguments give, as its `tool_call` event carried them; absent on calls stored before they were. */
  names: CallNames.optional(),
  /** The ledger's own state, finer than `state` (started, committed, unknown…). */
  ledgerState: LedgerState.optional(),
  result: z.unknown().optional(),
  error: z.string().nullable(),
  /** What `error` says, as a code (the `code` of its `tool_result` event); absent on calls stored before it was kept. */
  errorCode: z.string().optional(),
  /** Which policy rule decided the call, and why (absent for calls that never reached the policy). */
  policy: z.object({ decision: z.string(), rule: z.string(), reason: z.string() }).nullable().optional(),
  /** Undone, from its card or the audit trail (its entry is `rolled_back`). */
  isUndone: z.boolean().optional(),
  /**
   * From its audit entry: it is done and can be undone now (`audit.undo`). Absent where it has no entry (a call
   * stored before the audit trail was kept), which offers no Undo.
   */
  canUndo: z.boolean().optional(),
  /** Done, with no Undo: why, in the entry's words ("A sent email cannot be unsent."). */
  undoNote: z.string().optional(),
  /** An undo of it waits for the person's approval (asking to undo again brings that approval back). */
  isUndoWaiting: z.boolean().optional(),
  createdAt: z.string(),
});
export type ActionRecord = z.infer<typeof ActionRecord>;

export const RunRecord = z.object({
  id: z.string(),
  threadId: z.string(),
  status: RunStatus,
  model: z.string(),
  summary: z.string().nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /** Spec 002's AgentDecision of the run (RESPOND_ONLY, INVOKE_TOOL, REQUEST_CLARIFICATION, REFUSE…) and its outcome. */
  decision: z.string().nullable().optional(),
  outcome: z.string().nullable().optional(),
  /** Finished in its final-warning turn, or picked up again after Deputy stopped mid-run. */
  recovered: z.boolean().optional(),
  resumed: z.boolean().optional(),
  /** Spec 004's intent analysis of the request, as the model stated it at the start of the run (or that it did not). */
  intent: RunIntent.nullable().optional(),
  /** Set on an agent's child run: the run that delegated to it (the conversation follows the top-level run). */
  parentRunId: z.string().optional(),
  /** The tokens the run's model turns used, added up (from its stored usage events). */
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RunRecord = z.infer<typeof RunRecord>;

export const ThreadGetInput = z.object({ threadId: z.string().min(1) });
/** A conversation's new title, as the person typed it. */
export const ThreadRenameInput = z
  .object({ threadId: z.string().min(1), title: z.string().trim().min(1).max(200) })
  .strict();
export const ThreadDetail = z.object({
  thread: ThreadSummary,
  messages: z.array(MessageRecord),
  actions: z.array(ActionRecord),
  runs: z.array(RunRecord),
  /** The plans the thread's runs made (spec 004), oldest first. */
  plans: z.array(Plan).optional(),
  /**
   * The approvals its calls asked for, decided or not, oldest first: a card shows how its approval went after a
   * reload as it did live. Absent from an older host.
   */
  approvals: z.array(Approval).optional(),
  /**
   * The agent trees of its runs that delegated (each as `runs.lineage` reads it): an agent's words are drawn in
   * its own block from the first drawing, not first as Deputy's and then moved. Absent from an older host.
   */
  lineage: z.array(LineageNode).optional(),
});
export type ThreadDetail = z.infer<typeof ThreadDetail>;

export const ThreadsSearchInput = z
  .object({
    query: z.string().trim().min(1).max(200),
    limit: z.number().int().min(1).max(50).optional(),
  })
  .strict();
export const ThreadSearchHit = z.object({
  thread: ThreadSummary,
  /** The message whose words matched, or null when the title did. */
  messageId: z.string().nullable(),
  /** A stretch of that message around the match (plain text; empty for a title match). */
  snippet: z.string(),
  /** [start, end) of each matched word in `snippet`, to mark without reading any markup. */
  highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
});
export type ThreadSearchHit = z.infer<typeof ThreadSearchHit>;
export const ThreadsSearchOutput = z.object({ hits: z.array(ThreadSearchHit) });
