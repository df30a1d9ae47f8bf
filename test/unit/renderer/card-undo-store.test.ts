import { describe, expect, it } from 'vitest';
import type { AuditEntry, AuditUndoOutput, RunEventOf, ThreadDetail } from '../../../shared/contract';
import { ClientError } from '../../../renderer/src/api/client-error';
import { conversationFromThread } from '../../../renderer/src/features/chat/stored-thread';
import {
  applyRunEvent,
  emptyConversation,
  type Conversation,
} from '../../../renderer/src/features/chat/timeline';
import { createCardUndoStore } from '../../../renderer/src/features/undo/card-undo-store';
import { fakeClient, sampleResponse, undoUnderWay } from './fixtures';

/** An action's entry, as audit.get answers it: a task added, or a post in #general. */
const entry = (actionType: string, change: Partial<AuditEntry> = {}): AuditEntry =>
  ({
    id: 'e1',
    actionId: 'a1',
    actionType,
    status: 'completed',
    entityBefore: null,
    entityAfter: actionType === 'slack_send' ? { channel: '#general' } : { description: 'Milk' },
    undo: { isReversible: true, whyNot: null, undoOf: null, undoneBy: null },
    ...change,
  }) as unknown as AuditEntry;

const undone = (original: AuditEntry): AuditUndoOutput => ({
  status: 'undone',
  message: 'Undone: Added task “Milk”.',
  undo: null,
  original: { ...original, status: 'rolled_back' },
  approvalId: null,
});

describe('Undo on a chat card', () => {
  it('a task: pressed once, it is undone at once; a second press asks nothing more', async () => {
    const task = entry('add_task');
    const { client, calls } = fakeClient({
      'audit.get': async () => ({ entry: task, related: [] }),
      'audit.undo': async () => undone(task),
    });
    const store = createCardUndoStore(client);
    await store.getState().start('a1', false);
    expect(store.getState().cards.a1).toMatchObject({
      isUndone: true,
      prompt: null,
      notice: { text: 'Undone: Added task “Milk”.', isError: false },
    });
    await store.getState().start('a1', false);
    expect(calls.map((call) => call.channel)).toEqual(['audit.get', 'audit.undo']);
    expect(calls[1]?.input).toEqual({ id: 'a1' });
  });

  it('a Slack post: the viewer’s question comes first; Keep it sends nothing, yes deletes it', async () => {
    const post = entry('slack_send');
    const { client, calls } = fakeClient({
      'audit.get': async () => ({ entry: post, related: [] }),
      'audit.undo': async () => undone(post),
    });
    const store = createCardUndoStore(client);
    await store.getState().start('a1', false);
    expect(store.getState().cards.a1?.prompt).toEqual({
      entryId: 'a1',
      kind: 'confirm',
      reason:
        'Delete this post from #general? People there may have read it already, and a deleted post cannot be brought back.',
      approvalId: null,
    });
    expect(store.getState().cards.a1?.yes).toBe('Delete the post');
    store.getState().keep('a1');
    expect(store.getState().cards.a1?.prompt).toBeNull();
    expect(calls.filter((call) => call.channel === 'audit.undo')).toEqual([]);
    await store.getState().start('a1', false);
    await store.getState().undo('a1');
    expect(store.getState().cards.a1?.isUndone).toBe(true);
    expect(calls.filter((call) => call.channel === 'audit.undo')).toHaveLength(1);
  });

  it('undone elsewhere meanwhile: says so and asks the host nothing', async () => {
    const { client, calls } = fakeClient({
      'audit.get': async () => ({ entry: entry('add_task', { status: 'rolled_back' }), related: [] }),
    });
    const store = createCardUndoStore(client);
    await store.getState().start('a1', false);
    expect(store.getState().cards.a1).toMatchObject({
      isUndone: true,
      notice: { text: 'This was already undone.', isError: false },
    });
    expect(calls.map((call) => call.channel)).toEqual(['audit.get']);
  });

  it('an undo of the post under way in another window: says so before any question, and sends nothing', async () => {
    const post = entry('slack_send');
    const running = undoUnderWay(post);
    const { client, calls } = fakeClient({
      'audit.get': async () => ({ entry: post, related: [running] }),
    });
    const store = createCardUndoStore(client);
    await store.getState().start('a1', false);
    expect(store.getState().cards.a1).toMatchObject({
      prompt: null,
      isBusy: false,
      isUndone: false,
      notice: { text: 'This undo is already under way.', isError: false },
    });
    expect(calls.map((call) => call.channel)).toEqual(['audit.get']);

    // One that waits for approval is not under way: the question comes, as before.
    const waiting = {
      ...running,
      authority: { ...running.authority, decision: 'require_approval', approvedBy: null },
    };
    const asked = createCardUndoStore(
      fakeClient({ 'audit.get': async () => ({ entry: post, related: [waiting] }) }).client,
    );
    await asked.getState().start('a1', false);
    expect(asked.getState().cards.a1?.prompt?.kind).toBe('confirm');
  });

  it('changed since: the host’s words, Undo anyway forces it; held for approval, the approval is decided here', async () => {
    const task = entry('add_task');
    const answers: (() => Promise<AuditUndoOutput>)[] = [
      async () => {
        throw new ClientError('changed_since', 'The task changed since Deputy’s action: its description.');
      },
      async () => ({
        status: 'approval_required',
        message: 'This undo waits for your approval.',
        undo: null,
        original: task,
        approvalId: 'ap9',
      }),
    ];
    const { client, calls } = fakeClient({
      'audit.get': async () => ({ entry: task, related: [] }),
      'audit.undo': () => answers.shift()?.() ?? Promise.reject(new Error('asked too often')),
      'approval.decide': async () => sampleResponse({ summary: 'Undone: Added task “Milk”.' }),
    });
    const store = createCardUndoStore(client);
    await store.getState().start('a1', false);
    expect(store.getState().cards.a1?.prompt).toMatchObject({
      kind: 'changed_since',
      reason: 'The task changed since Deputy’s action: its description.',
    });
    await store.getState().undo('a1', true);
    expect(calls.at(-1)?.input).toEqual({ id: 'a1', force: true });
    expect(store.getState().cards.a1).toMatchObject({
      prompt: { kind: 'approval', approvalId: 'ap9', reason: 'This undo waits for your approval.' },
      isWaiting: true,
    });
    await store.getState().decide('a1', 'approve');
    expect(calls.at(-1)).toEqual({
      channel: 'approval.decide',
      input: { approvalId: 'ap9', decision: 'approve' },
    });
    expect(store.getState().cards.a1).toMatchObject({ isUndone: true, isWaiting: false, prompt: null });
  });

  it('a failure is said in words, and Undo comes back', async () => {
    const task = entry('add_task');
    const { client } = fakeClient({
      'audit.get': async () => ({ entry: task, related: [] }),
      'audit.undo': async () => {
        throw new ClientError('service_unavailable', 'It could not be undone: Slack did not answer.');
      },
    });
    const store = createCardUndoStore(client);
    await store.getState().start('a1', false);
    expect(store.getState().cards.a1).toMatchObject({
      isBusy: false,
      isUndone: false,
      prompt: null,
      notice: { text: 'It could not be undone: Slack did not answer.', isError: true },
    });
  });

  it('an undo that did not happen, approved or turned down elsewhere: the card offers Undo again and says why', async () => {
    const post = entry('slack_send');
    const { client, emit, subscribers } = fakeClient({
      'audit.get': async () => ({ entry: post, related: [] }),
      'audit.undo': async () => ({
        status: 'approval_required',
        message: 'This undo waits for your approval.',
        undo: null,
        original: post,
        approvalId: 'ap1',
      }),
    });
    const store = createCardUndoStore(client);
    const disconnect = store.getState().connect();
    await store.getState().start('a1', false);
    await store.getState().undo('a1');
    expect(store.getState().cards.a1).toMatchObject({ prompt: { kind: 'approval' }, isWaiting: true });
    const notice = { type: 'notice', runId: 'r1', threadId: 't1', tool: 'slack_send' } as const;
    // Other notices (a step tried again, an undo done) are not about an undo that did not happen.
    emit('run.events', { ...notice, actionId: 'a1', message: 'Trying again.' });
    expect(store.getState().cards.a1?.isWaiting).toBe(true);

    const refused =
      'It could not be undone: Slack refused deleting the post in #general (cant_delete_message).';
    emit('run.events', { ...notice, actionId: 'a1', message: refused, undoNotDone: 'failed' });
    expect(store.getState().cards.a1).toMatchObject({
      prompt: null,
      isWaiting: false,
      isUndone: false,
      notice: { text: refused, isError: true },
    });
    // A card this window never pressed (opened while its undo waited) hears it too; turned down is no error.
    emit('run.events', {
      ...notice,
      actionId: 'a2',
      message: 'You turned this undo down; nothing was undone.',
      undoNotDone: 'rejected',
    });
    expect(store.getState().cards.a2).toMatchObject({
      isWaiting: false,
      notice: { text: 'You turned this undo down; nothing was undone.', isError: false },
    });
    disconnect();
    expect(subscribers('run.events')).toBe(0);
  });

  it('an undo asked for elsewhere that waits for approval: the card says it waits, and earlier words go', () => {
    const { client, emit } = fakeClient({});
    const store = createCardUndoStore(client);
    store.getState().connect();
    const notice = { type: 'notice', runId: 'r1', threadId: 't1', tool: 'slack_send' } as const;
    const waits = (actionId: string) =>
      emit('run.events', {
        ...notice,
        actionId,
        message: 'This undo waits for your approval. Supervised: every action waits for your approval.',
        isUndoWaiting: true,
      });
    // A card this window never pressed.
    waits('a1');
    expect(store.getState().cards.a1).toMatchObject({ isWaiting: true, notice: null, prompt: null });
    // One whose last undo failed here: its reason no longer says where it stands.
    emit('run.events', {
      ...notice,
      actionId: 'a2',
      message: 'It could not be undone.',
      undoNotDone: 'failed',
    });
    waits('a2');
    expect(store.getState().cards.a2).toMatchObject({ isWaiting: true, notice: null });
  });
});

describe('what a conversation knows of Undo', () => {
  const result = (canUndo?: boolean) =>
    applyRunEvent(emptyConversation('t1'), {
      type: 'tool_result',
      runId: 'r1',
      threadId: 't1',
      actionId: 'a1',
      tool: 'add_task',
      state: 'completed',
      result: { id: 'task1' },
      ...(canUndo !== undefined && { canUndo }),
    });
  /** The conversation hears a notice about a1's card. */
  const heardBy = (conversation: Conversation, said: Partial<RunEventOf<'notice'>>) =>
    applyRunEvent(conversation, {
      type: 'notice',
      runId: 'r1',
      threadId: 't1',
      actionId: 'a1',
      tool: 'add_task',
      message: '',
      ...said,
    });

  it('live: a result that can be undone says so; an undo heard marks the card, with no notice row', () => {
    expect(result(true).items[0]).toMatchObject({ kind: 'tool', canUndo: true });
    expect(result().items[0]).not.toHaveProperty('canUndo');
    const heard = heardBy(result(true), { message: 'Undone: Added task “Milk”.', isUndone: true });
    expect(heard.items).toEqual([expect.objectContaining({ kind: 'tool', isUndone: true, canUndo: false })]);
  });

  it('live: an undo that did not happen leaves its card waiting no more, with no notice row', () => {
    const waiting = {
      ...result(true),
      items: result(true).items.map((item) => ({ ...item, isUndoWaiting: true })),
    };
    const heard = heardBy(waiting, {
      message: 'The approval expired, so nothing was undone.',
      undoNotDone: 'rejected',
    });
    expect(heard.items).toEqual([
      expect.objectContaining({ kind: 'tool', canUndo: true, isUndoWaiting: false }),
    ]);
  });

  it('live: an undo asked for elsewhere that waits marks the card waiting, with no notice row', () => {
    const heard = heardBy(result(true), {
      message: 'This undo waits for your approval.',
      isUndoWaiting: true,
    });
    expect(heard.items).toEqual([
      expect.objectContaining({ kind: 'tool', canUndo: true, isUndoWaiting: true }),
    ]);
    // A notice from before the field (a step tried again) is still a row of its own.
    const older = heardBy(result(true), { message: 'Trying again.' });
    expect(older.items).toEqual([
      expect.not.objectContaining({ isUndoWaiting: true }),
      expect.objectContaining({ kind: 'notice', text: 'Trying again.' }),
    ]);
  });

  it('live: a sent email’s result says why it has no Undo, as its stored action does', () => {
    const sent = applyRunEvent(emptyConversation('t1'), {
      type: 'tool_result',
      runId: 'r1',
      threadId: 't1',
      actionId: 'a1',
      tool: 'gmail_send',
      state: 'completed',
      result: { messageId: 'm1' },
      undoNote: 'A sent email cannot be unsent.',
    });
    expect(sent.items[0]).toMatchObject({ kind: 'tool', undoNote: 'A sent email cannot be unsent.' });
    expect(sent.items[0]).not.toHaveProperty('canUndo');
  });

  it('stored: the action’s Undo fields reach its card, and an older action without them reads as before', () => {
    const action = (id: string, extra: object) => ({
      id,
      runId: 'r1',
      threadId: 't1',
      tool: 'add_task',
      args: {},
      state: 'completed' as const,
      error: null,
      createdAt: '2026-11-21T10:00:00.000Z',
      ...extra,
    });
    const detail = {
      thread: { id: 't1', title: 'x', createdAt: '', updatedAt: '', lastRunStatus: 'completed' },
      messages: [],
      actions: [
        action('a1', { canUndo: true, isUndoWaiting: true }),
        action('a2', { undoNote: 'A sent email cannot be unsent.' }),
        action('a3', {}),
      ],
      runs: [],
    } as unknown as ThreadDetail;
    const items = conversationFromThread(detail).items;
    expect(items[0]).toMatchObject({ canUndo: true, isUndoWaiting: true });
    expect(items[1]).toMatchObject({ undoNote: 'A sent email cannot be unsent.' });
    expect(items[2]).not.toHaveProperty('canUndo');
    expect(items[2]).not.toHaveProperty('undoNote');
  });
});
