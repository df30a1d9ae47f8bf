import { describe, expect, it } from 'vitest';
import type { ActionRecord, RunEvent } from '../../shared/contract';
import { collect } from '../support/host-fixture';
import { ScriptedModel } from '../support/scripted-model';
import { useUndoHost } from '../support/undo-host';

const { state, open, act, undo } = useUndoHost();

/** What a chat card learns about Undo: from `thread.get` for a stored conversation, from `tool_result` live. */
describe('a conversation’s actions say where each stands for Undo', () => {
  const actionsOf = async (threadId: string | null): Promise<ActionRecord[]> =>
    (await (state.fixture?.host.invoke('thread.get', { threadId: threadId ?? '' }) ?? null))?.actions ?? [];
  const undoFields = (action: ActionRecord | undefined) => ({
    canUndo: action?.canUndo,
    isUndone: action?.isUndone,
    isUndoWaiting: action?.isUndoWaiting,
    undoNote: action?.undoNote,
  });

  it('a task added can be undone; a read says nothing; once undone, it says so and offers no Undo', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model);
    const events: RunEvent[] = collect(host);
    const added = await act(model, 'add_task', { description: 'Renew passport' });
    const read = await act(model, 'list_tasks', {}, true);

    // Live: the card learns it from its result.
    const results = events.filter((event) => event.type === 'tool_result');
    const undoOf = (event: RunEvent) =>
      event.type === 'tool_result' ? [event.tool, event.canUndo, event.undoNote] : [];
    // A read says nothing either way: it has nothing to undo, and its card need not say so.
    expect(results.map(undoOf)).toEqual([
      ['add_task', true, undefined],
      ['list_tasks', undefined, undefined],
    ]);

    const stored = async (id: string | null, threadId: string | null) =>
      undoFields((await actionsOf(threadId)).find((action) => action.id === id));
    const none = { canUndo: undefined, isUndone: undefined, isUndoWaiting: undefined, undoNote: undefined };
    expect(await stored(added.actionId, added.threadId)).toEqual({ ...none, canUndo: true });
    expect(await stored(read.actionId, read.threadId)).toEqual(none);

    await undo(added);
    expect(await stored(added.actionId, added.threadId)).toEqual({ ...none, isUndone: true });
    // And the conversation heard it as a mark on the card, not only as words.
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'notice',
        actionId: added.actionId,
        isUndone: true,
        message: 'Undone: Added task “Renew passport”.',
      }),
    );
  });

  it('an undo waiting for approval is said; turned down, the action can be undone again', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model);
    const added = await act(model, 'add_task', { description: 'Milk' });
    await host.invoke('settings.set', { trustLevel: 'supervised' });
    const waited: RunEvent[] = collect(host);
    const asked = await host.invoke('audit.undo', { id: added.actionId ?? '' });
    expect(asked.status).toBe('approval_required');
    const action = async () =>
      undoFields((await actionsOf(added.threadId)).find((one) => one.id === added.actionId));
    expect(await action()).toMatchObject({ canUndo: true, isUndoWaiting: true });
    // The conversation, open while the undo was asked for elsewhere (the audit trail, another window), hears
    // that it waits: its card says so without a reload.
    expect(waited.filter((event) => event.type === 'notice')).toEqual([
      expect.objectContaining({
        actionId: added.actionId,
        threadId: added.threadId,
        isUndoWaiting: true,
        message: expect.stringMatching(/^This undo waits for your approval\. Supervised/),
      }),
    ]);
    // Asked again while it waits, the same approval comes back, and nothing new is said.
    const again = await host.invoke('audit.undo', { id: added.actionId ?? '' });
    expect(again.approvalId).toBe(asked.approvalId);
    expect(waited.filter((event) => event.type === 'notice')).toHaveLength(1);

    const events: RunEvent[] = collect(host);
    await host.invoke('approval.decide', { approvalId: asked.approvalId ?? '', decision: 'reject' });
    expect(await action()).toMatchObject({ canUndo: true, isUndoWaiting: undefined });
    // And the conversation, still open, hears it: its card waits no more.
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'notice',
        actionId: added.actionId,
        undoNotDone: 'rejected',
        message: 'You turned this undo down; nothing was undone.',
      }),
    );
    // Turned down with a reason, the card says it after the sentence, whatever the reason ends with.
    for (const [reason, said] of [
      ['Not now.', 'Not now.'],
      ['the list is shared', 'the list is shared.'],
    ] as const) {
      const asking = await host.invoke('audit.undo', { id: added.actionId ?? '' });
      await host.invoke('approval.decide', {
        approvalId: asking.approvalId ?? '',
        decision: 'reject',
        reason,
      });
      expect(events.at(-1)).toMatchObject({
        type: 'notice',
        undoNotDone: 'rejected',
        message: `You turned this undo down; nothing was undone. Your reason: ${said}`,
      });
    }
  });

  it('an approved undo the service refuses: the conversation hears why, and the action can be undone again', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model, true);
    const posted = await act(model, 'slack_send', { channel: '#general', text: 'Pizza at noon.' });
    await host.invoke('settings.set', { trustLevel: 'supervised' });
    const asked = await host.invoke('audit.undo', { id: posted.actionId ?? '' });
    expect(asked.status).toBe('approval_required');
    // Its approval says where the post is in words, not as the address the entry keeps (slack:#general).
    const { approvals } = await host.invoke('approval.list', {});
    expect(approvals.find((one) => one.id === asked.approvalId)?.preview.fields).toContainEqual({
      label: 'Where',
      value: '#general in Slack',
    });
    state.slack?.inject({
      match: /chat\.delete/,
      response: { status: 200, json: { ok: false, error: 'cant_delete_message' } },
    });
    const events: RunEvent[] = collect(host);
    await expect(
      host.invoke('approval.decide', { approvalId: asked.approvalId ?? '', decision: 'approve' }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/^It could not be undone: Slack refused/) });
    const heard = events.filter((event) => event.type === 'notice');
    expect(heard).toEqual([
      expect.objectContaining({
        actionId: posted.actionId,
        threadId: posted.threadId,
        undoNotDone: 'failed',
        message: expect.stringMatching(
          /^It could not be undone: Slack refused deleting the post in #general/,
        ),
      }),
    ]);
    expect(heard[0]).not.toHaveProperty('isUndone');
    const action = (await actionsOf(posted.threadId)).find((one) => one.id === posted.actionId);
    expect(undoFields(action)).toMatchObject({ canUndo: true, isUndoWaiting: undefined });
  });

  it('a sent email says why it has no Undo, live as after a reload', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model, true);
    const events: RunEvent[] = collect(host);
    const sent = await act(model, 'gmail_send', { to: ['ana@example.com'], subject: 'Hi', body: 'Hello.' });
    const action = (await actionsOf(sent.threadId)).find((one) => one.id === sent.actionId);
    expect(undoFields(action)).toEqual({
      canUndo: undefined,
      isUndone: undefined,
      isUndoWaiting: undefined,
      undoNote: 'A sent email cannot be unsent.',
    });
    // The card of the conversation still open learns the same from the call's result.
    const result = events.find((event) => event.type === 'tool_result' && event.actionId === sent.actionId);
    expect(result).toMatchObject({ state: 'completed', undoNote: 'A sent email cannot be unsent.' });
    expect(result).not.toHaveProperty('canUndo');
  });
});
