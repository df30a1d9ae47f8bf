import { describe, expect, it } from 'vitest';
import type { ThreadDetail } from '../../../shared/contract';
import { summarizeToolCall } from '../../../shared/tool-summaries';
import { friendlyError, isRetryable } from '../../../renderer/src/features/chat/error-words';
import { lastAnsweredPrompt } from '../../../renderer/src/features/chat/RegenerateButton';
import {
  applyRunEvent,
  emptyConversation,
  type Conversation,
  type TimelineItem,
} from '../../../renderer/src/features/chat/timeline';
import { conversationFromThread } from '../../../renderer/src/features/chat/stored-thread';
import { timelineRows } from '../../../renderer/src/features/chat/timeline-rows';
import { isCancelledCall, toolErrorWords } from '../../../renderer/src/features/chat/tool-state';
import { markdownBlocks } from '../../../renderer/src/features/chat/markdown-blocks';
import { describeUsage, tokensAndCost } from '../../../renderer/src/features/chat/run-cost';
import { sampleApproval } from './fixtures';

const tool: TimelineItem = {
  kind: 'tool',
  id: 'a1',
  runId: 'r1',
  tool: 'add_task',
  args: { description: 'buy milk' },
  state: 'awaiting_confirmation',
};
const approval: TimelineItem = {
  kind: 'approval',
  id: 'approval-a1',
  runId: 'r1',
  actionId: 'a1',
  approval: null,
};
const user: TimelineItem = {
  kind: 'message',
  id: 'm1',
  runId: 'r1',
  role: 'user',
  text: 'hi',
  isStreaming: false,
};

describe('tool summaries', () => {
  it('says each call in the product’s words, before and after', () => {
    expect(summarizeToolCall('add_task', { description: 'buy milk' }, true)).toBe('Added task “buy milk”');
    expect(summarizeToolCall('add_task', { description: 'buy milk' }, false)).toBe('Add task “buy milk”');
    expect(
      summarizeToolCall(
        'gmail_draft_create',
        { to: ['sam@example.com'], replyToMessageId: 'x', body: '' },
        true,
      ),
    ).toBe('Drafted a reply to Sam');
    expect(summarizeToolCall('slack_send', { channel: 'standup', text: 'hi' }, true)).toBe(
      'Posted in #standup',
    );
    expect(summarizeToolCall('list_tasks', {}, true, { result: { tasks: [{}, {}] } })).toBe(
      'Looked at your tasks (2 tasks)',
    );
    expect(summarizeToolCall('files__read_file', {}, true)).toBe('Used files: read file');
    // A search that gave no words (a call that failed on its empty query) ends its sentence, not on "for".
    expect(summarizeToolCall('search_memory', { query: '' }, false)).toBe('Search your memories');
    expect(summarizeToolCall('gmail_search', {}, true, { result: { messages: [] } })).toBe(
      'Searched your mail (none)',
    );
    // A task's id is all its arguments hold: once done, the result names it; an older result, or a failure, cannot.
    const done = { task: { id: 't1', description: 'Buy milk' } };
    expect(summarizeToolCall('mark_task_complete', { id: 't1' }, true, { result: done })).toBe(
      'Marked task “Buy milk” done',
    );
    expect(summarizeToolCall('mark_task_complete', { id: 't1' }, true, { result: null })).toBe(
      'Marked a task done',
    );
    expect(
      summarizeToolCall('delete_task', { id: 't1' }, true, {
        result: { deleted: 't1', description: 'Buy milk' },
      }),
    ).toBe('Deleted task “Buy milk”');
    expect(summarizeToolCall('delete_task', { id: 't1' }, true, { result: { deleted: 't1' } })).toBe(
      'Deleted a task',
    );
    expect(summarizeToolCall('search_memory', { query: 'milk' }, false)).toBe(
      'Search your memories for “milk”',
    );
  });

  it('names a Slack channel given by its id as what it is, with the id, never as “#” and an id', () => {
    const slack = (tool: string, channel: string) => summarizeToolCall(tool, { channel, text: 'hi' }, true);
    expect(slack('slack_send', 'C0RANDOM01')).toBe('Posted in Slack channel C0RANDOM01');
    expect(slack('slack_send', 'G0LEADS001')).toBe('Posted in Slack channel G0LEADS001');
    expect(slack('slack_send', 'D0CAROL001')).toBe('Posted in Slack DM D0CAROL001');
    expect(slack('slack_read', 'C0GENERAL1')).toBe('Read Slack channel C0GENERAL1');
    // A name as the host reads it: lower case, one “#”.
    expect(slack('slack_send', '#General')).toBe('Posted in #general');
    expect(summarizeToolCall('slack_send', { text: 'hi' }, false)).toBe('Post in a channel');
  });

  it('names a channel given by id as its approval does when the call or its result knows the name', () => {
    const names = { C0RANDOM01: '#random', D0CAROL001: 'Slack DM with carol.c' };
    const post = { channel: 'C0RANDOM01', text: 'hi' };
    // Before it happened (waiting, rejected, failed) and after, from the names its tool_call carried.
    expect(summarizeToolCall('slack_send', post, false, { names })).toBe('Post in #random');
    expect(summarizeToolCall('slack_send', post, true, { names })).toBe('Posted in #random');
    expect(
      summarizeToolCall('slack_send', { channel: 'D0CAROL001', text: 'hi', thread_ts: '1.2' }, false, {
        names,
      }),
    ).toBe('Reply in a thread in Slack DM with carol.c');
    expect(summarizeToolCall('slack_read', { channel: ' C0RANDOM01 ' }, false, { names })).toBe(
      'Read #random',
    );
    // Once done, the result's channel names it too (the audit trail has the result, not the names).
    const result = { channel: { id: 'C0RANDOM01', label: 'C0RANDOM01', name: '#random' }, ts: '1.2' };
    expect(summarizeToolCall('slack_send', post, true, { result })).toBe('Posted in #random');
    expect(summarizeToolCall('slack_read', { channel: 'C0RANDOM01' }, true, { result })).toBe('Read #random');
    // Without a name (an older call, a channel Slack did not name), the id's words as before.
    expect(summarizeToolCall('slack_send', post, false, { names: { C0OTHER001: '#other' } })).toBe(
      'Post in Slack channel C0RANDOM01',
    );
    const unnamed = { channel: { id: 'C0RANDOM01', label: 'C0RANDOM01' }, ts: '1.2' };
    expect(summarizeToolCall('slack_send', post, true, { result: unnamed })).toBe(
      'Posted in Slack channel C0RANDOM01',
    );
    // A channel the model calls "constructor" is no name any object has.
    expect(summarizeToolCall('slack_read', { channel: 'constructor' }, true, { names: {} })).toBe(
      'Read #constructor',
    );
  });

  it('says work handed to an agent in words, by the name the person knows it by', () => {
    const label = (name: string) => ({ helper: 'Task helper' })[name] ?? null;
    const task = { agent: 'helper', task: 'count my tasks' };
    expect(summarizeToolCall('delegate_to_agent', task, false, { agentLabel: label })).toBe(
      'Hand “count my tasks” to Task helper',
    );
    expect(summarizeToolCall('delegate_to_agent', task, true)).toBe('Handed “count my tasks” to helper');
    // An agent's own tool (its inputs as arguments) reads the same; a tool that is no agent keeps its name.
    expect(summarizeToolCall('helper', { task: 'count my tasks' }, true, { agentLabel: label })).toBe(
      'Handed “count my tasks” to Task helper',
    );
    expect(summarizeToolCall('helper', {}, false, { agentLabel: label })).toBe('Hand a task to Task helper');
    expect(summarizeToolCall('files__read_file', {}, true, { agentLabel: label })).toBe(
      'Used files: read file',
    );
  });

  it('reads arguments the model sent wrong without throwing', () => {
    expect(summarizeToolCall('gmail_send', { to: 42 }, true)).toBe('Sent an email to someone');
  });
});

describe('a failed call’s error, for the person', () => {
  it('says arguments the tool refused without the tool’s name; other errors as they came', () => {
    const refused = (error: string) => ({ tool: 'search_memory', error, errorCode: 'invalid_arguments' });
    expect(toolErrorWords(refused("search_memory's query must not be empty."))).toBe(
      'Deputy did not run this. Its query must not be empty.',
    );
    expect(
      toolErrorWords(
        refused(
          'search_memory has no argument named "q": leave it out. search_memory\'s limit must be at most 20.',
        ),
      ),
    ).toBe(
      'Deputy did not run this. It has no argument named "q": leave it out. Its limit must be at most 20.',
    );
    expect(toolErrorWords({ tool: 'search_memory', error: 'The index is busy.' })).toBe('The index is busy.');
    expect(toolErrorWords({ tool: 'search_memory' })).toBeNull();
  });
});

describe('a call turned down as its run was ended', () => {
  const note = 'Cancelled: you cancelled the plan.';
  const stopped = (message: string): TimelineItem => ({
    kind: 'error',
    id: 'error-r1',
    runId: 'r1',
    message,
    code: 'cancelled',
  });
  const refused = (error: string) => ({ runId: 'r1', state: 'rejected' as const, error });

  it('is cancelled when its run was stopped with the words it was refused with', () => {
    expect(isCancelledCall(refused(note), [stopped(note)])).toBe(true);
  });

  it('is rejected when the person said no, even if the run was stopped later', () => {
    const theirs = 'The user rejected this action: I already have milk. Do not retry it unless they ask.';
    expect(isCancelledCall(refused(theirs), [stopped('Stopped.')])).toBe(false);
    expect(isCancelledCall(refused(note), [])).toBe(false);
    expect(isCancelledCall({ ...refused(note), runId: 'r2' }, [stopped(note)])).toBe(false);
  });
});

describe('the names a call’s card reads its ids by', () => {
  const ids = { runId: 'r1', threadId: 't1' };
  const post = { channel: 'C0RANDOM01', text: 'Hi' };
  const names = { C0RANDOM01: '#random' };
  const called = (conversation: Conversation, state: 'awaiting_confirmation' | 'executing', extra = {}) =>
    applyRunEvent(conversation, {
      type: 'tool_call',
      ...ids,
      actionId: 'a1',
      tool: 'slack_send',
      args: post,
      state,
      ...extra,
    });

  it('come with its tool_call and stay when a later one (carried out after approval) names nothing', () => {
    const waiting = called(emptyConversation('t1'), 'awaiting_confirmation', { names });
    expect(waiting.items[0]).toMatchObject({ kind: 'tool', names });
    const going = called(waiting, 'executing');
    expect(going.items[0]).toMatchObject({ kind: 'tool', state: 'executing', names });
    // An event from before names were sent leaves a card without them.
    expect(called(emptyConversation('t1'), 'executing').items[0]).not.toHaveProperty('names');
  });

  it('are read back from the stored thread, and an action stored before them has none', () => {
    const action = {
      id: 'a1',
      runId: 'r1',
      threadId: 't1',
      tool: 'slack_send',
      args: post,
      state: 'rejected' as const,
      error: null,
      createdAt: '2026-11-28T10:00:00Z',
    };
    const stored = (actions: ThreadDetail['actions']) =>
      conversationFromThread({
        thread: { id: 't1', title: 'Post', createdAt: 't', updatedAt: 't', lastRunStatus: 'completed' },
        messages: [],
        actions,
        runs: [],
      }).items[0];
    expect(stored([{ ...action, names }])).toMatchObject({ kind: 'tool', names });
    expect(stored([action])).not.toHaveProperty('names');
  });
});

describe('a call cut off while it ran, as its run was stopped', () => {
  const ids = { runId: 'r1', threadId: 't1' };
  const running: Conversation = {
    ...emptyConversation('t1'),
    items: [{ kind: 'tool', id: 'a1', runId: 'r1', tool: 'odd__hang', args: {}, state: 'executing' }],
  };
  const ended = (extra: { code?: string }): TimelineItem | undefined =>
    applyRunEvent(running, {
      type: 'tool_result',
      ...ids,
      actionId: 'a1',
      tool: 'odd__hang',
      state: 'failed',
      error: 'odd__hang was stopped because the run was cancelled.',
      ...extra,
    }).items[0];

  it('is cancelled when its tool_result says so by its code, live or read back from the thread', () => {
    const card = ended({ code: 'cancelled' });
    expect(card).toMatchObject({ state: 'failed', errorCode: 'cancelled' });
    if (card?.kind !== 'tool') throw new Error('no card');
    expect(isCancelledCall(card, [])).toBe(true);
    const stored = conversationFromThread({
      thread: { id: 't1', title: 'Wait', createdAt: 't', updatedAt: 't', lastRunStatus: 'failed' },
      messages: [],
      actions: [
        {
          id: 'a1',
          runId: 'r1',
          threadId: 't1',
          tool: 'odd__hang',
          args: {},
          state: 'failed',
          error: 'odd__hang was stopped because the run was cancelled.',
          errorCode: 'cancelled',
          createdAt: '2026-11-27T10:00:00Z',
        },
      ],
      runs: [],
    }).items[0];
    expect(stored).toMatchObject({ kind: 'tool', errorCode: 'cancelled' });
    if (stored?.kind !== 'tool') throw new Error('no stored card');
    expect(isCancelledCall(stored, [])).toBe(true);
  });

  it('failed when its code says another failure, or when it has none (an event stored before codes were sent)', () => {
    for (const extra of [{ code: 'timeout' }, {}]) {
      const card = ended(extra);
      if (card?.kind !== 'tool') throw new Error('no card');
      expect(isCancelledCall(card, [])).toBe(false);
    }
  });
});

describe('a stored thread', () => {
  const call = (id: string, state: 'completed' | 'awaiting_confirmation' | 'rejected') => ({
    id,
    runId: 'r1',
    threadId: 't1',
    tool: 'add_task',
    args: {},
    state,
    error: null,
    createdAt: '2026-11-27T10:00:00Z',
  });
  const thread = {
    id: 't1',
    title: 'Milk',
    createdAt: 't',
    updatedAt: 't',
    lastRunStatus: 'completed' as const,
  };

  it('puts each decided approval under its call as live: the newest one of a call asked again', () => {
    const approved = sampleApproval({
      id: 'ap2',
      actionId: 'a1',
      status: 'approved',
      createdAt: '2026-11-27T10:02:00Z',
    });
    const waiting = sampleApproval({ id: 'ap3', actionId: 'a2' });
    const stored = conversationFromThread({
      thread,
      messages: [],
      actions: [call('a1', 'completed'), call('a2', 'awaiting_confirmation'), call('a3', 'completed')],
      runs: [],
      approvals: [sampleApproval({ id: 'ap1', actionId: 'a1', status: 'rejected' }), approved, waiting],
    });
    expect(stored.items.map((item) => item.id)).toEqual(['a1', 'approval-a1', 'a2', 'approval-a2', 'a3']);
    expect(stored.items[1]).toMatchObject({ kind: 'approval', approval: approved });
    // One still waiting is looked up as before: opened, it is not announced as new.
    expect(stored.items[3]).toMatchObject({ kind: 'approval', approval: null });
  });

  it('from an older host (no approvals), shows only the waiting one, looked up', () => {
    const stored = conversationFromThread({
      thread,
      messages: [],
      actions: [call('a1', 'rejected'), call('a2', 'awaiting_confirmation')],
      runs: [],
    });
    expect(stored.items.map((item) => item.id)).toEqual(['a1', 'a2', 'approval-a2']);
  });
});

describe('timeline rows', () => {
  it('puts an approval inside its tool card and keeps the merged row while nothing changes', () => {
    const items = [user, tool, approval];
    const rows = timelineRows(items);
    expect(rows.map((row) => row.id)).toEqual(['m1', 'a1']);
    expect(rows[1]).toMatchObject({ approvalItem: approval });
    expect(timelineRows([...items])[1]).toBe(rows[1]);
  });

  it('keeps an approval whose card is missing as a row of its own', () => {
    expect(timelineRows([user, approval]).map((row) => row.id)).toEqual(['m1', 'approval-a1']);
  });
});

describe('run ends', () => {
  it('take the run’s notices away', () => {
    let conversation: Conversation = { ...emptyConversation('t1'), items: [user] };
    conversation = applyRunEvent(conversation, {
      type: 'notice',
      runId: 'r1',
      threadId: 't1',
      actionId: 'a1',
      tool: 'add_task',
      message: 'Trying again in 1 s',
    });
    expect(conversation.items.some((item) => item.kind === 'notice')).toBe(true);
    conversation = applyRunEvent(conversation, {
      type: 'status',
      runId: 'r1',
      threadId: 't1',
      status: 'completed',
    });
    expect(conversation.items.some((item) => item.kind === 'notice')).toBe(false);
  });
});

describe('child runs', () => {
  it('are noted as they start, before they say anything, once each, and the window keeps following the parent', () => {
    const live: Conversation = {
      ...emptyConversation('t1'),
      activeRun: { runId: 'parent', status: 'executing' },
    };
    const started = applyRunEvent(live, {
      type: 'status',
      runId: 'child',
      threadId: 't1',
      status: 'queued',
      parentRunId: 'parent',
    });
    expect(started.childRunIds).toEqual(['child']);
    expect(started.activeRun).toEqual(live.activeRun);
    expect(started.items).toEqual([]);
    const going = applyRunEvent(started, {
      type: 'status',
      runId: 'child',
      threadId: 't1',
      status: 'executing',
      parentRunId: 'parent',
    });
    expect(going).toBe(started);
  });
});

describe('words', () => {
  it('never shows an address or a low-level code in the friendly line', () => {
    expect(friendlyError('model_unavailable')).not.toMatch(/127\.0\.0\.1|UND_ERR/);
    expect(friendlyError('model_not_configured')).toContain('Settings → Connections');
    // A key Gemini refused is not a missing key: the person is told to check it, and Retry is not offered.
    expect(friendlyError('model_key_rejected')).toContain('didn’t accept');
    expect(friendlyError('model_key_rejected')).toContain('Settings → Connections');
    expect(friendlyError('model_key_rejected')).not.toBe(friendlyError('model_not_configured'));
    expect(isRetryable('model_key_rejected')).toBe(false);
    expect(isRetryable('model_server_error')).toBe(true);
    expect(friendlyError('something_new')).toBe('Deputy couldn’t finish this.');
  });

  it('drops the advice to try again once a later turn exists, and keeps what happened', () => {
    const codes = ['model_unavailable', 'model_rate_limited', 'model_server_error', 'model_bad_response'];
    for (const code of [...codes, 'rate_limited', 'disconnected', 'service_unavailable', 'too_many']) {
      expect(friendlyError(code)).toMatch(/try again/i);
      const earlier = friendlyError(code, { hasLaterTurn: true });
      expect(earlier).not.toMatch(/try again/i);
      expect(friendlyError(code).startsWith(earlier)).toBe(true);
    }
    expect(friendlyError('model_bad_response', { hasLaterTurn: true })).toBe(
      'Gemini couldn’t answer this request.',
    );
    // Advice that is not "try again" stays: the key still needs checking.
    expect(friendlyError('model_key_rejected', { hasLaterTurn: true })).toContain('Settings → Connections');
  });

  it('regenerates only when the conversation ends on an answer', () => {
    const answer: TimelineItem = { ...user, id: 'm2', role: 'assistant', text: 'hello' };
    expect(lastAnsweredPrompt([user, answer])).toBe('hi');
    expect(lastAnsweredPrompt([user])).toBeNull();
  });
});

describe('markdown blocks', () => {
  it('splits at blank lines outside fenced code, and gives the text back joined', () => {
    const text = 'One\nstill one\n\n- a\n- b\n\n```\ncode\n\nmore code\n```\n\nlast';
    const blocks = markdownBlocks(text);
    expect(blocks).toEqual(['One\nstill one', '- a\n- b', '```\ncode\n\nmore code\n```', 'last']);
    expect(blocks.join('\n\n')).toBe(text);
  });
});

describe('run usage', () => {
  it('adds a run’s turns up and puts its footer after the run’s last row', () => {
    let conversation: Conversation = { ...emptyConversation('t1'), items: [user] };
    const usage = { inputTokens: 1_000, outputTokens: 200, totalTokens: 1_200 };
    conversation = applyRunEvent(conversation, { type: 'usage', runId: 'r1', threadId: 't1', usage });
    conversation = applyRunEvent(conversation, { type: 'usage', runId: 'r1', threadId: 't1', usage });
    const footer = conversation.usage?.r1;
    expect(footer).toEqual({ inputTokens: 2_000, outputTokens: 400 });
    const answer: TimelineItem = { ...user, id: 'm2', role: 'assistant', text: 'hello' };
    const rows = timelineRows([user, answer], conversation.usage);
    expect(rows.map((row) => row.id)).toEqual(['m1', 'm2', 'usage-r1']);
    expect(describeUsage({ inputTokens: 2_000, outputTokens: 400, model: 'gemini-2.5-flash' })).toBe(
      '2,000 tokens in, 400 out · about $0.0016 (gemini-2.5-flash)',
    );
    expect(describeUsage({ inputTokens: 10, outputTokens: 2, model: 'gemini-2.5-flash' })).toBe(
      '10 tokens in, 2 out · under $0.0001 (gemini-2.5-flash)',
    );
    expect(describeUsage({ inputTokens: 5, outputTokens: 1, model: 'some-new-model' })).toBe(
      '5 tokens in, 1 out (some-new-model)',
    );
  });

  it('says an agent’s row the way its footer says the run, less the model', () => {
    expect(tokensAndCost(24, 35, 0.00003)).toBe('24 tokens in, 35 out · under $0.0001');
    expect(describeUsage({ inputTokens: 24, outputTokens: 35, model: 'gemini-2.5-flash' })).toBe(
      `${tokensAndCost(24, 35, 0.00003)} (gemini-2.5-flash)`,
    );
    expect(tokensAndCost(2_000, 400, 0.0016)).toBe('2,000 tokens in, 400 out · about $0.0016');
    expect(tokensAndCost(1, 0, null)).toBe('1 token in, 0 out');
  });
});
