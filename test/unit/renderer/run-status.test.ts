import { describe, expect, it } from 'vitest';
import type { ActionState, Approval, ThreadSummary } from '../../../shared/contract';
import {
  isWaitingForApproval,
  lastRunNote,
  runActivityText,
  runStatusText,
  withApprovalAsked,
  withApprovalSettled,
} from '../../../renderer/src/features/chat/run-status';
import { createChatStore } from '../../../renderer/src/features/chat/chat-store';
import { fakeClient, sampleApproval } from './fixtures';
import type { TimelineItem } from '../../../renderer/src/features/chat/timeline';

describe('the line under a running conversation', () => {
  it('says how many runs a queued run waits for, in words', () => {
    expect(runStatusText('queued', 1)).toBe('Queued — waiting for 1 other run to finish');
    expect(runStatusText('queued', 3)).toBe('Queued — waiting for 3 other runs to finish');
  });

  it('says starting for a run not (yet) known to wait, and ignores a place in line once it works', () => {
    expect(runStatusText('queued')).toBe('Starting…');
    expect(runStatusText('planning', 2)).toBe('Planning…');
  });
});

describe('what a running run is doing, from its latest row', () => {
  const NOW = Date.parse('2026-05-04T10:00:00.000Z');
  const writing: TimelineItem = {
    kind: 'message',
    id: 'm1',
    runId: 'r1',
    role: 'assistant',
    text: 'Here is',
    isStreaming: true,
  };
  const tool = (state: ActionState): TimelineItem => ({
    kind: 'tool',
    id: 'a1',
    runId: 'r1',
    tool: 'slack_read',
    args: {},
    state,
  });
  const notice = (actionId: string, from: string, retryAt?: string): TimelineItem => ({
    kind: 'notice',
    id: `notice-${actionId}`,
    runId: 'r1',
    text: 'Something. Trying again in 1 s.',
    tool: from,
    ...(retryAt !== undefined && { retryAt }),
  });

  it('says Writing… while its answer streams, not Planning…', () => {
    expect(runActivityText('r1', [writing], NOW)).toBe('Writing…');
    expect(runActivityText('r1', [{ ...writing, isStreaming: false }], NOW)).toBeNull();
    // Another run's rows say nothing about this one.
    expect(runActivityText('r2', [writing], NOW)).toBeNull();
  });

  it('says it waits to try again after Gemini failed, or while a call that failed is still going', () => {
    expect(runActivityText('r1', [writing, notice('r1', 'gemini')], NOW)).toBe('Waiting to try again…');
    expect(runActivityText('r1', [tool('executing'), notice('a1', 'slack_read')], NOW)).toBe(
      'Waiting to try again…',
    );
    // A notice about a finished call (what it did, an undo) or a resumed run is news, not a wait.
    expect(runActivityText('r1', [tool('completed'), notice('a1', 'slack_read')], NOW)).toBeNull();
    expect(runActivityText('r1', [notice('r1', 'chat')], NOW)).toBeNull();
  });

  it('stops saying it waits once the time given for the next try has come: the step is being tried again', () => {
    const waiting = (retryAt: string) => notice('r1', 'gemini', retryAt);
    expect(runActivityText('r1', [waiting('2026-05-04T10:00:01.000Z')], NOW)).toBe('Waiting to try again…');
    expect(runActivityText('r1', [waiting('2026-05-04T10:00:00.000Z')], NOW)).toBeNull();
    const call = (retryAt: string) => notice('a1', 'slack_read', retryAt);
    expect(runActivityText('r1', [tool('executing'), call('2026-05-04T10:00:02.000Z')], NOW)).toBe(
      'Waiting to try again…',
    );
    expect(runActivityText('r1', [tool('executing'), call('2026-05-04T09:59:59.000Z')], NOW)).toBeNull();
  });

  it('knows the run waits for the person while a child agent’s call waits for approval', () => {
    const childCall = (state: ActionState): TimelineItem => ({ ...tool(state), runId: 'child' });
    expect(isWaitingForApproval([tool('executing'), childCall('awaiting_confirmation')])).toBe(true);
    expect(isWaitingForApproval([tool('executing'), childCall('executing')])).toBe(false);
  });
});

describe('the conversation list’s note on a last run', () => {
  it('says a run stopped or ended by an expired approval as what happened, not as a failure', () => {
    expect(lastRunNote({ lastRunStatus: 'failed', lastRunErrorCode: 'approval_expired' })).toBe(
      'approval expired',
    );
    expect(lastRunNote({ lastRunStatus: 'failed', lastRunErrorCode: 'cancelled' })).toBe('stopped');
    // A run whose plan the person cancelled reads as the plan's tree says it.
    expect(
      lastRunNote({ lastRunStatus: 'failed', lastRunErrorCode: 'cancelled', isLastRunPlanCancelled: true }),
    ).toBe('cancelled');
    expect(lastRunNote({ lastRunStatus: 'failed', lastRunErrorCode: 'model_timeout' })).toBe('failed');
    // A row from before the list carried the code.
    expect(lastRunNote({ lastRunStatus: 'failed' })).toBe('failed');
    expect(lastRunNote({ lastRunStatus: 'awaiting_confirmation' })).toBe('needs approval');
    expect(lastRunNote({ lastRunStatus: 'completed' })).toBeNull();
    expect(lastRunNote({ lastRunStatus: null })).toBeNull();
  });
});

describe('the conversation list when an approval is settled', () => {
  const thread = (id: string, lastRunStatus: ThreadSummary['lastRunStatus']): ThreadSummary => ({
    id,
    title: id,
    createdAt: 'n',
    updatedAt: 'n',
    lastRunStatus,
  });
  const changed = (changedApproval: Approval | null, pending: Approval[] = []) => ({
    type: 'approvals.changed' as const,
    pending,
    changed: changedApproval,
  });
  const threads = [thread('t1', 'awaiting_confirmation'), thread('t2', 'awaiting_confirmation')];

  it('says the conversation whose approval was approved or rejected is working again, and no other', () => {
    for (const status of ['approved', 'rejected'] as const) {
      const next = withApprovalSettled(threads, changed(sampleApproval({ threadId: 't1', status })));
      expect(next.map((item) => [item.id, item.lastRunStatus])).toEqual([
        ['t1', 'executing'],
        ['t2', 'awaiting_confirmation'],
      ]);
      expect(next.map((item) => lastRunNote(item))).toEqual([null, 'needs approval']);
    }
  });

  it('leaves the list as it is while the conversation still waits for another approval, or nothing was settled', () => {
    const other = sampleApproval({ id: 'other', threadId: 't1' });
    const settled = sampleApproval({ threadId: 't1', status: 'approved' });
    expect(withApprovalSettled(threads, changed(settled, [other]))).toBe(threads);
    expect(withApprovalSettled(threads, changed(sampleApproval({ threadId: 't1' })))).toBe(threads);
    expect(withApprovalSettled(threads, changed(null))).toBe(threads);
    const finished = [thread('t1', 'completed')];
    expect(withApprovalSettled(finished, changed(settled))).toBe(finished);
  });

  it('says the conversation whose run asked for an approval needs it, though the list was read before it paused', () => {
    const read = [thread('t1', 'executing'), thread('t2', 'completed')];
    const next = withApprovalAsked(read, changed(sampleApproval({ threadId: 't1' })));
    expect(next.map((item) => lastRunNote(item))).toEqual(['needs approval', null]);
    // Nothing to change: the row says so already, the approval was settled, or its conversation is not listed.
    expect(withApprovalAsked(threads, changed(sampleApproval({ threadId: 't1' })))).toBe(threads);
    expect(withApprovalAsked(read, changed(sampleApproval({ threadId: 't1', status: 'approved' })))).toBe(
      read,
    );
    expect(withApprovalAsked(read, changed(sampleApproval({ threadId: 't9' })))).toBe(read);
  });

  it('in the chat store: a list read before an approval was decided, answered after, keeps the decision', async () => {
    let answer: (page: { threads: ThreadSummary[]; nextBefore: null }) => void = () => undefined;
    const fake = fakeClient({ 'threads.list': () => new Promise((resolve) => (answer = resolve)) });
    const store = createChatStore(fake.client);
    store.setState({ threads: [thread('t1', 'awaiting_confirmation')] });
    const reading = store.getState().loadThreads();
    store.getState().approvalsChanged(changed(sampleApproval({ threadId: 't1', status: 'approved' })));
    answer({ threads: [thread('t1', 'awaiting_confirmation')], nextBefore: null });
    await reading;
    expect(store.getState().threads.map((item) => lastRunNote(item))).toEqual([null]);
  });

  it('in the chat store: a list read answered after a later one was drawn is not drawn', async () => {
    const answers: ((page: { threads: ThreadSummary[]; nextBefore: null }) => void)[] = [];
    const fake = fakeClient({ 'threads.list': () => new Promise((resolve) => answers.push(resolve)) });
    const store = createChatStore(fake.client);
    const first = store.getState().loadThreads();
    const second = store.getState().loadThreads();
    answers[1]?.({ threads: [thread('t1', 'failed')], nextBefore: null });
    await second;
    answers[0]?.({ threads: [thread('t1', 'awaiting_confirmation')], nextBefore: null });
    await first;
    expect(store.getState().threads.map((item) => item.lastRunStatus)).toEqual(['failed']);
  });

  it('in the chat store: a list read that fails after a later one was drawn says nothing over it', async () => {
    const answers: {
      resolve: (page: { threads: ThreadSummary[]; nextBefore: null }) => void;
      reject: (error: unknown) => void;
    }[] = [];
    const fake = fakeClient({
      'threads.list': () => new Promise((resolve, reject) => answers.push({ resolve, reject })),
    });
    const store = createChatStore(fake.client);
    const first = store.getState().loadThreads();
    const second = store.getState().loadThreads();
    answers[1]?.resolve({ threads: [thread('t1', 'completed')], nextBefore: null });
    await second;
    answers[0]?.reject(new Error('Lost the connection to Deputy before it answered.'));
    await first;
    expect(store.getState().threadsError).toBeNull();
    expect(store.getState().threads.map((item) => item.id)).toEqual(['t1']);
    // The newest read failing still says so.
    const third = store.getState().loadThreads();
    answers[2]?.reject(new Error('Lost the connection to Deputy before it answered.'));
    await third;
    expect(store.getState().threadsError).not.toBeNull();
  });

  it('in the chat store: the row of a conversation read as working says it needs approval once its run asks', () => {
    const store = createChatStore(fakeClient().client);
    store.setState({ threads: [thread('t1', 'executing')] });
    store
      .getState()
      .approvalsChanged(changed(sampleApproval({ threadId: 't1' }), [sampleApproval({ threadId: 't1' })]));
    expect(store.getState().threads.map((item) => lastRunNote(item))).toEqual(['needs approval']);
  });
});
