import { describe, expect, it } from 'vitest';
import type { DeputyClient, RunEvent, RunEventsFilter, ThreadDetail } from '../../../shared/contract';
import { RunEventBus } from '../../../electron/host/run-event-bus';
import { ClientError } from '../../../renderer/src/api/client-error';
import { createChatStore } from '../../../renderer/src/features/chat/chat-store';
import { friendlyError, isRetryable } from '../../../renderer/src/features/chat/error-words';
import { conversationFromThread } from '../../../renderer/src/features/chat/stored-thread';
import { toolStateLabel } from '../../../renderer/src/features/chat/tool-state';
import {
  applyRunEvent,
  emptyConversation,
  type Conversation,
} from '../../../renderer/src/features/chat/timeline';
import {
  fakeClient as fakeStreamsClient,
  sampleApproval,
  sampleResponse,
  storedMessage,
  storedRun,
} from './fixtures';

const ids = { runId: 'r1', threadId: 't1' };
const running = (): Conversation => ({
  ...emptyConversation('t1'),
  activeRun: { runId: 'r1', status: 'executing' },
});
const fold = (events: RunEvent[], start = running()) => events.reduce(applyRunEvent, start);

const response = sampleResponse;

describe('applyRunEvent', () => {
  it('appends deltas to one streaming assistant message', () => {
    const conversation = fold([
      { type: 'delta', ...ids, delta: 'Added ' },
      { type: 'delta', ...ids, delta: '**Buy milk**' },
    ]);
    expect(conversation.items).toEqual([
      expect.objectContaining({
        kind: 'message',
        role: 'assistant',
        text: 'Added **Buy milk**',
        isStreaming: true,
      }),
    ]);
  });

  it('shows a tool call as a card and updates it by actionId', () => {
    const conversation = fold([
      { type: 'delta', ...ids, delta: 'Let me add that.' },
      {
        type: 'tool_call',
        ...ids,
        actionId: 'a1',
        tool: 'add_task',
        args: { description: 'Buy milk' },
        state: 'executing',
      },
      { type: 'tool_call', ...ids, actionId: 'a2', tool: 'list_tasks', args: {}, state: 'executing' },
      {
        type: 'tool_result',
        ...ids,
        actionId: 'a1',
        tool: 'add_task',
        state: 'completed',
        result: { id: 'task-1' },
      },
      {
        type: 'tool_result',
        ...ids,
        actionId: 'a2',
        tool: 'list_tasks',
        state: 'failed',
        error: 'store is locked',
      },
      { type: 'delta', ...ids, delta: 'Done.' },
    ]);
    expect(conversation.items.map((item) => item.kind)).toEqual(['message', 'tool', 'tool', 'message']);
    expect(conversation.items[0]).toMatchObject({ text: 'Let me add that.', isStreaming: false });
    expect(conversation.items[1]).toMatchObject({
      id: 'a1',
      tool: 'add_task',
      args: { description: 'Buy milk' },
      state: 'completed',
      result: { id: 'task-1' },
    });
    expect(conversation.items[2]).toMatchObject({ id: 'a2', state: 'failed', error: 'store is locked' });
    expect(conversation.items[3]).toMatchObject({ text: 'Done.', isStreaming: true });
  });

  it('says a side effect its run ended around may have happened, live as after a reload', () => {
    const conversation = fold([
      { type: 'tool_call', ...ids, actionId: 'a1', tool: 'post_note', args: {}, state: 'executing' },
      {
        type: 'tool_result',
        ...ids,
        actionId: 'a1',
        tool: 'post_note',
        state: 'awaiting_confirmation',
        error:
          'Deputy stopped while doing this because of an internal error and cannot tell whether it happened.',
        code: 'outcome_unknown',
      },
    ]);
    const [card] = conversation.items;
    expect(card).toMatchObject({ kind: 'tool', state: 'awaiting_confirmation', ledgerState: 'unknown' });
    if (card?.kind !== 'tool') throw new Error('no card');
    expect(toolStateLabel(card.state, card.ledgerState)).toBe('Not sure it happened — waiting for you');
  });

  it('shows an error in place and ends the run', () => {
    const conversation = fold([
      { type: 'delta', ...ids, delta: 'Working' },
      { type: 'error', ...ids, error: 'Gemini is having trouble (HTTP 500).', code: 'model_server_error' },
      { type: 'result', ...ids, result: response({ ok: false, status: 'failed', summary: 'failed' }) },
    ]);
    expect(conversation.activeRun).toBeNull();
    expect(conversation.items).toEqual([
      expect.objectContaining({ kind: 'message', isStreaming: false }),
      expect.objectContaining({
        kind: 'error',
        message: 'Gemini is having trouble (HTTP 500).',
        code: 'model_server_error',
      }),
    ]);
  });

  it('ends the run on its result and uses the summary when nothing was streamed', () => {
    const conversation = fold([{ type: 'result', ...ids, result: response({ summary: 'All done.' }) }]);
    expect(conversation.activeRun).toBeNull();
    expect(conversation.endedRunIds).toEqual(['r1']);
    expect(conversation.items).toEqual([expect.objectContaining({ role: 'assistant', text: 'All done.' })]);
  });

  it('tracks the run status and ignores event types it does not know', () => {
    const before = fold([{ type: 'status', ...ids, status: 'planning' }], emptyConversation('t1'));
    expect(before.activeRun).toEqual({ runId: 'r1', status: 'planning' });
    const unknown = { type: 'thinking', ...ids, text: 'hmm' } as unknown as RunEvent;
    expect(applyRunEvent(before, unknown)).toBe(before);
  });
});

describe('conversationFromThread', () => {
  it('interleaves messages and tool calls by time and shows a failed run’s error', () => {
    const detail: ThreadDetail = {
      thread: { id: 't1', title: 'Milk', createdAt: 't', updatedAt: 't', lastRunStatus: 'failed' },
      messages: [
        {
          id: 'm2',
          threadId: 't1',
          runId: 'r1',
          role: 'assistant',
          text: 'Added.',
          createdAt: '2026-11-21T10:00:02Z',
        },
        {
          id: 'm1',
          threadId: 't1',
          runId: 'r1',
          role: 'user',
          text: 'Add milk',
          createdAt: '2026-11-21T10:00:00Z',
        },
        {
          id: 'm3',
          threadId: 't1',
          runId: 'r2',
          role: 'user',
          text: 'Again',
          createdAt: '2026-11-21T10:01:00Z',
        },
      ],
      actions: [
        {
          id: 'a1',
          runId: 'r1',
          threadId: 't1',
          tool: 'add_task',
          args: { description: 'Buy milk' },
          state: 'completed',
          result: { id: 'task-1' },
          error: null,
          createdAt: '2026-11-21T10:00:01Z',
        },
      ],
      runs: [
        {
          id: 'r2',
          threadId: 't1',
          status: 'failed',
          model: 'm',
          summary: null,
          errorCode: 'model_server_error',
          errorMessage: 'Gemini failed.',
          createdAt: '2026-11-21T10:01:00Z',
          updatedAt: '2026-11-21T10:01:05Z',
        },
      ],
    };
    const conversation = conversationFromThread(detail);
    expect(conversation.items.map((item) => item.id)).toEqual(['m1', 'a1', 'm2', 'm3', 'error-r2']);
    expect(conversation.items[4]).toMatchObject({ kind: 'error', message: 'Gemini failed.' });
    expect(conversation.activeRun).toBeNull();
  });
});

describe('conversationFromThread, for a conversation whose agent delegated', () => {
  it('follows the top-level run under way, not a child run listed before it', () => {
    const working = (id: string, at: string, parentRunId?: string): ThreadDetail['runs'][number] => ({
      ...storedRun(id, 'completed', at),
      status: 'executing',
      ...(parentRunId && { parentRunId }),
    });
    const detail: ThreadDetail = {
      thread: { id: 't1', title: 't', createdAt: 't', updatedAt: 't', lastRunStatus: 'executing' },
      messages: [storedMessage('m1', 'r1', 'user', 'Do this: look', '2026-11-21T10:00:00Z')],
      actions: [],
      // An earlier run's child is still unfinished (listed first, by time) while the latest run works.
      runs: [
        storedRun('r0', 'completed', '2026-11-21T09:00:00Z'),
        working('child-of-r0', '2026-11-21T09:00:01Z', 'r0'),
        working('r1', '2026-11-21T10:00:00Z'),
      ],
    };
    const conversation = conversationFromThread(detail);
    expect(conversation.activeRun).toEqual({ runId: 'r1', status: 'executing' });
  });
});

describe('conversationFromThread, for a run that said nothing itself', () => {
  it('shows its summary as its answer, as it showed live; a run that wrote its answer keeps only that', () => {
    const detail: ThreadDetail = {
      thread: { id: 't1', title: 't', createdAt: 't', updatedAt: 't', lastRunStatus: 'completed' },
      messages: [
        storedMessage('m1', 'r1', 'user', 'Do this: look', '2026-11-21T10:00:00Z'),
        storedMessage('m2', 'r2', 'user', 'Hi', '2026-11-21T10:01:00Z'),
        storedMessage('m3', 'r2', 'assistant', 'Hello.', '2026-11-21T10:01:01Z'),
      ],
      actions: [],
      runs: [
        storedRun('r1', 'completed', '2026-11-21T10:00:05Z', 'Note: Nothing is open.'),
        storedRun('r2', 'completed', '2026-11-21T10:01:02Z', 'Hello.'),
        storedRun('r3', 'completed', '2026-11-21T10:02:00Z'),
      ],
    };
    expect(
      conversationFromThread(detail).items.map((item) =>
        item.kind === 'message' ? `${item.id} ${item.role}: ${item.text}` : item.id,
      ),
    ).toEqual([
      'm1 user: Do this: look',
      'result-r1 assistant: Note: Nothing is open.',
      'm2 user: Hi',
      'm3 assistant: Hello.',
    ]);
  });
});

/** The chat store listens to one stream, run.events. */
function fakeClient(handlers: Parameters<typeof fakeStreamsClient>[0]) {
  const fake = fakeStreamsClient(handlers);
  return { client: fake.client, emit: (event: RunEvent) => fake.emit('run.events', event) };
}

/** A connected store whose `thread.get` answers only when the test calls `answer`. */
function storeWithSlowThread() {
  let answer: (detail: ThreadDetail) => void = () => undefined;
  const { client, emit } = fakeClient({
    'thread.get': () => new Promise((resolve) => (answer = resolve)),
    'threads.list': async () => ({ threads: [], nextBefore: null }),
  });
  const store = createChatStore(client);
  store.getState().connect();
  return { store, emit, answer: (detail: ThreadDetail) => answer(detail) };
}

/** A connected store whose `run.start` answers only when the test calls `answer`. */
function storeWithSlowStart() {
  let answer: (value: { runId: string; threadId: string }) => void = () => undefined;
  const { client, emit } = fakeClient({
    'run.start': () => new Promise((resolve) => (answer = resolve)),
    'threads.list': async () => ({ threads: [], nextBefore: null }),
  });
  const store = createChatStore(client);
  store.getState().connect();
  return { store, emit, answer: (value: { runId: string; threadId: string }) => answer(value) };
}

describe('chat store', () => {
  it('keeps the events of an agent a new thread’s run started before run.start answers', async () => {
    const { store, emit, answer } = storeWithSlowStart();

    const sent = store.getState().send('Have the helper add a task');
    emit({ type: 'status', ...ids, status: 'executing' });
    // The run delegated, and its agent spoke, all before the slow host's answer was read.
    emit({ type: 'status', runId: 'child', threadId: 't1', status: 'executing' });
    emit({ type: 'delta', runId: 'child', threadId: 't1', delta: 'Looking at your tasks.' });
    emit({ type: 'delta', runId: 'other', threadId: 'elsewhere', delta: 'not ours' });
    answer(ids);
    await sent;

    const { conversation } = store.getState();
    expect(conversation.items).toContainEqual(
      expect.objectContaining({ role: 'assistant', runId: 'child', text: 'Looking at your tasks.' }),
    );
    expect(JSON.stringify(conversation.items)).not.toContain('not ours');
  });

  it('keeps a new thread’s events that arrive before run.start answers', async () => {
    const { store, emit, answer } = storeWithSlowStart();

    const sent = store.getState().send('Add a task to buy milk tomorrow');
    emit({ type: 'status', ...ids, status: 'executing' });
    emit({ type: 'delta', ...ids, delta: 'Added.' });
    emit({ type: 'delta', runId: 'other', threadId: 'elsewhere', delta: 'not ours' });
    emit({ type: 'result', ...ids, result: response({ summary: 'Added.' }) });
    answer(ids);
    await sent;

    const { conversation, isStarting } = store.getState();
    expect(isStarting).toBe(false);
    expect(conversation.threadId).toBe('t1');
    expect(conversation.activeRun).toBeNull();
    expect(conversation.items).toEqual([
      expect.objectContaining({ role: 'user', text: 'Add a task to buy milk tomorrow', runId: 'r1' }),
      expect.objectContaining({ role: 'assistant', text: 'Added.' }),
    ]);
  });

  it('marks the run active until it ends, and shows a failed start in place', async () => {
    const { client, emit } = fakeClient({
      'run.start': async () => ids,
      'threads.list': async () => ({ threads: [], nextBefore: null }),
    });
    const store = createChatStore(client);
    store.getState().connect();
    await store.getState().send('hello');
    expect(store.getState().conversation.activeRun).toEqual({ runId: 'r1', status: 'queued' });
    emit({ type: 'error', ...ids, error: 'The model failed.' });
    expect(store.getState().conversation.activeRun).toBeNull();

    const failing = fakeClient({
      'run.start': () => Promise.reject(new ClientError('model_not_configured', 'Set GEMINI_API_KEY.')),
    });
    const second = createChatStore(failing.client);
    await second.getState().send('hello');
    expect(second.getState().conversation.items.at(-1)).toMatchObject({
      kind: 'error',
      code: 'model_not_configured',
      message: 'Set GEMINI_API_KEY.',
    });
    expect(second.getState().isStarting).toBe(false);
  });

  it('a Stop pressed while the run is still starting stops it as soon as it has an id', async () => {
    let answer: (value: { runId: string; threadId: string }) => void = () => undefined;
    const cancelled: string[] = [];
    const { client } = fakeClient({
      'run.start': () => new Promise((resolve) => (answer = resolve)),
      'run.cancel': async (input) => {
        cancelled.push((input as { runId: string }).runId);
        return { cancelled: true };
      },
      'threads.list': async () => ({ threads: [], nextBefore: null }),
    });
    const store = createChatStore(client);
    store.getState().connect();
    const sent = store.getState().send('Take your time');
    expect(store.getState().isStarting).toBe(true);
    await store.getState().stop();
    expect(cancelled).toEqual([]);
    answer(ids);
    await sent;
    await new Promise((resolve) => setImmediate(resolve));
    expect(cancelled).toEqual(['r1']);
  });
});

describe('Stop while the connection to the host is down', () => {
  /** A store showing run r1 under way, whose `run.cancel` answers only when the test settles it. */
  function runningStore() {
    const cancels: { settle: (error?: ClientError) => void }[] = [];
    const { client, emit } = fakeClient({
      'run.start': async () => ids,
      'run.cancel': () =>
        new Promise((resolve, reject) =>
          cancels.push({ settle: (error) => (error ? reject(error) : resolve({ cancelled: true })) }),
        ),
      'threads.list': async () => ({ threads: [], nextBefore: null }),
    });
    const store = createChatStore(client);
    store.getState().connect();
    return { store, emit, cancels };
  }
  const lost = () => new ClientError('disconnected', 'Lost the connection to Deputy before it answered.');

  it('a Stop not yet answered is asked once, reads as stopping, and does not say the run stopped', async () => {
    const { store, cancels } = runningStore();
    await store.getState().send('Count slowly');
    void store.getState().stop();
    void store.getState().stop();
    expect(cancels).toHaveLength(1);
    expect(store.getState().stoppingRunId).toBe('r1');
    expect(store.getState().conversation.activeRun?.runId).toBe('r1');
    expect(store.getState().conversation.items.map((item) => item.kind)).toEqual(['message']);
  });

  it('a Stop the host never answered says so, once, and Stop can be pressed again', async () => {
    const { store, cancels } = runningStore();
    await store.getState().send('Count slowly');
    for (const attempt of [0, 1]) {
      const stopping = store.getState().stop();
      cancels[attempt]?.settle(lost());
      await stopping;
      expect(store.getState().stoppingRunId).toBeNull();
    }
    expect(cancels).toHaveLength(2);
    const errors = store.getState().conversation.items.filter((item) => item.kind === 'error');
    expect(errors).toEqual([expect.objectContaining({ id: 'cancel-r1', code: 'stop_unanswered' })]);
    expect(friendlyError('stop_unanswered')).toBe(
      'Lost the connection to Deputy before it answered Stop. Press Stop again once it reconnects.',
    );
    // Retry would ask the question again: Stop is what to press.
    expect(isRetryable('stop_unanswered')).toBe(false);
    expect(store.getState().conversation.activeRun?.runId).toBe('r1');
  });
});

describe('approvals in the timeline', () => {
  const toolCall: RunEvent = {
    type: 'tool_call',
    ...ids,
    actionId: 'a1',
    tool: 'add_task',
    args: { description: 'Buy milk' },
    state: 'awaiting_confirmation',
  };
  const approval = sampleApproval();

  it('puts the approval card under its tool card and leaves out the summary that repeats it', () => {
    const conversation = fold([
      { type: 'delta', ...ids, delta: 'Let me add that.' },
      toolCall,
      { type: 'delta', ...ids, delta: 'Waiting.' },
      { type: 'approval_needed', ...ids, approval },
      { type: 'status', ...ids, status: 'awaiting_confirmation' },
      {
        type: 'result',
        ...ids,
        result: response({
          status: 'awaiting_confirmation',
          mode: 'approval_required',
          summary: 'Needs approval.',
        }),
      },
    ]);
    expect(conversation.items.map((item) => `${item.kind}:${item.id}`)).toEqual([
      'message:stream-r1-0',
      'tool:a1',
      'approval:approval-a1',
      'message:stream-r1-2',
    ]);
    expect(conversation.items[2]).toMatchObject({ actionId: 'a1', approval: { id: 'ap1' } });
    expect(conversation.activeRun).toBeNull();
  });

  it('makes the tool card itself when the run sent none, and follows the resumed run', () => {
    const paused = fold([{ type: 'approval_needed', ...ids, approval }]);
    expect(paused.items.map((item) => item.kind)).toEqual(['tool', 'approval']);
    expect(paused.items[0]).toMatchObject({
      state: 'awaiting_confirmation',
      args: { description: 'Buy milk' },
    });

    const resumed = fold(
      [
        { type: 'status', ...ids, status: 'executing' },
        { ...toolCall, state: 'executing', args: { description: 'Buy oat milk' } } as RunEvent,
        { type: 'tool_result', ...ids, actionId: 'a1', tool: 'add_task', state: 'completed', result: {} },
        { type: 'notice', ...ids, actionId: 'a1', tool: 'add_task', message: 'Added a task.' },
        { type: 'delta', ...ids, delta: 'Added it.' },
      ],
      { ...paused, activeRun: null, endedRunIds: ['r1'] },
    );
    expect(resumed.activeRun).toEqual({ runId: 'r1', status: 'executing' });
    expect(resumed.items.map((item) => item.kind)).toEqual(['tool', 'approval', 'notice', 'message']);
    expect(resumed.items[0]).toMatchObject({ state: 'completed', args: { description: 'Buy oat milk' } });
    expect(resumed.items[2]).toMatchObject({ text: 'Added a task.' });
  });

  it('adds a card to look up for each action of a stored thread that waits for approval', () => {
    const detail: ThreadDetail = {
      thread: {
        id: 't1',
        title: 'Milk',
        createdAt: 't',
        updatedAt: 't',
        lastRunStatus: 'awaiting_confirmation',
      },
      messages: [
        {
          id: 'm1',
          threadId: 't1',
          runId: 'r1',
          role: 'user',
          text: 'Add milk',
          createdAt: '2026-11-21T10:00:00Z',
        },
      ],
      actions: [
        {
          id: 'a1',
          runId: 'r1',
          threadId: 't1',
          tool: 'add_task',
          args: { description: 'Buy milk' },
          state: 'awaiting_confirmation',
          error: null,
          createdAt: '2026-11-21T10:00:01Z',
        },
      ],
      runs: [],
    };
    const conversation = conversationFromThread(detail);
    expect(conversation.items.map((item) => item.id)).toEqual(['m1', 'a1', 'approval-a1']);
    expect(conversation.items[2]).toMatchObject({ kind: 'approval', actionId: 'a1', approval: null });
  });

  it('keeps the answer of a run that ends while its conversation is being opened (an agent from the picker)', async () => {
    const thread = { id: 't1', title: 't1', createdAt: 'n', updatedAt: 'n', lastRunStatus: null };
    const { store, emit, answer } = storeWithSlowThread();
    const opened = store.getState().openThread('t1');
    // The run ends before the stored copy arrives; that copy, read after the ending, replaces the live one.
    emit({ type: 'status', ...ids, status: 'completed' });
    emit({ type: 'result', ...ids, result: response({ summary: 'Note: Nothing is open.' }) });
    answer({
      thread,
      messages: [storedMessage('m1', 'r1', 'user', 'Do this: look', '2026-11-21T10:00:00Z')],
      actions: [],
      runs: [storedRun('r1', 'completed', '2026-11-21T10:00:03Z', 'Note: Nothing is open.')],
    });
    await opened;
    const { items, activeRun } = store.getState().conversation;
    expect(activeRun).toBeNull();
    expect(items.map((item) => (item.kind === 'message' ? `${item.role}: ${item.text}` : item.kind))).toEqual(
      ['user: Do this: look', 'assistant: Note: Nothing is open.'],
    );
  });

  it('shows all an agent started from the picker streamed, though it began before its conversation was known', async () => {
    const thread = { id: 't1', title: 'Mail scout', createdAt: 'n', updatedAt: 'n', lastRunStatus: null };
    const { store, emit, answer } = storeWithSlowThread();
    let started: (value: { runId: string; threadId: string }) => void = () => undefined;
    const opened = store
      .getState()
      .openStarted(() => new Promise<{ runId: string; threadId: string }>((resolve) => (started = resolve)));
    // agents.run has not answered: the window does not know the run's conversation yet.
    emit({ type: 'status', ...ids, status: 'queued' });
    emit({ type: 'status', ...ids, status: 'executing' });
    emit({ type: 'delta', ...ids, delta: 'Looking through ' });
    emit({ type: 'delta', runId: 'other', threadId: 'elsewhere', delta: 'not ours' });
    started(ids);
    await Promise.resolve();
    // Its conversation is being read; the turn goes on streaming, then ends and is stored with its words.
    emit({ type: 'delta', ...ids, delta: 'your mail.' });
    emit({
      type: 'tool_call',
      ...ids,
      actionId: 'a1',
      tool: 'gmail_search',
      args: { query: 'invoice' },
      state: 'executing',
    });
    answer({
      thread,
      messages: [
        storedMessage('m1', 'r1', 'user', 'Do this: find the invoice', '2026-11-21T10:00:00Z'),
        storedMessage('m2', 'r1', 'assistant', 'Looking through your mail.', '2026-11-21T10:00:02Z'),
      ],
      actions: [],
      runs: [{ ...storedRun('r1', 'completed', '2026-11-21T10:00:00Z'), status: 'executing' }],
    });
    await opened;
    emit({ type: 'delta', ...ids, delta: 'Found it.' });

    const { conversation } = store.getState();
    expect(conversation.threadId).toBe('t1');
    expect(conversation.activeRun).toEqual({ runId: 'r1', status: 'executing' });
    expect(
      conversation.items.map((item) =>
        item.kind === 'message' ? `${item.role}: ${item.text}` : `${item.kind} ${item.id}`,
      ),
    ).toEqual([
      'user: Do this: find the invoice',
      'assistant: Looking through your mail.',
      'tool a1',
      'assistant: Found it.',
    ]);
  });

  it('opens a conversation at a search hit’s message until the list has shown it, and at its end otherwise', async () => {
    const thread = { id: 't1', title: 't1', createdAt: 'n', updatedAt: 'n', lastRunStatus: null };
    const { client } = fakeClient({
      'thread.get': async () => ({ thread, messages: [], actions: [], runs: [] }),
    });
    const store = createChatStore(client);
    await store.getState().openThread('t1', 'm7');
    expect(store.getState().focusMessageId).toBe('m7');
    store.getState().clearFocus();
    expect(store.getState().focusMessageId).toBeNull();
    await store.getState().openThread('t1', 'm7');
    await store.getState().openThread('t1');
    expect(store.getState().focusMessageId).toBeNull();
  });

  it('deletes a conversation: it leaves the list, and the open one closes', async () => {
    const thread = (id: string) => ({ id, title: id, createdAt: 'n', updatedAt: 'n', lastRunStatus: null });
    let stored = [thread('t1'), thread('t2')];
    const { client } = fakeClient({
      'threads.list': async () => ({ threads: stored, nextBefore: null }),
      'thread.get': async ({ threadId }) => ({
        thread: thread(threadId),
        messages: [],
        actions: [],
        runs: [],
      }),
      'thread.delete': async ({ threadId }) => {
        if (!stored.some((item) => item.id === threadId)) throw new ClientError('not_found', 'Gone.');
        stored = stored.filter((item) => item.id !== threadId);
        return { deleted: threadId, stoppedRuns: 0 };
      },
    });
    const store = createChatStore(client);
    await store.getState().loadThreads();
    await store.getState().openThread('t1');

    expect(await store.getState().deleteThread('t1')).toBe(true);
    expect(store.getState().threads.map((item) => item.id)).toEqual(['t2']);
    expect(store.getState().conversation.threadId).toBeNull();
    // Deleted from another window already: the list catches up, no error.
    expect(await store.getState().deleteThread('t1')).toBe(true);
    expect(store.getState().deleteError).toBeNull();
  });
});

/**
 * A connected store over a host's real run event bus: a subscription to one run replays what it emitted, then
 * follows it live. `thread.get` answers only when the test calls `answer`.
 */
function storeOverBus(stored: (runId: string) => RunEvent[] = () => []) {
  const bus = new RunEventBus(stored);
  let answer: (detail: ThreadDetail) => void = () => undefined;
  const fake = fakeStreamsClient({
    'thread.get': () => new Promise((resolve) => (answer = resolve)),
    'threads.list': async () => ({ threads: [], nextBefore: null }),
  });
  // Each subscription as the socket holds it: a reconnect sends it again, and the host subscribes it anew.
  const subscriptions = new Set<{
    filter: RunEventsFilter;
    listener: (event: RunEvent) => void;
    off: () => void;
    onCaughtUp?: (() => void) | undefined;
  }>();
  // As the host does, it answers the subscription once it has replayed what it holds.
  const subscribe = (subscription: typeof subscriptions extends Set<infer S> ? S : never) => {
    subscription.off = bus.subscribe(subscription.filter, subscription.listener);
    subscription.onCaughtUp?.();
  };
  const client: DeputyClient = {
    ...fake.client,
    on: (_channel, input, listener, options) => {
      const filter = { ...input } as RunEventsFilter;
      const subscription = {
        filter,
        listener: listener as (event: RunEvent) => void,
        off: (): void => undefined,
        onCaughtUp: options?.onCaughtUp,
      };
      subscriptions.add(subscription);
      subscribe(subscription);
      return () => {
        subscriptions.delete(subscription);
        subscription.off();
      };
    },
  };
  const reconnect = (whileDown: () => void = () => undefined) => {
    for (const subscription of subscriptions) subscription.off();
    whileDown();
    for (const subscription of subscriptions) subscribe(subscription);
  };
  const store = createChatStore(client);
  store.getState().connect();
  return { store, bus, reconnect, answer: (detail: ThreadDetail) => answer(detail) };
}

const shownTexts = (conversation: Conversation) =>
  conversation.items.map((item) =>
    item.kind === 'message' ? `${item.role}: ${item.text}` : `${item.kind} ${item.id}`,
  );

const assistantText = (conversation: Conversation) =>
  conversation.items.flatMap((item) =>
    item.kind === 'message' && item.role === 'assistant' ? [item.text] : [],
  );
/** Every conversation the store shows from now on. */
const watch = (store: ReturnType<typeof storeOverBus>['store']) => {
  const seen: Conversation[] = [];
  store.subscribe((state) => seen.push(state.conversation));
  return seen;
};
const shortest = (seen: readonly Conversation[]) =>
  Math.min(...seen.map((conversation) => assistantText(conversation).join('').length));

describe('a conversation opened while its run streams', () => {
  const thread = { id: 't1', title: 't1', createdAt: 'n', updatedAt: 'n', lastRunStatus: null };
  const prompt = storedMessage('m1', 'r1', 'user', 'Count', '2026-11-21T10:00:00Z');
  const workingRun = {
    ...storedRun('r1', 'completed', '2026-11-21T10:00:00Z'),
    status: 'executing' as const,
  };

  it('shows the words the run streamed before it was opened, then the rest live, each once', async () => {
    const { store, bus, answer } = storeOverBus();
    bus.publish({ type: 'status', ...ids, status: 'queued' });
    bus.publish({ type: 'status', ...ids, status: 'executing' });
    bus.publish({ type: 'delta', ...ids, delta: 'One ' });
    bus.publish({ type: 'delta', ...ids, delta: 'two ' });
    const opened = store.getState().openThread('t1');
    // Said while the stored copy (which has no words of the turn under way) is read.
    bus.publish({ type: 'delta', ...ids, delta: 'three ' });
    answer({ thread, messages: [prompt], actions: [], runs: [workingRun] });
    await opened;
    expect(shownTexts(store.getState().conversation)).toEqual(['user: Count', 'assistant: One two three ']);
    expect(store.getState().conversation.activeRun).toEqual({ runId: 'r1', status: 'executing' });

    bus.publish({ type: 'delta', ...ids, delta: 'four.' });
    bus.publish({ type: 'status', ...ids, status: 'completed' });
    bus.publish({ type: 'result', ...ids, result: response({ summary: 'One two three four.' }) });
    expect(shownTexts(store.getState().conversation)).toEqual([
      'user: Count',
      'assistant: One two three four.',
    ]);
    expect(store.getState().conversation.activeRun).toBeNull();
    // Ended, the run is no longer followed: only the window-wide subscription is left.
    expect(bus.subscriberCount).toBe(1);
  });

  it('stops following the run when the window switches conversation', async () => {
    const { store, bus, answer } = storeOverBus();
    bus.publish({ type: 'status', ...ids, status: 'queued' });
    bus.publish({ type: 'delta', ...ids, delta: 'One ' });
    const opened = store.getState().openThread('t1');
    answer({ thread, messages: [prompt], actions: [], runs: [workingRun] });
    await opened;
    expect(bus.subscriberCount).toBe(2);
    store.getState().newConversation();
    expect(bus.subscriberCount).toBe(1);
    bus.publish({ type: 'delta', ...ids, delta: 'two' });
    expect(store.getState().conversation.items).toEqual([]);
  });

  it('keeps the words of a run the host holds only in its journal, which keeps none (resumed after a restart)', async () => {
    // Its first turn asked for a tool; the host restarted and resumed it, and it has said nothing new yet.
    const journal: RunEvent[] = [
      { type: 'status', ...ids, status: 'queued' },
      { type: 'status', ...ids, status: 'executing' },
    ];
    const { store, bus, answer } = storeOverBus((runId) => (runId === 'r1' ? journal : []));
    const opened = store.getState().openThread('t1');
    answer({
      thread,
      messages: [prompt, storedMessage('m2', 'r1', 'assistant', 'Let me add that.', '2026-11-21T10:00:01Z')],
      actions: [],
      runs: [workingRun],
    });
    await opened;
    expect(shownTexts(store.getState().conversation)).toEqual(['user: Count', 'assistant: Let me add that.']);
    // What it says now is shown as it comes.
    bus.publish({ type: 'status', ...ids, status: 'executing' });
    bus.publish({ type: 'delta', ...ids, delta: 'Added.' });
    expect(shownTexts(store.getState().conversation)).toEqual([
      'user: Count',
      'assistant: Let me add that.',
      'assistant: Added.',
    ]);
    expect(store.getState().conversation.activeRun).toEqual({ runId: 'r1', status: 'executing' });
  });

  // Only what it said since the restart is held: its earlier turns are in the stored copy.
  it.each<[string, RunEvent[]]>([
    [
      'whose start the host no longer holds',
      [
        { type: 'status', ...ids, status: 'executing' },
        { type: 'delta', ...ids, delta: 'Before the restart.' },
      ],
    ],
    [
      'that waited in line for a slot (a place in line is not its start)',
      [
        { type: 'status', ...ids, status: 'queued', queuePosition: 1 },
        { type: 'status', ...ids, status: 'executing' },
      ],
    ],
  ])('keeps the stored copy of a run resumed after a restart %s', async (_case, held) => {
    const { store, bus, answer } = storeOverBus();
    for (const event of held) bus.publish(event);
    const opened = store.getState().openThread('t1');
    answer({
      thread,
      messages: [
        prompt,
        storedMessage('m2', 'r1', 'assistant', 'Before the restart.', '2026-11-21T10:00:01Z'),
      ],
      actions: [],
      runs: [workingRun],
    });
    await opened;
    bus.publish({ type: 'delta', ...ids, delta: 'Now.' });
    expect(shownTexts(store.getState().conversation)).toEqual([
      'user: Count',
      'assistant: Before the restart.',
      'assistant: Now.',
    ]);
    expect(bus.subscriberCount).toBe(1);
  });

  it('shows the run once when the socket reconnects and its subscription is replayed again', async () => {
    const { store, bus, reconnect, answer } = storeOverBus();
    bus.publish({ type: 'status', ...ids, status: 'queued' });
    bus.publish({ type: 'status', ...ids, status: 'executing' });
    bus.publish({ type: 'delta', ...ids, delta: 'One ' });
    const opened = store.getState().openThread('t1');
    answer({ thread, messages: [prompt], actions: [], runs: [workingRun] });
    await opened;
    const seen = watch(store);
    // Said while the socket was down: the replay brings it, and meanwhile the run is not shown shorter.
    reconnect(() => bus.publish({ type: 'delta', ...ids, delta: 'two ' }));
    expect(shortest(seen)).toBe('One '.length);
    expect(shownTexts(store.getState().conversation)).toEqual(['user: Count', 'assistant: One two ']);
    bus.publish({ type: 'delta', ...ids, delta: 'three.' });
    expect(shownTexts(store.getState().conversation)).toEqual(['user: Count', 'assistant: One two three.']);
  });

  it('replays the run from its start when it waited in line for a slot', async () => {
    const { store, bus, answer } = storeOverBus();
    bus.publish({ type: 'status', ...ids, status: 'queued' });
    bus.publish({ type: 'status', ...ids, status: 'queued', queuePosition: 2 });
    bus.publish({ type: 'status', ...ids, status: 'queued', queuePosition: 1 });
    bus.publish({ type: 'status', ...ids, status: 'executing' });
    bus.publish({ type: 'delta', ...ids, delta: 'One ' });
    const opened = store.getState().openThread('t1');
    answer({ thread, messages: [prompt], actions: [], runs: [workingRun] });
    await opened;
    bus.publish({ type: 'delta', ...ids, delta: 'two.' });
    expect(shownTexts(store.getState().conversation)).toEqual(['user: Count', 'assistant: One two.']);
  });

  it('shows what an agent it delegated to streamed before it was opened, then the rest live, each once', async () => {
    const { store, bus, reconnect, answer } = storeOverBus();
    const child = { runId: 'r2', threadId: 't1' };
    bus.publish({ type: 'status', ...ids, status: 'queued' });
    bus.publish({ type: 'status', ...ids, status: 'executing' });
    bus.publish({ type: 'delta', ...ids, delta: 'Asking the writer.' });
    bus.publish({ type: 'status', ...child, status: 'queued', parentRunId: 'r1' });
    bus.publish({ type: 'status', ...child, status: 'executing', parentRunId: 'r1' });
    bus.publish({ type: 'delta', ...child, delta: 'Draft one' });
    const opened = store.getState().openThread('t1');
    answer({
      thread,
      messages: [prompt],
      actions: [],
      runs: [workingRun, { ...workingRun, id: 'r2', parentRunId: 'r1' }],
    });
    await opened;
    bus.publish({ type: 'delta', ...child, delta: ' and two.' });
    reconnect();
    const shown = ['user: Count', 'assistant: Asking the writer.', 'assistant: Draft one and two.'];
    expect(shownTexts(store.getState().conversation)).toEqual(shown);
    expect(store.getState().conversation.childRunIds).toEqual(['r2']);
    bus.publish({ type: 'status', ...child, status: 'completed', parentRunId: 'r1' });
    bus.publish({ type: 'result', ...child, result: response({ summary: 'Draft one and two.' }) });
    // The agent's replay ends with it; the parent's goes on.
    expect(bus.subscriberCount).toBe(2);
    expect(store.getState().conversation.activeRun).toEqual({ runId: 'r1', status: 'executing' });
  });

  it('shows the new words of a run paused for approval once when it resumes in the reopened conversation', async () => {
    const { store, bus, reconnect, answer } = storeOverBus();
    bus.publish({ type: 'status', ...ids, status: 'queued' });
    bus.publish({ type: 'status', ...ids, status: 'executing' });
    bus.publish({ type: 'delta', ...ids, delta: 'Let me add that.' });
    bus.publish({ type: 'status', ...ids, status: 'awaiting_confirmation' });
    const opened = store.getState().openThread('t1');
    answer({
      thread,
      messages: [prompt, storedMessage('m2', 'r1', 'assistant', 'Let me add that.', '2026-11-21T10:00:01Z')],
      actions: [],
      runs: [{ ...workingRun, status: 'awaiting_confirmation' }],
    });
    await opened;
    // Paused, it is not followed: its words are in the stored copy.
    expect(bus.subscriberCount).toBe(1);
    // Approved: it waits for a slot, then goes on; a reconnect meanwhile replays nothing of it.
    bus.publish({ type: 'status', ...ids, status: 'queued', queuePosition: 1 });
    bus.publish({ type: 'status', ...ids, status: 'executing' });
    reconnect();
    bus.publish({ type: 'delta', ...ids, delta: 'Added.' });
    bus.publish({ type: 'status', ...ids, status: 'completed' });
    bus.publish({ type: 'result', ...ids, result: response({ summary: 'Added.' }) });
    expect(shownTexts(store.getState().conversation)).toEqual([
      'user: Count',
      'assistant: Let me add that.',
      'assistant: Added.',
    ]);
    expect(store.getState().conversation.activeRun).toBeNull();
  });
});

describe('a conversation whose socket reconnects mid-run', () => {
  const thread = { id: 't1', title: 't1', createdAt: 'n', updatedAt: 'n', lastRunStatus: null };
  const prompt = storedMessage('m1', 'r1', 'user', 'Count', '2026-11-21T10:00:00Z');
  const workingRun = {
    ...storedRun('r1', 'completed', '2026-11-21T10:00:00Z'),
    status: 'executing' as const,
  };
  /** A conversation open on a run started from this window, which has said 'One '. */
  async function streaming() {
    const over = storeOverBus();
    const opened = over.store.getState().openThread('t1');
    over.answer({ thread, messages: [], actions: [], runs: [] });
    await opened;
    // Started from this window: it streams by the window-wide subscription, which replays nothing.
    over.bus.publish({ type: 'status', ...ids, status: 'queued' });
    over.bus.publish({ type: 'status', ...ids, status: 'executing' });
    over.bus.publish({ type: 'delta', ...ids, delta: 'One ' });
    return over;
  }

  it('read again after a reconnect, keeps the run it streamed on screen until its replay brings it whole', async () => {
    const { store, bus, reconnect, answer } = await streaming();
    const seen = watch(store);
    reconnect(() => bus.publish({ type: 'delta', ...ids, delta: 'two ' }));
    const refreshed = store.getState().refreshThread();
    expect(store.getState().conversation.activeRun).toEqual({ runId: 'r1', status: 'executing' });
    answer({ thread, messages: [prompt], actions: [], runs: [workingRun] });
    await refreshed;
    bus.publish({ type: 'delta', ...ids, delta: 'three.' });
    expect(shortest(seen)).toBe('One '.length);
    expect(seen.every((conversation) => conversation.activeRun !== null)).toBe(true);
    expect(shownTexts(store.getState().conversation)).toEqual(['user: Count', 'assistant: One two three.']);
  });

  it('keeps saying the tokens the run has used until its replay says them again (a stored run under way has none)', async () => {
    const { store, bus, reconnect, answer } = await streaming();
    bus.publish({ type: 'usage', ...ids, usage: { inputTokens: 12, outputTokens: 9, totalTokens: 21 } });
    const seen = watch(store);
    reconnect(() => bus.publish({ type: 'delta', ...ids, delta: 'two ' }));
    const refreshed = store.getState().refreshThread();
    answer({ thread, messages: [prompt], actions: [], runs: [workingRun] });
    await refreshed;
    expect(seen.filter((conversation) => conversation.usage?.r1 === undefined)).toEqual([]);
    expect(store.getState().conversation.usage?.r1).toMatchObject({ inputTokens: 12, outputTokens: 9 });
  });

  it('does not add the words said before it is read again to the copy shown, which lacks those said while it was down', async () => {
    const { store, bus, reconnect, answer } = await streaming();
    const seen = watch(store);
    // The socket drops (the window says Reconnecting…), 'two' is said unheard, and the socket is back: 'three' comes
    // live before the window has begun to read the conversation again.
    store.getState().connectionLost();
    reconnect(() => bus.publish({ type: 'delta', ...ids, delta: 'two ' }));
    bus.publish({ type: 'delta', ...ids, delta: 'three ' });
    const refreshed = store.getState().refreshThread();
    answer({ thread, messages: [prompt], actions: [], runs: [workingRun] });
    await refreshed;
    bus.publish({ type: 'delta', ...ids, delta: 'four.' });
    const said = seen.map((conversation) => assistantText(conversation).join(''));
    expect(said.filter((text) => !'One two three four.'.startsWith(text))).toEqual([]);
    expect(shownTexts(store.getState().conversation)).toEqual([
      'user: Count',
      'assistant: One two three four.',
    ]);
  });
});

describe('a conversation read again after a reconnect', () => {
  const thread = { id: 't1', title: 't1', createdAt: 'n', updatedAt: 'n', lastRunStatus: null };
  const prompt = storedMessage('m1', 'r1', 'user', 'Count', '2026-11-21T10:00:00Z');

  it('no longer says it could not be read once a later reading succeeds', async () => {
    const read = async (): Promise<ThreadDetail> => ({ thread, messages: [prompt], actions: [], runs: [] });
    const readings = [
      read,
      () => Promise.reject(new ClientError('disconnected', 'The connection to Deputy was lost.')),
    ];
    const { client } = fakeStreamsClient({
      'thread.get': () => (readings.shift() ?? read)(),
      'threads.list': async () => ({ threads: [], nextBefore: null }),
    });
    const store = createChatStore(client);
    await store.getState().openThread('t1');
    // The socket dropped again while the conversation was read after the first reconnect.
    await store.getState().refreshThread();
    expect(store.getState().threadError).toBe('The connection to Deputy was lost.');
    expect(shownTexts(store.getState().conversation)).toEqual(['user: Count']);
    await store.getState().refreshThread();
    expect(store.getState().threadError).toBeNull();
    expect(shownTexts(store.getState().conversation)).toEqual(['user: Count']);
  });
  it('keeps the message a search hit asked for, whether its reading failed or a reconnect’s reading overtook it', async () => {
    const read = async (): Promise<ThreadDetail> => ({ thread, messages: [prompt], actions: [], runs: [] });
    const readings = [
      () => Promise.reject(new ClientError('disconnected', 'The connection to Deputy was lost.')),
    ];
    const { client } = fakeStreamsClient({
      'thread.get': () => (readings.shift() ?? read)(),
      'threads.list': async () => ({ threads: [], nextBefore: null }),
    });
    const store = createChatStore(client);
    // The socket dropped while the hit's conversation was read: the reading after the reconnect serves it.
    await store.getState().openThread('t1', 'm1');
    await store.getState().refreshThread();
    expect(store.getState().focusMessageId).toBe('m1');
    // Opened while the window reconnects: the reading after the reconnect overtakes the open's own.
    store.getState().clearFocus();
    const opened = store.getState().openThread('t1', 'm1');
    await store.getState().refreshThread();
    await opened;
    expect(store.getState().focusMessageId).toBe('m1');
    expect(shownTexts(store.getState().conversation)).toEqual(['user: Count']);
    // Once the list has shown it, a later reading leaves it shown and asks nothing more.
    store.getState().clearFocus();
    await store.getState().refreshThread();
    expect(store.getState().focusMessageId).toBeNull();
  });
});

describe('the open conversation read on its own (a window whose list does not reach it)', () => {
  const thread = { id: 't1', title: 'Plan my week', createdAt: 'n', updatedAt: 'n', lastRunStatus: null };
  const prompt = storedMessage('m1', 'r1', 'user', 'Plan my week', '2026-11-21T10:00:00Z');

  it('keeps its row from each reading, and forgets it on leaving it', async () => {
    let title = 'Plan my week';
    const { client } = fakeStreamsClient({
      'thread.get': async () => ({ thread: { ...thread, title }, messages: [prompt], actions: [], runs: [] }),
      'threads.list': async () => ({ threads: [], nextBefore: null }),
    });
    const store = createChatStore(client);
    await store.getState().openThread('t1');
    expect(store.getState().openedThread?.title).toBe('Plan my week');
    title = 'Weekly plan';
    await store.getState().readOpenedThread();
    expect(store.getState().openedThread?.title).toBe('Weekly plan');
    // A reading that answers after the window moved on says nothing of the conversation open now.
    const late = store.getState().readOpenedThread();
    store.getState().newConversation();
    await late;
    expect(store.getState().openedThread).toBeNull();
  });

  it('lets it go when it was deleted: a new conversation takes its place, and says which it replaced', async () => {
    let isDeleted = false;
    const { client } = fakeStreamsClient({
      'thread.get': async () => {
        if (isDeleted) throw new ClientError('not_found', 'There is no conversation with the id "t1".');
        return { thread, messages: [prompt], actions: [], runs: [] };
      },
      'threads.list': async () => ({ threads: [], nextBefore: null }),
    });
    const store = createChatStore(client);
    await store.getState().openThread('t1');
    isDeleted = true;
    await store.getState().readOpenedThread();
    expect(store.getState().conversation.threadId).toBeNull();
    expect(store.getState().conversation.items).toEqual([]);
    expect(store.getState().deletedThread).toEqual({
      threadId: 't1',
      title: 'Plan my week',
      isSendRefused: false,
    });
    // Whatever opens next is not that one.
    store.getState().newConversation();
    expect(store.getState().deletedThread).toBeNull();
  });

  it('keeps a message sent to it once deleted out of the conversation, as not sent, with no error shown', async () => {
    const { client } = fakeStreamsClient({
      'thread.get': async () => ({ thread, messages: [prompt], actions: [], runs: [] }),
      'threads.list': async () => ({ threads: [], nextBefore: null }),
      'run.start': async () => {
        throw new ClientError('not_found', 'There is no conversation with the id "t1".');
      },
    });
    const store = createChatStore(client);
    await store.getState().openThread('t1');
    expect(await store.getState().send('And next week?')).toBe(false);
    expect(store.getState().conversation.threadId).toBeNull();
    expect(store.getState().conversation.items).toEqual([]);
    expect(store.getState().deletedThread).toEqual({
      threadId: 't1',
      title: 'Plan my week',
      isSendRefused: true,
    });
    expect(store.getState().isStarting).toBe(false);
  });
});
