import { describe, expect, it } from 'vitest';
import type { RunEvent, ThreadDetail } from '../../../shared/contract';
import { createChatStore } from '../../../renderer/src/features/chat/chat-store';
import { conversationFromThread } from '../../../renderer/src/features/chat/stored-thread';
import {
  applyRunEvent,
  emptyConversation,
  type TimelineItem,
} from '../../../renderer/src/features/chat/timeline';
import { isInLastTurn, markRepeats } from '../../../renderer/src/features/chat/turns';
import { fakeClient, sampleResponse, storedMessage, storedRun } from './fixtures';

const question = (id: string, runId: string | null, text: string): TimelineItem => ({
  kind: 'message',
  id,
  runId,
  role: 'user',
  text,
  isStreaming: false,
});
const answer = (id: string, runId: string, text: string): TimelineItem => ({
  kind: 'message',
  id,
  runId,
  role: 'assistant',
  text,
  isStreaming: false,
});
const failure = (runId: string, code = 'model_server_error'): TimelineItem => ({
  kind: 'error',
  id: `error-${runId}`,
  runId,
  message: 'The model failed.',
  code,
});
const repeats = (items: readonly TimelineItem[], childRunIds?: ReadonlySet<string>) =>
  markRepeats(items, childRunIds).flatMap((item) =>
    item.kind === 'message' && item.isRepeat ? [item.id] : [],
  );

describe('a run replaced by a newer question', () => {
  it('ends in its own turn, so it offers no Ask again and marks no repeat', () => {
    let conversation = emptyConversation('t1');
    const items = (...more: TimelineItem[]) =>
      (conversation = { ...conversation, items: [...conversation.items, ...more] });
    items(question('q1', 'r1', 'Delete the old task'), answer('a1', 'r1', 'It needs your approval.'));
    // Send anyway: the new question is shown before the old run's ending arrives.
    items(question('q2', 'r2', 'Something else'));
    conversation = applyRunEvent(conversation, {
      type: 'error',
      runId: 'r1',
      threadId: 't1',
      error: 'Stopped.',
      code: 'cancelled',
    } as RunEvent);
    expect(conversation.items.map((item) => item.id)).toEqual(['q1', 'a1', 'error-r1', 'q2']);
    expect(isInLastTurn(conversation.items, 'error-r1')).toBe(false);
    // Asked again later, "Something else" is a new question, not a repeat of a failed one.
    items(answer('a2', 'r2', 'Done.'), question('q3', 'r3', 'Something else'));
    expect(repeats(conversation.items)).toEqual([]);
  });

  it('places an ending with no rows of its run at the end', () => {
    const conversation = applyRunEvent({ ...emptyConversation('t1'), items: [question('q1', 'r1', 'Hi')] }, {
      type: 'error',
      runId: 'r9',
      threadId: 't1',
      error: 'Failed.',
    } as RunEvent);
    expect(conversation.items.map((item) => item.id)).toEqual(['q1', 'error-r9']);
  });
});

describe('a question asked again', () => {
  it('is marked as a repeat after a failed or stopped turn, not after an answer or other words', () => {
    const items = [
      question('q1', 'r1', 'Say hello'),
      failure('r1'),
      question('q2', 'r2', 'Say hello'),
      failure('r2', 'cancelled'),
      question('q3', 'r3', 'Say hello'),
      answer('a3', 'r3', 'Hello.'),
      // Regenerate: asked again after an answer, a new turn of its own.
      question('q4', 'r4', 'Say hello'),
      failure('r4'),
      question('q5', 'r5', 'Something else'),
    ];
    expect(repeats(items)).toEqual(['q2', 'q3']);
    // Nothing to mark: the same list comes back, so the rows keep their identity.
    const plain = [question('q1', 'r1', 'Say hello'), answer('a1', 'r1', 'Hello.')];
    expect(markRepeats(plain)).toBe(plain);
  });

  it('is not marked after a turn whose agent failed but whose run answered', () => {
    const asked = question('q1', 'r1', 'Plan my week');
    // A call of r1 started an agent (run c1), which failed; r1 went on and answered.
    const turn = [asked, failure('c1'), answer('a1', 'r1', 'Here is your week, without the calendar.')];
    const again = question('q2', 'r2', 'Plan my week');
    const items = [...turn, again];
    expect(markRepeats(items, new Set(['c1']))).toBe(items);
    // The turn's own run failing still makes the same words a repeat.
    expect(repeats([...turn, failure('r1'), again], new Set(['c1']))).toEqual(['q2']);
  });

  it('is marked in a stored conversation too, where the host kept both questions', () => {
    const detail: ThreadDetail = {
      thread: { id: 't1', title: 'Hello', createdAt: 't', updatedAt: 't', lastRunStatus: 'completed' },
      messages: [
        storedMessage('m1', 'r1', 'user', 'Say hello', '2026-11-21T10:00:00Z'),
        storedMessage('m2', 'r2', 'user', 'Say hello', '2026-11-21T10:01:00Z'),
        storedMessage('m3', 'r2', 'assistant', 'Hello.', '2026-11-21T10:01:01Z'),
      ],
      actions: [],
      runs: [
        storedRun('r1', 'failed', '2026-11-21T10:00:01Z'),
        storedRun('r2', 'completed', '2026-11-21T10:01:01Z'),
      ],
    };
    expect(repeats(conversationFromThread(detail).items)).toEqual(['m2']);
  });
});

describe('Retry', () => {
  it('belongs to the last turn only', () => {
    const items = [question('q1', 'r1', 'Say hello'), failure('r1'), question('q2', 'r2', 'Other')];
    expect(isInLastTurn(items, 'error-r1')).toBe(false);
    expect(isInLastTurn(items.slice(0, 2), 'error-r1')).toBe(true);
    expect(isInLastTurn(items, 'missing')).toBe(false);
  });

  it('sends the question again from the last failure, and not from an earlier one', async () => {
    const started: unknown[] = [];
    let runs = 0;
    const { client, emit } = fakeClient({
      'run.start': async (input) => {
        started.push(input);
        runs += 1;
        return { runId: `r${runs}`, threadId: 't1' };
      },
      'threads.list': async () => ({ threads: [], nextBefore: null }),
    });
    const store = createChatStore(client);
    store.getState().connect();
    const end = (event: RunEvent) => emit('run.events', event);

    await store.getState().send('Say hello');
    end({
      type: 'error',
      runId: 'r1',
      threadId: 't1',
      error: 'The model failed.',
      code: 'model_server_error',
    });
    const first = store.getState().conversation.items.at(-1);
    if (first?.kind !== 'error') throw new Error('expected the failure');

    await store.getState().send('Something else');
    end({ type: 'result', runId: 'r2', threadId: 't1', result: sampleResponse({ runId: 'r2' }) });
    expect(await store.getState().retry(first)).toBe(false);
    expect(started).toHaveLength(2);

    await store.getState().send('Third');
    end({
      type: 'error',
      runId: 'r3',
      threadId: 't1',
      error: 'The model failed.',
      code: 'model_server_error',
    });
    const last = store.getState().conversation.items.at(-1);
    if (last?.kind !== 'error') throw new Error('expected the failure');
    expect(await store.getState().retry(last)).toBe(true);
    expect(started.at(-1)).toMatchObject({ prompt: 'Third', threadId: 't1' });
    expect(repeats(store.getState().conversation.items)).toHaveLength(1);
  });
});
