import { describe, expect, it } from 'vitest';
import type { FakeGoogle } from '../fakes/google/server';
import { googleError } from '../fakes/http-kit';
import type { FakeSlack } from '../fakes/slack/server';
import { ScriptedModel } from '../support/scripted-model';
import { useUndoHost } from '../support/undo-host';

const { state, open, act, undo } = useUndoHost();

/**
 * The thing an action made was deleted outside Deputy (or an undo cut short by a crash deleted it): undoing it
 * has nothing left to do. It is no failure and no conflict: the undo says so in words, changes nothing, and the
 * action counts as undone, so its Undo is not offered again to fail the same way.
 */
describe('an undo with nothing left to do', () => {
  it('a task the person deleted since: undone without an approval or an error, and refused a second time', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model);
    const added = await act(model, 'add_task', { description: 'Buy milk' });
    await host.invoke('tasks.change', { tool: 'delete_task', args: { id: added.entityId } });
    // Even where the person's rules ask first: nothing would be done, so there is nothing to approve.
    await host.invoke('settings.set', { trustLevel: 'supervised' });

    const result = await undo(added);
    expect(result?.message).toBe(
      'The task was already deleted outside Deputy, so there was nothing left to undo and Deputy changed nothing. The action now shows as undone.',
    );
    expect(result?.undo).toMatchObject({
      output: { wasAlreadyUndone: true },
      authority: { approvedBy: 'person' },
    });
    expect((await host.invoke('approval.list', { status: 'pending' })).approvals).toEqual([]);
    await expect(host.invoke('audit.undo', { id: added.id })).rejects.toMatchObject({
      code: 'conflict',
      message: 'This action was already undone.',
    });
  });

  it('a change the person put back since: nothing is overwritten, and it counts as undone', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model);
    const added = await act(model, 'add_task', { description: 'Call Sam' });
    const changed = await act(model, 'update_task', { id: added.entityId, description: 'Call Sam at 5' });
    await host.invoke('tasks.change', {
      tool: 'update_task',
      args: { id: added.entityId, description: 'Call Sam' },
    });
    const result = await undo(changed);
    expect(result?.message).toMatch(/^The task was already back as it was before Deputy's action, so/);
    expect(result?.undo?.output).toEqual({ wasAlreadyUndone: true });
    const { tasks } = await host.invoke('tasks.list', { status: 'all' });
    expect(tasks).toEqual([expect.objectContaining({ description: 'Call Sam', status: 'open' })]);
  });

  it('a Slack post and a Gmail draft deleted outside Deputy: one delete asked for each, and each counts as undone', async () => {
    const model = new ScriptedModel();
    await open(model, true);
    const g = state.google as FakeGoogle;
    const s = state.slack as FakeSlack;

    const posted = await act(model, 'slack_send', { channel: '#general', text: 'Lunch is moved to 1pm.' });
    const general = s.state.channels.find((channel) => channel.name === 'general');
    const ts = (posted.entityAfter as { ts: string }).ts;
    general?.messages.splice(
      general.messages.findIndex((message) => message.ts === ts),
      1,
    );
    const deletes = () => s.requests.filter((request) => request.path === '/api/chat.delete').length;
    const unpost = await undo(posted);
    expect(unpost?.message).toBe(
      'The Slack post was already deleted outside Deputy, so there was nothing left to undo and Deputy changed nothing. The action now shows as undone.',
    );
    expect(unpost?.undo?.output).toMatchObject({ wasAlreadyGone: true });
    expect(deletes()).toBe(1);

    const drafted = await act(model, 'gmail_draft_create', {
      to: ['ana@example.com'],
      subject: 'Q4',
      body: 'Numbers soon.',
    });
    g.gmail.drafts.splice(0, g.gmail.drafts.length);
    const undraft = await undo(drafted);
    expect(undraft?.message).toMatch(/^The Gmail draft was already deleted outside Deputy/);
    expect(undraft?.undo?.output).toMatchObject({ wasAlreadyGone: true });
  });
});

describe('an undo over a deletion', () => {
  it('a change undone over a deletion says, in a sentence, that it brings the task back', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model);
    const added = await act(model, 'add_task', { description: 'Pay the gas bill' });
    const changed = await act(model, 'update_task', { id: added.entityId, due: '2026-12-01' });
    await host.invoke('tasks.change', { tool: 'delete_task', args: { id: added.entityId } });
    await expect(host.invoke('audit.undo', { id: changed.id })).rejects.toMatchObject({
      code: 'changed_since',
      message: expect.stringMatching(/^The task was deleted after Deputy's action/),
    });
    const forced = await host.invoke('audit.undo', { id: changed.id, force: true });
    expect(forced.message).toBe(
      "This undo waits for your approval: it would bring the task back, though it was deleted after Deputy's action.",
    );
    await host.invoke('approval.decide', { approvalId: forced.approvalId ?? '', decision: 'approve' });
    const { tasks } = await host.invoke('tasks.list', { status: 'all' });
    expect(tasks).toEqual([expect.objectContaining({ description: 'Pay the gas bill', due: null })]);
  });
});

describe('an undo the service fails', () => {
  it('is recorded as failed in words, leaves the action undoable, and a second try undoes it once', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model, true);
    const g = state.google as FakeGoogle;
    const drafted = await act(model, 'gmail_draft_create', {
      to: ['ana@example.com'],
      subject: 'Budget',
      body: 'Figures attached.',
    });
    g.inject({ match: /^DELETE .*\/drafts\//, response: googleError(503, 'Backend Error', 'backendError') });
    await expect(host.invoke('audit.undo', { id: drafted.id })).rejects.toMatchObject({
      code: 'service_unavailable',
      message: expect.stringMatching(/^It could not be undone: Google/),
    });
    expect(g.gmail.drafts).toHaveLength(1);
    const { entry, related } = await host.invoke('audit.get', { id: drafted.id });
    expect(entry).toMatchObject({ status: 'completed', undo: { isReversible: true, undoneBy: null } });
    expect(related.filter((other) => other.kind === 'undo')).toEqual([
      expect.objectContaining({ status: 'failed', errorMessage: expect.stringMatching(/Google/) }),
    ]);

    await undo(drafted);
    expect(g.gmail.drafts).toEqual([]);
    const deletes = g.requests.filter((request) => request.method === 'DELETE');
    expect(deletes).toHaveLength(2);
  });
});
