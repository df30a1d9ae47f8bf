import type { ActionState, Approval, RunEvent, RunStatus, ThreadDetail } from '../../../../shared/contract';

/**
 * One entry of a conversation as the window shows it: a message, a tool-call card, an approval card (where
 * a run paused for the user), an error or a notice.
 */
export type TimelineItem =
  | {
      kind: 'message';
      id: string;
      runId: string | null;
      role: 'user' | 'assistant';
      text: string;
      isStreaming: boolean;
    }
  | {
      kind: 'tool';
      id: string;
      runId: string;
      tool: string;
      args: Record<string, unknown>;
      state: ActionState;
      result?: unknown;
      error?: string | null;
    }
  | {
      kind: 'approval';
      id: string;
      runId: string;
      actionId: string;
      /** As `approval_needed` carried it; null for a stored thread, whose approvals are looked up by action. */
      approval: Approval | null;
    }
  | { kind: 'error'; id: string; runId: string | null; message: string; code?: string }
  | { kind: 'notice'; id: string; runId: string; text: string };

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;
type ApprovalItem = Extract<TimelineItem, { kind: 'approval' }>;

export interface Conversation {
  threadId: string | null;
  items: TimelineItem[];
  /** The run this window is waiting on, if any; null once it ends. */
  activeRun: { runId: string; status: RunStatus } | null;
  /** Runs that ended here, so a late `run.start` reply does not mark one as running again. */
  endedRunIds: string[];
}

export const emptyConversation = (threadId: string | null = null): Conversation => ({
  threadId,
  items: [],
  activeRun: null,
  endedRunIds: [],
});

export const isRunActive = (status: RunStatus): boolean =>
  status === 'queued' || status === 'planning' || status === 'executing';

const stopStreaming = (items: TimelineItem[], runId: string): TimelineItem[] =>
  items.map((item) =>
    item.kind === 'message' && item.runId === runId && item.isStreaming
      ? { ...item, isStreaming: false }
      : item,
  );

function endRun(conversation: Conversation, runId: string): Conversation {
  return {
    ...conversation,
    items: stopStreaming(conversation.items, runId),
    activeRun: conversation.activeRun?.runId === runId ? null : conversation.activeRun,
    endedRunIds: conversation.endedRunIds.includes(runId)
      ? conversation.endedRunIds
      : [...conversation.endedRunIds, runId],
  };
}

function upsertTool(
  items: TimelineItem[],
  actionId: string,
  create: () => ToolItem,
  update: (item: ToolItem) => ToolItem,
): TimelineItem[] {
  const index = items.findIndex((item) => item.kind === 'tool' && item.id === actionId);
  if (index === -1) return [...items, create()];
  return items.map((item, i) => (i === index && item.kind === 'tool' ? update(item) : item));
}

const approvalItem = (runId: string, actionId: string, approval: Approval | null): ApprovalItem => ({
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

/** Folds one run event into the conversation. Unknown event types leave it unchanged. */
export function applyRunEvent(conversation: Conversation, event: RunEvent): Conversation {
  const { runId } = event;
  const items = conversation.items;
  switch (event.type) {
    case 'status':
      if (!isRunActive(event.status)) return endRun(conversation, runId);
      // An active status after an end is a resumed run (for example after an approval).
      return {
        ...conversation,
        activeRun: { runId, status: event.status },
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
    case 'tool_call':
      return {
        ...conversation,
        items: upsertTool(
          stopStreaming(items, runId),
          event.actionId,
          () => ({
            kind: 'tool',
            id: event.actionId,
            runId,
            tool: event.tool,
            args: event.args,
            state: event.state,
          }),
          (card) => ({ ...card, args: event.args, state: event.state }),
        ),
      };
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
            state: event.state,
            result: event.result,
            error: event.error ?? null,
          }),
          (card) => ({ ...card, state: event.state, result: event.result, error: event.error ?? null }),
        ),
      };
    case 'approval_needed':
      return { ...conversation, items: placeApproval(stopStreaming(items, runId), event.approval) };
    case 'notice':
      return {
        ...conversation,
        items: [
          ...items.filter((item) => item.id !== `notice-${event.actionId}`),
          { kind: 'notice', id: `notice-${event.actionId}`, runId, text: event.message },
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
      return isShown ? ended : { ...ended, items: [...ended.items, error] };
    }
    case 'result': {
      const ended = endRun(conversation, runId);
      const { status, summary } = event.result;
      const hasText = items.some(
        (item) => item.kind === 'message' && item.role === 'assistant' && item.runId === runId,
      );
      const hasError = items.some((item) => item.kind === 'error' && item.runId === runId);
      // A host that does not stream still sends the final text as the summary.
      if (status === 'completed' && !hasText && summary) {
        const message: TimelineItem = {
          kind: 'message',
          id: `result-${runId}`,
          runId,
          role: 'assistant',
          text: summary,
          isStreaming: false,
        };
        return { ...ended, items: [...ended.items, message] };
      }
      if (status === 'failed' && !hasError) {
        const error: TimelineItem = {
          kind: 'error',
          id: `error-${runId}`,
          runId,
          message: summary || 'The run failed.',
        };
        return { ...ended, items: [...ended.items, error] };
      }
      const hasApprovalCard = items.some((item) => item.kind === 'approval' && item.runId === runId);
      // The approval card already says what the run waits for; the summary would only repeat it.
      if (status === 'awaiting_confirmation' && summary && !hasApprovalCard) {
        return {
          ...ended,
          items: [...ended.items, { kind: 'notice', id: `notice-${runId}`, runId, text: summary }],
        };
      }
      return ended;
    }
    default:
      return conversation;
  }
}

const KIND_ORDER = { user: 0, tool: 1, assistant: 2, error: 3 } as const;

/** Rebuilds a stored thread: messages and tool calls interleaved by time, then each failed run's error. */
export function conversationFromThread(detail: ThreadDetail): Conversation {
  const entries: { at: string; order: number; item: TimelineItem }[] = [];
  for (const message of detail.messages) {
    entries.push({
      at: message.createdAt,
      order: KIND_ORDER[message.role],
      item: {
        kind: 'message',
        id: message.id,
        runId: message.runId,
        role: message.role,
        text: message.text,
        isStreaming: false,
      },
    });
  }
  for (const action of detail.actions) {
    entries.push({
      at: action.createdAt,
      order: KIND_ORDER.tool,
      item: {
        kind: 'tool',
        id: action.id,
        runId: action.runId,
        tool: action.tool,
        args: action.args,
        state: action.state,
        result: action.result,
        error: action.error,
      },
    });
  }
  for (const run of detail.runs) {
    if (run.status !== 'failed') continue;
    entries.push({
      at: run.updatedAt,
      order: KIND_ORDER.error,
      item: {
        kind: 'error',
        id: `error-${run.id}`,
        runId: run.id,
        message: run.errorMessage ?? run.summary ?? 'The run failed.',
        ...(run.errorCode !== null && { code: run.errorCode }),
      },
    });
  }
  entries.sort((a, b) => compareTimes(a.at, b.at) || a.order - b.order);
  const running = detail.runs.find((run) => isRunActive(run.status));
  return {
    threadId: detail.thread.id,
    items: entries.flatMap(({ item }) =>
      item.kind === 'tool' && item.state === 'awaiting_confirmation'
        ? [item, approvalItem(item.runId, item.id, null)]
        : [item],
    ),
    activeRun: running ? { runId: running.id, status: running.status } : null,
    endedRunIds: detail.runs.filter((run) => !isRunActive(run.status)).map((run) => run.id),
  };
}

function compareTimes(a: string, b: string): number {
  const difference = Date.parse(a) - Date.parse(b);
  if (!Number.isNaN(difference) && difference !== 0) return difference;
  return a < b ? -1 : a > b ? 1 : 0;
}
