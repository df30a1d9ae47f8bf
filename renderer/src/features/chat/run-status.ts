import type { ApprovalsChangedEvent, RunStatus, ThreadSummary } from '../../../../shared/contract';
import { MODEL_NOTICE_SOURCE } from '../../../../shared/model-failure-words';
import { isStoppedCode } from './error-words';
import type { TimelineItem } from './timeline';

const STATUS_LABELS: Record<RunStatus, string> = {
  queued: 'Starting…',
  planning: 'Planning…',
  executing: 'Working…',
  awaiting_confirmation: 'Waiting for your approval',
  completed: 'Done',
  failed: 'Failed',
};

/** The line under a running conversation; a run waiting behind the cap on runs at once says for how many. */
export function runStatusText(status: RunStatus, queuePosition?: number): string {
  if (status !== 'queued' || queuePosition === undefined) return STATUS_LABELS[status];
  const runs = queuePosition === 1 ? '1 other run' : `${queuePosition} other runs`;
  return `Queued — waiting for ${runs} to finish`;
}

/**
 * What the conversation list says of a conversation's last run, after its time, when it is news: it waits for
 * the person, or it ended without an answer. A run stopped, one whose plan the person cancelled, or one ended
 * because an approval expired with nobody answering, did not go wrong: it is said as the chat and the audit
 * trail say it ("stopped", "cancelled" as the plan's tree says), not as "failed".
 */
export function lastRunNote(
  thread: Pick<ThreadSummary, 'lastRunStatus' | 'lastRunErrorCode' | 'isLastRunPlanCancelled'>,
): string | null {
  if (thread.lastRunStatus === 'awaiting_confirmation') return 'needs approval';
  if (thread.lastRunStatus !== 'failed') return null;
  if (isStoppedCode(thread.lastRunErrorCode)) return thread.isLastRunPlanCancelled ? 'cancelled' : 'stopped';
  return thread.lastRunErrorCode === 'approval_expired' ? 'approval expired' : 'failed';
}

/**
 * The conversation list once an approval is settled, without asking the host again: a conversation whose last
 * run waited for it, and waits for nothing else, is working again (approved or rejected, the run goes on; one
 * that expired ends it, and the run's end reloads the list). The same list when nothing in it changes.
 */
export function withApprovalSettled(threads: ThreadSummary[], event: ApprovalsChangedEvent): ThreadSummary[] {
  const settled = event.changed;
  if (!settled || settled.status === 'pending') return threads;
  if (event.pending.some((approval) => approval.threadId === settled.threadId)) return threads;
  const isWaiting = (thread: ThreadSummary) =>
    thread.id === settled.threadId && thread.lastRunStatus === 'awaiting_confirmation';
  if (!threads.some(isWaiting)) return threads;
  return threads.map((thread) => (isWaiting(thread) ? { ...thread, lastRunStatus: 'executing' } : thread));
}

/**
 * The conversation list once an approval is asked for: its conversation needs approval, though the list was read
 * before its run paused (the read a new conversation makes as its run starts). The same list when its row says so
 * already, or is not in it.
 */
export function withApprovalAsked(threads: ThreadSummary[], event: ApprovalsChangedEvent): ThreadSummary[] {
  const asked = event.changed;
  if (asked?.status !== 'pending') return threads;
  const isAsking = (thread: ThreadSummary) =>
    thread.id === asked.threadId && thread.lastRunStatus !== 'awaiting_confirmation';
  if (!threads.some(isAsking)) return threads;
  return threads.map((thread) =>
    isAsking(thread) ? { ...thread, lastRunStatus: 'awaiting_confirmation' } : thread,
  );
}

/**
 * What a running run is doing, from its latest row, when its status says less: its answer streams in
 * (Writing…), or a step that failed waits to be tried again: Gemini's (a notice from it, see the engine's
 * model turn) or a call's (a notice about a call still going; one about a finished call is news, not a
 * wait). Once the time the notice gave for the next try has come (`now`, in ms), the step is being tried
 * again and the status says what the run does. Null: the status says it.
 */
export function runActivityText(runId: string, items: readonly TimelineItem[], now: number): string | null {
  const latest = items.findLast((item) => item.runId === runId);
  if (latest?.kind === 'message' && latest.isStreaming) return 'Writing…';
  if (latest?.kind !== 'notice') return null;
  if (latest.retryAt !== undefined && Date.parse(latest.retryAt) <= now) return null;
  if (latest.tool === MODEL_NOTICE_SOURCE && latest.id === `notice-${runId}`) return 'Waiting to try again…';
  const call = items.findLast((item) => item.kind === 'tool' && `notice-${item.id}` === latest.id);
  return call?.kind === 'tool' && call.state === 'executing' ? 'Waiting to try again…' : null;
}

/**
 * Whether a call in the conversation waits for the person while its run goes on: a child agent's approval,
 * which the parent (the run the window follows) waits on without a pause of its own.
 */
export function isWaitingForApproval(items: readonly TimelineItem[]): boolean {
  return items.some((item) => item.kind === 'tool' && item.state === 'awaiting_confirmation');
}
