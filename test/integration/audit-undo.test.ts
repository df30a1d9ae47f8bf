import { describe, expect, it } from 'vitest';
import type { FakeGoogle } from '../fakes/google/server';
import type { FakeSlack } from '../fakes/slack/server';
import { collect, openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';
import { ALL_AUTO, NOW, useUndoHost } from '../support/undo-host';

const { state, open, act, undo } = useUndoHost();

describe('undo of local actions', () => {
  it('undoes adding, changing, completing and deleting a task, each back to where it was', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model);
    const added = await act(model, 'add_task', { description: 'Renew passport', due: '2026-11-27' });
    const id = added.entityId ?? '';
    const changed = await act(model, 'update_task', { id, description: 'Renew passport and ID' });
    expect(changed.entityBefore).toMatchObject({ description: 'Renew passport' });
    expect(changed.entityAfter).toMatchObject({ description: 'Renew passport and ID' });
    const completed = await act(model, 'mark_task_complete', { id });
    expect(completed.entityAfter).toMatchObject({ status: 'done' });

    const listTasks = async () => {
      model.script(
        call('list_tasks', { status: 'all' }, `call-list-${model.requests.length}`),
        say('Listed.'),
      );
      const done = await host.runToEnd({ prompt: 'List' });
      return (done.output as { tasks: { id: string; description: string; status: string }[] }).tasks;
    };

    await undo(completed);
    expect(await listTasks()).toEqual([expect.objectContaining({ id, status: 'open' })]);
    await undo(changed);
    expect(await listTasks()).toEqual([expect.objectContaining({ id, description: 'Renew passport' })]);

    const deleted = await act(model, 'delete_task', { id });
    expect(await listTasks()).toEqual([]);
    await undo(deleted);
    expect(await listTasks()).toEqual([
      expect.objectContaining({ id, description: 'Renew passport', status: 'open' }),
    ]);

    await undo(added);
    expect(await listTasks()).toEqual([]);
    await expect(host.invoke('audit.undo', { id: added.id })).rejects.toMatchObject({ code: 'conflict' });
    // The chain still checks after all of it.
    expect((await host.invoke('audit.verifyChain', {})).ok).toBe(true);
  });

  it('two undos of one entry asked at once: one runs, the other is refused, the task is deleted once', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model);
    const added = await act(model, 'add_task', { description: 'Pay rent' });
    const results = await Promise.allSettled([
      host.invoke('audit.undo', { id: added.id }),
      host.invoke('audit.undo', { id: added.id }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason).toMatchObject({ code: 'conflict' });
    const undos = (await host.invoke('audit.list', { tool: 'add_task' })).entries.filter(
      (e) => e.kind === 'undo',
    );
    expect(undos.map((e) => e.status)).toEqual(['completed']);
  });

  it('undoes a memory saved, and tells the conversation its tool card was undone', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model);
    const saved = await act(model, 'save_memory', { text: 'My manager is Ana' });
    expect((await host.invoke('memory.list', { limit: 10 })).memories).toHaveLength(1);
    const events = collect(host, saved.runId ?? '');
    await undo(saved);
    expect((await host.invoke('memory.list', { limit: 10 })).memories).toEqual([]);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'notice',
        actionId: saved.actionId,
        message: 'Undone: Remembered “My manager is Ana”.',
        isUndone: true,
      }),
    );
  });

  it('goes through the policy: supervised asks first, a rate limit refuses, and reads are not undoable', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model);
    const added = await act(model, 'add_task', { description: 'Milk' });
    const read = await act(model, 'list_tasks', {}, true);
    await expect(host.invoke('audit.undo', { id: read.id })).rejects.toMatchObject({
      code: 'conflict',
      message: 'It only read: there is nothing to undo.',
    });

    await host.invoke('settings.set', { trustLevel: 'supervised' });
    const asked = await host.invoke('audit.undo', { id: added.id });
    expect(asked).toMatchObject({
      status: 'approval_required',
      undo: { kind: 'undo', status: 'pending', authority: { decision: 'require_approval' } },
      original: { status: 'completed' },
    });
    expect(asked.message).toMatch(/Supervised/);
    // A real approval: in the list every surface reads (cards, notifications), with its expiry.
    const pending = (await host.invoke('approval.list', { status: 'pending' })).approvals;
    expect(pending).toEqual([
      expect.objectContaining({
        id: asked.approvalId,
        tool: 'add_task',
        // Named as the person knows the action, when it was done in their time zone: no tool names, no ISO.
        intent: 'Undo: Added task “Milk”',
        preview: expect.objectContaining({
          title: 'Undo: Added task “Milk”',
          fields: [{ label: 'Done at', value: '23 Nov 2026, 08:00 (Europe/Paris)' }],
        }),
        expiresAt: expect.any(String),
        // Nothing to edit in an undo: no schema, so the card offers no editor.
        argsSchema: {},
      }),
    ]);
    // Asking again while it waits answers the same approval, never a second one.
    expect((await host.invoke('audit.undo', { id: added.id })).approvalId).toBe(asked.approvalId);
    await expect(
      host.invoke('approval.edit', { approvalId: asked.approvalId ?? '', args: {} }),
    ).rejects.toMatchObject({ code: 'invalid_input' });

    // Turned down: nothing undone, the attempt's entry says why.
    await host.invoke('approval.decide', { approvalId: asked.approvalId ?? '', decision: 'reject' });
    expect((await host.invoke('audit.get', { id: asked.undo?.id ?? '' })).entry).toMatchObject({
      status: 'failed',
      errorMessage: expect.stringMatching(/turned this undo down/),
    });
    expect((await host.invoke('audit.get', { id: added.id })).entry.status).toBe('completed');

    // One action a minute, and one was just taken: the undo is refused by the rate limit, and recorded.
    await host.invoke('settings.set', { rateLimits: { actionsPerMinute: 1 } });
    await expect(host.invoke('audit.undo', { id: added.id })).rejects.toMatchObject({
      code: 'rate_limited',
    });
    const refused = (await host.invoke('audit.list', { tool: 'add_task' })).entries.find(
      (e) => e.kind === 'undo',
    );
    expect(refused).toMatchObject({
      status: 'failed',
      authority: { decision: 'deny', rule: 'rate:actions' },
    });
    await host.invoke('settings.set', { rateLimits: { actionsPerMinute: 10 } });
    const again = await host.invoke('audit.undo', { id: added.id });
    expect(again).toMatchObject({ status: 'approval_required', approvalId: asked.approvalId });
    const approved = await host.invoke('approval.decide', {
      approvalId: again.approvalId ?? '',
      decision: 'approve',
    });
    expect(approved).toMatchObject({ ok: true, status: 'completed', summary: 'Undone: Added task “Milk”.' });
    const original = (await host.invoke('audit.get', { id: added.id })).entry;
    expect(original.status).toBe('rolled_back');
    expect((await host.invoke('audit.get', { id: original.undo.undoneBy ?? '' })).entry).toMatchObject({
      kind: 'undo',
      status: 'completed',
      authority: { decision: 'require_approval', approvedBy: 'person' },
    });
  });

  it('expires like any approval: nothing is undone and the entry says so', async () => {
    let now = NOW.getTime();
    const model = new ScriptedModel();
    state.fixture = await openHost(model, { now: () => new Date(now) });
    const { host } = state.fixture;
    await host.invoke('settings.set', { trustLevel: 'autonomous', autonomy: ALL_AUTO });
    const added = await act(model, 'add_task', { description: 'Call the bank' });
    await host.invoke('settings.set', { trustLevel: 'supervised' });
    const asked = await host.invoke('audit.undo', { id: added.id });
    now += 24 * 60 * 60_000;
    expect((await host.invoke('approval.list', { status: 'pending' })).approvals).toEqual([]);
    expect((await host.invoke('audit.get', { id: asked.undo?.id ?? '' })).entry).toMatchObject({
      status: 'failed',
      errorMessage: expect.stringMatching(/expired/),
    });
    expect((await host.invoke('audit.get', { id: added.id })).entry.status).toBe('completed');
  });
});

describe('an undo never silently overwrites a later change', () => {
  it('refuses with changed_since naming what changed; forced, it waits for approval and then runs', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model);
    const added = await act(model, 'add_task', { description: 'Book flights' });
    await act(model, 'update_task', { id: added.entityId, description: 'Book flights and hotel' });

    const refused = host.invoke('audit.undo', { id: added.id });
    await expect(refused).rejects.toMatchObject({ code: 'changed_since' });
    await expect(refused).rejects.toThrow(/The task changed after Deputy's action \(description\)/);
    // Nothing was written for a refused undo, and the task is as the person left it.
    expect((await host.invoke('audit.list', { tool: 'add_task' })).entries.map((e) => e.kind)).toEqual([
      'tool_call',
    ]);

    const forced = await host.invoke('audit.undo', { id: added.id, force: true });
    expect(forced).toMatchObject({ status: 'approval_required', approvalId: expect.any(String) });
    const [approval] = (await host.invoke('approval.list', { status: 'pending' })).approvals;
    expect(approval?.preview.fields).toContainEqual({ label: 'Changed since', value: 'description' });
    await host.invoke('approval.decide', { approvalId: forced.approvalId ?? '', decision: 'approve' });
    expect((await host.invoke('audit.get', { id: added.id })).entry.status).toBe('rolled_back');
    model.script(call('list_tasks', { status: 'all' }, 'call-list'), say('Listed.'));
    const listed = await host.runToEnd({ prompt: 'List' });
    expect((listed.output as { tasks: unknown[] }).tasks).toEqual([]);
  });

  it('a memory the person edited since is not deleted behind their back', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model);
    const saved = await act(model, 'save_memory', { text: 'My manager is Ana' });
    await host.invoke('memory.update', { id: saved.entityId ?? '', text: 'My manager is Ana Lima' });
    await expect(host.invoke('audit.undo', { id: saved.id })).rejects.toMatchObject({
      code: 'changed_since',
      message: expect.stringContaining("The memory changed after Deputy's action (text)"),
    });
    expect((await host.invoke('memory.list', { limit: 10 })).memories).toHaveLength(1);
  });

  it('asked again after a refusal, the same undo row and approval are reused, bound to the new arguments', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model);
    const added = await act(model, 'add_task', { description: 'Renew the lease' });
    await host.invoke('settings.set', { trustLevel: 'supervised' });
    const first = await host.invoke('audit.undo', { id: added.id });
    await host.invoke('approval.decide', { approvalId: first.approvalId ?? '', decision: 'reject' });
    await host.invoke('settings.set', { trustLevel: 'autonomous' });
    await act(model, 'update_task', { id: added.entityId, description: 'Renew the lease (signed)' });
    await expect(host.invoke('audit.undo', { id: added.id })).rejects.toMatchObject({
      code: 'changed_since',
    });
    const forced = await host.invoke('audit.undo', { id: added.id, force: true });
    expect(forced.approvalId).toBe(first.approvalId);
    const approved = await host.invoke('approval.decide', {
      approvalId: forced.approvalId ?? '',
      decision: 'approve',
    });
    expect(approved.summary).toBe('Undone: Added task “Renew the lease”.');
    expect((await host.invoke('audit.get', { id: added.id })).entry.status).toBe('rolled_back');
  });

  it('an undo approved later is checked again: a change made while it waited refuses it', async () => {
    const model = new ScriptedModel();
    const { host } = await open(model);
    const added = await act(model, 'add_task', { description: 'Water plants' });
    await host.invoke('settings.set', { trustLevel: 'supervised' });
    const asked = await host.invoke('audit.undo', { id: added.id });
    await host.invoke('settings.set', { trustLevel: 'autonomous' });
    await act(model, 'mark_task_complete', { id: added.entityId });
    await expect(
      host.invoke('approval.decide', { approvalId: asked.approvalId ?? '', decision: 'approve' }),
    ).rejects.toMatchObject({ code: 'changed_since' });
    expect((await host.invoke('audit.get', { id: added.id })).entry.status).toBe('completed');
  });
});

describe('undo against the services (fakes)', () => {
  it('deletes a created event, restores an updated one, deletes a draft, removes a Slack post; a sent mail stays', async () => {
    const model = new ScriptedModel();
    await open(model, true);
    const g = state.google as FakeGoogle;
    const s = state.slack as FakeSlack;
    const host = (state.fixture as HostFixture).host;

    const created = await act(model, 'calendar_event_create', {
      summary: 'Budget review',
      start: '2026-11-24T10:00:00+01:00',
      end: '2026-11-24T10:30:00+01:00',
    });
    const live = () => g.calendar.events().filter((event) => event.status !== 'cancelled');
    expect(live()).toHaveLength(1);
    await undo(created);
    expect(live()).toEqual([]);

    // An event moved by someone after Deputy created it: deleting it now would lose that, so it is refused.
    const planned = await act(model, 'calendar_event_create', {
      summary: 'Design review',
      start: '2026-11-26T10:00:00+01:00',
      end: '2026-11-26T11:00:00+01:00',
    });
    const stored = live().find((event) => event.id === planned.entityId);
    if (!stored) throw new Error('the fake has no such event');
    stored.location = 'Room 9';
    await expect(host.invoke('audit.undo', { id: planned.id })).rejects.toMatchObject({
      code: 'changed_since',
      message: expect.stringContaining("The calendar event changed after Deputy's action (location)"),
    });
    expect(live().some((event) => event.id === planned.entityId)).toBe(true);

    const existing = g.calendar.addEvent({
      summary: 'Team sync',
      start: { dateTime: '2026-11-25T09:00:00+01:00' },
      end: { dateTime: '2026-11-25T09:30:00+01:00' },
      location: 'Room 1',
    });
    const updated = await act(model, 'calendar_event_update', {
      eventId: existing.id,
      summary: 'Team sync (moved)',
      start: '2026-11-25T15:00:00+01:00',
      end: '2026-11-25T15:30:00+01:00',
      location: null,
    });
    expect(updated.entityBefore).toMatchObject({ summary: 'Team sync', location: 'Room 1' });
    await undo(updated);
    const restored = g.calendar.events().find((event) => event.id === existing.id);
    expect(restored).toMatchObject({ summary: 'Team sync', location: 'Room 1' });
    expect(Date.parse(String(restored?.start.dateTime))).toBe(Date.parse('2026-11-25T09:00:00+01:00'));

    const drafted = await act(model, 'gmail_draft_create', {
      to: ['ana@example.com'],
      subject: 'Q4',
      body: 'Numbers soon.',
    });
    expect(g.gmail.drafts).toHaveLength(1);
    await undo(drafted);
    expect(g.gmail.drafts).toEqual([]);

    const posted = await act(model, 'slack_send', { channel: '#general', text: 'Numbers are on their way.' });
    const general = () => s.state.channels.find((channel) => channel.name === 'general');
    const ts = (posted.entityAfter as { ts: string }).ts;
    expect(general()?.messages.some((message) => message.ts === ts)).toBe(true);
    await undo(posted);
    expect(general()?.messages.some((message) => message.ts === ts)).toBe(false);

    const sent = await act(model, 'gmail_send', { to: ['ana@example.com'], subject: 'Hi', body: 'Hello.' });
    expect(sent).toMatchObject({
      entityType: 'gmail_message',
      entityAfter: { to: ['ana@example.com'], subject: 'Hi', body: 'Hello.' },
      undo: { isReversible: false, whyNot: 'A sent email cannot be unsent.' },
    });
    expect(sent.entityId).toEqual(expect.any(String));
    await expect(host.invoke('audit.undo', { id: sent.id })).rejects.toMatchObject({
      message: 'A sent email cannot be unsent.',
    });
  });
});
