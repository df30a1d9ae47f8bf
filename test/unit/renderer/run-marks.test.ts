import { describe, expect, it } from 'vitest';
import type {
  ActionRecord,
  MessageRecord,
  RunEvent,
  RunRecord,
  ThreadDetail,
} from '../../../shared/contract';
import { RUN_MARK_TEXT, markRecovered, placeResumed } from '../../../renderer/src/features/chat/run-marks';
import { conversationFromThread } from '../../../renderer/src/features/chat/stored-thread';
import {
  applyRunEvent,
  emptyConversation,
  type TimelineItem,
} from '../../../renderer/src/features/chat/timeline';
import { sampleResponse } from './fixtures';

const ids = { runId: 'r1', threadId: 't1' };
const fold = (events: RunEvent[]) =>
  events.reduce(applyRunEvent, {
    ...emptyConversation('t1'),
    activeRun: { runId: 'r1', status: 'executing' },
  });
const shape = (items: TimelineItem[]) => items.map((item) => `${item.kind}:${item.id}`);

const message = (id: string, role: 'user' | 'assistant', at: string, runId = 'r1'): MessageRecord => ({
  id,
  threadId: 't1',
  runId,
  role,
  text: `${role} ${id}`,
  createdAt: at,
});
const action = (id: string, at: string, overrides: Partial<ActionRecord> = {}): ActionRecord => ({
  id,
  runId: 'r1',
  threadId: 't1',
  tool: 'gmail_send',
  args: { to: 'sam@x.io' },
  state: 'completed',
  error: null,
  createdAt: at,
  ...overrides,
});
const run = (overrides: Partial<RunRecord> = {}): RunRecord => ({
  id: 'r1',
  threadId: 't1',
  status: 'completed',
  model: 'm',
  summary: null,
  errorCode: null,
  errorMessage: null,
  createdAt: '2026-11-21T10:00:00Z',
  updatedAt: '2026-11-21T10:05:00Z',
  ...overrides,
});
const thread = (parts: Partial<Pick<ThreadDetail, 'messages' | 'actions' | 'runs'>>): ThreadDetail => ({
  thread: { id: 't1', title: 'Mail', createdAt: 't', updatedAt: 't', lastRunStatus: 'completed' },
  messages: [],
  actions: [],
  runs: [],
  ...parts,
});

describe('a recovered run in the stream', () => {
  it('puts the badge on the answer the run streamed, not a plain success', () => {
    const conversation = fold([
      { type: 'delta', ...ids, delta: 'Sent the mail; I ran out of time for the rest.' },
      { type: 'result', ...ids, result: sampleResponse({ recovered: true, summary: 'Sent.' }) },
    ]);
    expect(conversation.items).toEqual([
      expect.objectContaining({ kind: 'message', role: 'assistant', isStreaming: false, isRecovered: true }),
    ]);
  });

  it('badges the summary when nothing was streamed', () => {
    const conversation = fold([
      { type: 'result', ...ids, result: sampleResponse({ recovered: true, summary: 'Done in the end.' }) },
    ]);
    expect(conversation.items).toEqual([
      expect.objectContaining({ id: 'result-r1', text: 'Done in the end.', isRecovered: true }),
    ]);
  });

  it('says it in a line when the run ended on a tool call rather than an answer', () => {
    const conversation = fold([
      { type: 'delta', ...ids, delta: 'Let me finish.' },
      { type: 'tool_call', ...ids, actionId: 'a1', tool: 'complete_task', args: {}, state: 'executing' },
      { type: 'tool_result', ...ids, actionId: 'a1', tool: 'complete_task', state: 'completed' },
      { type: 'result', ...ids, result: sampleResponse({ recovered: true, summary: '' }) },
    ]);
    expect(shape(conversation.items)).toEqual(['message:stream-r1-0', 'tool:a1', 'mark:recovered-r1']);
    expect(conversation.items[0]).not.toHaveProperty('isRecovered');
  });

  it('leaves a plain success and a failed recovery without the badge', () => {
    const plain = fold([{ type: 'result', ...ids, result: sampleResponse({ summary: 'Done.' }) }]);
    expect(plain.items[0]).not.toHaveProperty('isRecovered');
    const failed = fold([
      {
        type: 'result',
        ...ids,
        result: sampleResponse({
          ok: false,
          status: 'failed',
          recovered: true,
          summary: 'Ran out of turns.',
        }),
      },
    ]);
    expect(shape(failed.items)).toEqual(['error:error-r1']);
  });
});

describe('marks of a stored thread', () => {
  it('shows a resumed run’s line before its answer and badges a recovered answer', () => {
    const conversation = conversationFromThread(
      thread({
        messages: [
          message('m1', 'user', '2026-11-21T10:00:00Z'),
          message('m2', 'assistant', '2026-11-21T10:04:00Z'),
        ],
        actions: [action('a1', '2026-11-21T10:01:00Z', { ledgerState: 'committed' })],
        runs: [run({ resumed: true, recovered: true })],
      }),
    );
    expect(shape(conversation.items)).toEqual(['message:m1', 'tool:a1', 'mark:resumed-r1', 'message:m2']);
    expect(conversation.items[1]).toMatchObject({ state: 'completed', ledgerState: 'committed' });
    expect(conversation.items[3]).toMatchObject({ isRecovered: true });
  });

  it('puts the resumed line after what a still-running run has shown, so new work follows it', () => {
    const conversation = conversationFromThread(
      thread({
        messages: [message('m1', 'user', '2026-11-21T10:00:00Z')],
        actions: [action('a1', '2026-11-21T10:01:00Z', { state: 'executing', ledgerState: 'started' })],
        runs: [run({ status: 'executing', resumed: true })],
      }),
    );
    expect(shape(conversation.items)).toEqual(['message:m1', 'tool:a1', 'mark:resumed-r1']);
    const next = applyRunEvent(conversation, { type: 'delta', ...ids, delta: 'Carrying on.' });
    expect(next.items.at(-1)).toMatchObject({ kind: 'message', text: 'Carrying on.' });
    expect(next.items.at(-2)).toMatchObject({ kind: 'mark', mark: 'resumed' });
  });

  it('marks only the runs that say so, and never a failed one as recovered', () => {
    const conversation = conversationFromThread(
      thread({
        messages: [
          message('m1', 'user', '2026-11-21T10:00:00Z'),
          message('m2', 'assistant', '2026-11-21T10:01:00Z'),
          message('m3', 'user', '2026-11-21T10:02:00Z', 'r2'),
        ],
        runs: [
          run(),
          run({
            id: 'r2',
            status: 'failed',
            recovered: true,
            errorMessage: 'Ran out of turns.',
            updatedAt: '2026-11-21T10:03:00Z',
          }),
        ],
      }),
    );
    expect(shape(conversation.items)).toEqual(['message:m1', 'message:m2', 'message:m3', 'error:error-r2']);
    expect(conversation.items.some((item) => item.kind === 'message' && item.isRecovered)).toBe(false);
  });
});

describe('placing marks', () => {
  const items: TimelineItem[] = [
    { kind: 'message', id: 'm1', runId: 'r1', role: 'user', text: 'Send it', isStreaming: false },
  ];

  it('keeps one mark however often it is placed', () => {
    const twice = placeResumed(placeResumed(items, 'r1'), 'r1');
    expect(shape(twice)).toEqual(['message:m1', 'mark:resumed-r1']);
    const recovered = markRecovered(markRecovered(items, 'r1'), 'r1');
    expect(shape(recovered)).toEqual(['message:m1', 'mark:recovered-r1']);
  });

  it('adds the mark of a run with nothing shown at the end', () => {
    expect(shape(placeResumed(items, 'r9'))).toEqual(['message:m1', 'mark:resumed-r9']);
  });

  it('says what happened in words', () => {
    expect(RUN_MARK_TEXT).toEqual({
      resumed: 'Resumed after Deputy restarted',
      recovered: 'Finished in its final turn (recovered)',
    });
  });
});
