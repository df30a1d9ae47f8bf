import type { Approval, RunEvent, ThreadDetail } from '../../../../shared/contract';
import { isRunStart } from '../../../../shared/run-start';
import type { RunUsage } from './run-cost';
import { markRecovered, placeResumed } from './run-marks';
import { applyRunEvent, approvalItem, isRunActive, type Conversation, type TimelineItem } from './timeline';

const KIND_ORDER = { user: 0, tool: 1, assistant: 2, error: 3 } as const;

/**
 * Rebuilds a stored thread: messages and tool calls interleaved by time, each failed run's error and each
 * completed run's summary where it said nothing itself (as `itemsOfResult` shows them live), and the marks of runs
 * that were resumed after a restart or finished in their recovery turn.
 */
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
        ...(action.names !== undefined && { names: action.names }),
        ...(action.ledgerState !== undefined && { ledgerState: action.ledgerState }),
        ...(action.isUndone && { isUndone: true }),
        ...(action.canUndo && { canUndo: true }),
        ...(action.undoNote !== undefined && { undoNote: action.undoNote }),
        ...(action.isUndoWaiting && { isUndoWaiting: true }),
        result: action.result,
        error: action.error,
        ...(action.errorCode !== undefined && { errorCode: action.errorCode }),
      },
    });
  }
  const answered = new Set(
    detail.messages.flatMap((message) =>
      message.role === 'assistant' && message.runId ? [message.runId] : [],
    ),
  );
  for (const run of detail.runs) {
    // A run that ended with no words of its own (an agent's complete_task, a last tool call) answered with its
    // summary, as it showed live: without it, reopening lost the answer, and so did a thread opened as its run
    // ended (an agent started from the picker), whose stored copy replaced the live one.
    if (run.status === 'completed' && run.summary && !answered.has(run.id))
      entries.push({
        at: run.updatedAt,
        order: KIND_ORDER.assistant,
        item: {
          kind: 'message',
          id: `result-${run.id}`,
          runId: run.id,
          role: 'assistant',
          text: run.summary,
          isStreaming: false,
        },
      });
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
  // The window follows the top-level run: a child the agent delegated to streams into it, nested.
  const running = detail.runs.find((run) => isRunActive(run.status) && run.parentRunId === undefined);
  const decided = decidedApprovals(detail);
  // Each call's approval card under it, as live: one still waiting is looked up (and, opened, is not announced as
  // new); a decided one shows how it went (approved, rejected with the reason, cancelled).
  const items = entries.flatMap(({ item }): TimelineItem[] => {
    if (item.kind !== 'tool') return [item];
    const approval = decided.get(item.id);
    if (approval) return [item, approvalItem(item.runId, item.id, approval)];
    return item.state === 'awaiting_confirmation' ? [item, approvalItem(item.runId, item.id, null)] : [item];
  });
  return {
    threadId: detail.thread.id,
    items: detail.runs.reduce((marked, run) => {
      const resumed = run.resumed ? placeResumed(marked, run.id) : marked;
      return run.recovered && run.status !== 'failed' ? markRecovered(resumed, run.id) : resumed;
    }, items),
    activeRun: running ? { runId: running.id, status: running.status } : null,
    endedRunIds: detail.runs.filter((run) => !isRunActive(run.status)).map((run) => run.id),
    // Read from the lineage of the thread's runs, like every child that started before this window looked.
    childRunIds: [],
    ...(detail.lineage && { lineage: detail.lineage }),
    usage: storedUsage(detail),
  };
}

/** The newest approval of each call that asked, when it is decided (an edited call may have asked again). */
function decidedApprovals(detail: ThreadDetail): Map<string, Approval> {
  const newest = new Map<string, Approval>();
  for (const approval of detail.approvals ?? []) newest.set(approval.actionId, approval);
  for (const [actionId, approval] of newest) if (approval.status === 'pending') newest.delete(actionId);
  return newest;
}

/**
 * The thread's runs under way, the top-level one first and then the agents it delegated to: the window follows
 * each from its start. A run paused for an approval is not under way; its words are stored.
 */
export function runsUnderWay(detail: ThreadDetail): string[] {
  const active = detail.runs.filter((run) => isRunActive(run.status));
  return [
    ...active.filter((run) => run.parentRunId === undefined),
    ...active.filter((run) => run.parentRunId !== undefined),
  ].map((run) => run.id);
}

/** Events of a brand-new thread can arrive before `run.start` says which thread it is; this many are kept. */
export const EARLY_EVENT_CAP = 2_000;

/** Events kept to fold into a conversation once its stored copy is read; past the cap, no more are kept. */
export interface HeldEvents {
  events: RunEvent[];
  isFull: boolean;
}

export function hold(held: HeldEvents, event: RunEvent): void {
  if (held.events.length < EARLY_EVENT_CAP) held.events.push(event);
  else held.isFull = true;
}

/** What a run streams and does not store as it goes: its words, its thoughts, its tokens turn by turn. */
const STREAMED: ReadonlySet<RunEvent['type']> = new Set(['delta', 'thinking', 'usage']);

const isStreamed = (event: RunEvent): boolean => STREAMED.has(event.type);

/**
 * A stored conversation with the events that arrived while it was read (and, for a run started elsewhere, before
 * the window knew its conversation). A run whose events are all here, from its `queued` status on, is shown as
 * it streamed: its words and cards come from its events, the stored copy giving only the person's prompt (no
 * event carries it). Of the other runs, the events that say what changed (status, tool cards, approvals,
 * endings) are folded in, but not their streamed words: the stored copy may already hold them.
 */
export function withHeldEvents(conversation: Conversation, events: readonly RunEvent[]): Conversation {
  const whole = new Set(events.flatMap((event) => (isRunStart(event) ? [event.runId] : [])));
  return events
    .filter((event) => whole.has(event.runId) || !isStreamed(event))
    .reduce(applyRunEvent, withoutRunsToReplay(conversation, whole));
}

/**
 * A conversation without what it shows of these runs but the person's prompts (no event carries them), nor their
 * tokens: their events, all of them from the start, are about to show them again, as they streamed.
 */
export function withoutRunsToReplay(conversation: Conversation, runIds: ReadonlySet<string>): Conversation {
  if (runIds.size === 0) return conversation;
  const usage = Object.fromEntries(
    Object.entries(conversation.usage ?? {}).filter(([runId]) => !runIds.has(runId)),
  );
  return {
    ...conversation,
    items: conversation.items.filter(
      (item) => item.runId === null || !runIds.has(item.runId) || isPrompt(item),
    ),
    ...(conversation.usage && { usage }),
  };
}

/**
 * A conversation read again that shows these runs (under way, about to be replayed) as the window showed them, in
 * place of their stored copy, which lacks the turn each is in: until its replay is here, a run is not shown shorter,
 * and its footer keeps the tokens it had said (a stored run under way has none).
 */
export function withRunsAsShown(
  stored: Conversation,
  shown: Conversation,
  runIds: ReadonlySet<string>,
): Conversation {
  if (runIds.size === 0 || shown.threadId !== stored.threadId) return stored;
  const base = withoutRunsToReplay(stored, runIds);
  const kept = shown.items.filter((item) => item.runId !== null && runIds.has(item.runId) && !isPrompt(item));
  const keptUsage = Object.entries(shown.usage ?? {}).filter(([runId]) => runIds.has(runId));
  return {
    ...base,
    items: [...base.items, ...kept],
    usage: { ...base.usage, ...Object.fromEntries(keptUsage) },
  };
}

/** Each ended run's tokens as the host kept them, so its footer shows after a reload as it did live. */
function storedUsage(detail: ThreadDetail): Record<string, RunUsage> {
  const usage: Record<string, RunUsage> = {};
  for (const run of detail.runs) {
    if (run.usage && !isRunActive(run.status)) usage[run.id] = { ...run.usage, model: run.model };
  }
  return usage;
}

const isPrompt = (item: TimelineItem): boolean => item.kind === 'message' && item.role === 'user';

function compareTimes(a: string, b: string): number {
  const difference = Date.parse(a) - Date.parse(b);
  if (!Number.isNaN(difference) && difference !== 0) return difference;
  return a < b ? -1 : a > b ? 1 : 0;
}
