import type {
  ActionState,
  Approval,
  CallNames,
  LedgerState,
  LineageNode,
  RunEvent,
  RunResponse,
  RunStatus,
} from '../../../../shared/contract';
import type { RunUsage } from './run-cost';
import { markRecovered, placeAfterRun, type RunMark } from './run-marks';
import { markUndoWaiting, markUndone, moveTool, outcomeOf, upsertTool } from './tool-items';

/**
 * One entry of a conversation as the window shows it: a message, a tool-call card, an approval card (where
 * a run paused for the user), an error, a notice, or a quiet mark about how a run went (see run-marks.ts).
 */
export type TimelineItem =
  | {
      kind: 'message';
      id: string;
      runId: string | null;
      role: 'user' | 'assistant';
      text: string;
      isStreaming: boolean;
      /** The run's answer came in the final turn it was granted to wrap up. */
      isRecovered?: boolean;
      /** The person's question asked again after its turn failed: shown once (see turns.ts). */
      isRepeat?: boolean;
    }
  | {
      kind: 'tool';
      id: string;
      runId: string;
      tool: string;
      args: Record<string, unknown>;
      state: ActionState;
      /** What the person knows the ids among its arguments by ("C0RANDOM01" → "#random"), when the host said. */
      names?: CallNames;
      /** The ledger's finer state, known only from a stored thread; dropped when the stream moves the card on. */
      ledgerState?: LedgerState;
      /** Undone, from its card or the audit trail. */
      isUndone?: boolean;
      /** Where it stands for Undo, from its result or its stored action (see `ActionRecord`). */
      canUndo?: boolean;
      undoNote?: string;
      isUndoWaiting?: boolean;
      result?: unknown;
      error?: string | null;
      /** What `error` says, as a code (`cancelled`: cut off because its run was stopped); absent on older calls. */
      errorCode?: string;
    }
  | {
      kind: 'approval';
      id: string;
      runId: string;
      actionId: string;
      /** As `approval_needed` carried it; null for a stored thread, whose approvals are looked up by action. */
      approval: Approval | null;
    }
  | {
      kind: 'error';
      id: string;
      runId: string | null;
      message: string;
      code?: string;
      /** What the person sent, when the send itself failed (no run to find it by): Retry sends it again. */
      prompt?: string;
    }
  /**
   * `tool`: whom the notice is from, as its event names it (a tool, Gemini for a model call, an agent);
   * `retryAt`: for a step that failed, when it is tried again.
   */
  | { kind: 'notice'; id: string; runId: string; text: string; tool?: string; retryAt?: string }
  | { kind: 'mark'; id: string; runId: string; mark: RunMark };

type ApprovalItem = Extract<TimelineItem, { kind: 'approval' }>;

export interface Conversation {
  threadId: string | null;
  items: TimelineItem[];
  /** The run this window is waiting on, if any; null once it ends. */
  /** `queuePosition`: while queued behind the cap on runs at once, how many runs must finish first. */
  activeRun: { runId: string; status: RunStatus; queuePosition?: number } | null;
  /** Runs that ended here, so a late `run.start` reply does not mark one as running again. */
  endedRunIds: string[];
  /** Child runs (agents a call started) heard starting here: their rows show before they say anything. */
  childRunIds: string[];
  /** The agent trees of its runs as the stored conversation was read: an agent's words nest from the first drawing. */
  lineage?: LineageNode[];
  /** Tokens each run used: added up from its `usage` events while live, from its run record when stored. */
  usage?: Record<string, RunUsage>;
}

export const emptyConversation = (threadId: string | null = null): Conversation => ({
  threadId,
  items: [],
  activeRun: null,
  endedRunIds: [],
  childRunIds: [],
});

export const isRunActive = (status: RunStatus): boolean =>
  status === 'queued' || status === 'planning' || status === 'executing';

const stopStreaming = (items: TimelineItem[], runId: string): TimelineItem[] =>
  items.map((item) =>
    item.kind === 'message' && item.runId === runId && item.isStreaming
      ? { ...item, isStreaming: false }
      : item,
  );

/** Notices ("Trying again in 1 s") speak of a run in progress: they go when it ends. */
const dropNotices = (items: TimelineItem[], runId: string): TimelineItem[] =>
  items.some((item) => item.kind === 'notice' && item.runId === runId)
    ? items.filter((item) => !(item.kind === 'notice' && item.runId === runId))
    : items;

function endRun(conversation: Conversation, runId: string): Conversation {
  return {
    ...conversation,
    items: dropNotices(stopStreaming(conversation.items, runId), runId),
    activeRun: conversation.activeRun?.runId === runId ? null : conversation.activeRun,
    endedRunIds: conversation.endedRunIds.includes(runId)
      ? conversation.endedRunIds
      : [...conversation.endedRunIds, runId],
  };
}

/** The approval card of an action, placed right under its tool-call card. */
export const approvalItem = (runId: string, actionId: string, approval: Approval | null): ApprovalItem => ({
  kind: 'approval',
  id: `approval-${actionId}`,
  runId,
  actionId,
  approval,
});

/** The approval card goes right under its tool-call card (made here if the run sent none). */
function placeApproval(items: TimelineItem[], approval: Approval): TimelineItem[] {
  const card = approvalItem(approval.runId, approval.actionId, approval);
  if (items.some((item) => item.id === card.id))
    return items.map((item) => (item.id === card.id ? card : item));
  const withTool = upsertTool(
    items,
    approval.actionId,
    () => ({
      kind: 'tool',
      id: approval.actionId,
      runId: approval.runId,
      tool: approval.tool,
      args: approval.args,
      state: 'awaiting_confirmation',
    }),
    (tool) => tool,
  );
  const index = withTool.findIndex((item) => item.kind === 'tool' && item.id === approval.actionId);
  return [...withTool.slice(0, index + 1), card, ...withTool.slice(index + 1)];
}

/** What a run's result adds: the answer a host that does not stream sends as the summary, an error, a notice. */
function itemsOfResult(items: TimelineItem[], runId: string, result: RunResponse): TimelineItem[] {
  const { status, summary } = result;
  const isOfRun = (kind: TimelineItem['kind']) =>
    items.some((item) => item.kind === kind && item.runId === runId);
  const hasText = items.some(
    (item) => item.kind === 'message' && item.role === 'assistant' && item.runId === runId,
  );
  if (status === 'completed' && !hasText && summary) {
    return [
      ...items,
      { kind: 'message', id: `result-${runId}`, runId, role: 'assistant', text: summary, isStreaming: false },
    ];
  }
  if (status === 'failed' && !isOfRun('error')) {
    return [...items, { kind: 'error', id: `error-${runId}`, runId, message: summary || 'The run failed.' }];
  }
  // The approval card already says what the run waits for; the summary would only repeat it.
  if (status === 'awaiting_confirmation' && summary && !isOfRun('approval')) {
    return [...items, { kind: 'notice', id: `notice-${runId}`, runId, text: summary }];
  }
  return items;
}

/** Folds one run event into the conversation. Unknown event types leave it unchanged. */
export function applyRunEvent(conversation: Conversation, event: RunEvent): Conversation {
  const { runId } = event;
  const items = conversation.items;
  switch (event.type) {
    case 'status':
      // An agent's child run streams into its parent's conversation; the window keeps following the parent.
      if (event.parentRunId)
        return conversation.childRunIds.includes(runId)
          ? conversation
          : { ...conversation, childRunIds: [...conversation.childRunIds, runId] };
      if (!isRunActive(event.status)) return endRun(conversation, runId);
      // An active status after an end is a resumed run (for example after an approval).
      return {
        ...conversation,
        activeRun: {
          runId,
          status: event.status,
          ...(event.queuePosition !== undefined && { queuePosition: event.queuePosition }),
        },
        endedRunIds: conversation.endedRunIds.filter((id) => id !== runId),
      };
    case 'delta': {
      const last = items.at(-1);
      if (last?.kind === 'message' && last.role === 'assistant' && last.runId === runId && last.isStreaming) {
        return {
          ...conversation,
          items: [...items.slice(0, -1), { ...last, text: last.text + event.delta }],
        };
      }
      const message: TimelineItem = {
        kind: 'message',
        id: `stream-${runId}-${items.length}`,
        runId,
        role: 'assistant',
        text: event.delta,
        isStreaming: true,
      };
      return { ...conversation, items: [...stopStreaming(items, runId), message] };
    }
    case 'tool_call': {
      // An event that names nothing (one carried out after its approval) leaves the names the card had.
      const change = { args: event.args, state: event.state, ...(event.names && { names: event.names }) };
      return {
        ...conversation,
        items: upsertTool(
          stopStreaming(items, runId),
          event.actionId,
          () => ({ kind: 'tool', id: event.actionId, runId, tool: event.tool, ...change }),
          (card) => moveTool(card, change),
        ),
      };
    }
    case 'tool_result':
      return {
        ...conversation,
        items: upsertTool(
          items,
          event.actionId,
          () => ({
            kind: 'tool',
            id: event.actionId,
            runId,
            tool: event.tool,
            args: {},
            ...outcomeOf(event),
          }),
          (card) => moveTool(card, outcomeOf(event)),
        ),
      };
    case 'approval_needed':
      return { ...conversation, items: placeApproval(stopStreaming(items, runId), event.approval) };
    case 'notice':
      // An action undone (from its card, the audit trail, an approval): its card says so, as a reopened one does.
      if (event.isUndone) return { ...conversation, items: markUndone(items, event.actionId) };
      // One that did not happen: the card offers Undo again, and says why under it (the card's undo store).
      if (event.undoNotDone) return { ...conversation, items: markUndoWaiting(items, event.actionId, false) };
      // One that waits for approval, asked for elsewhere (the audit trail, another window): the card says so.
      if (event.isUndoWaiting)
        return { ...conversation, items: markUndoWaiting(items, event.actionId, true) };
      return {
        ...conversation,
        items: [
          ...items.filter((item) => item.id !== `notice-${event.actionId}`),
          {
            kind: 'notice',
            id: `notice-${event.actionId}`,
            runId,
            text: event.message,
            tool: event.tool,
            ...(event.retryAt !== undefined && { retryAt: event.retryAt }),
          },
        ],
      };
    case 'error': {
      const isShown = items.some((item) => item.kind === 'error' && item.runId === runId);
      const error: TimelineItem = {
        kind: 'error',
        id: `error-${runId}`,
        runId,
        message: event.error,
        ...(event.code !== undefined && { code: event.code }),
      };
      const ended = endRun(conversation, runId);
      // After the run's own rows: a run replaced by a newer question (Send anyway over its approval) ends
      // once that question is shown, and its ending belongs to its own turn, as a reload shows it.
      return isShown ? ended : { ...ended, items: placeAfterRun(ended.items, runId, error) };
    }
    case 'usage': {
      const before = conversation.usage?.[runId];
      const usage: RunUsage = {
        ...before,
        inputTokens: (before?.inputTokens ?? 0) + event.usage.inputTokens,
        outputTokens: (before?.outputTokens ?? 0) + event.usage.outputTokens,
      };
      return { ...conversation, usage: { ...conversation.usage, [runId]: usage } };
    }
    case 'result': {
      const before = conversation.usage?.[runId];
      if (before)
        conversation = {
          ...conversation,
          usage: { ...conversation.usage, [runId]: { ...before, model: event.result.model } },
        };
      const ended = endRun(conversation, runId);
      const items = itemsOfResult(ended.items, runId, event.result);
      // A recovered run finished, but not on its own terms: it must never read as a plain success.
      const isRecovered = event.result.recovered === true && event.result.status !== 'failed';
      return { ...ended, items: isRecovered ? markRecovered(items, runId) : items };
    }
    default:
      return conversation;
  }
}
