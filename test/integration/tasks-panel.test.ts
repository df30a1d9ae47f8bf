import { afterEach, describe, expect, it } from 'vitest';
import type { TasksChangeOutput, TaskItem } from '../../shared/contract';
import { TASKS_THREAD_ID } from '../../shared/contract';
import { jsonOf, serveApi, type ApiServer } from '../support/api-server';
import { openHost, type HostFixture } from '../support/host-fixture';
import { say, ScriptedModel } from '../support/scripted-model';

let fixture: HostFixture | null = null;
let served: ApiServer | null = null;
afterEach(async () => {
  await served?.server.close();
  await fixture?.close();
  served = fixture = null;
});

/** Autonomous trust with the default per-action settings: tasks are added and changed, a delete asks first. */
async function open() {
  fixture = await openHost(new ScriptedModel(say('Hello.')));
  await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });
  served = await serveApi(fixture, 'token-tasks');
  return { host: fixture.host, json: jsonOf(served.api) };
}

const added = (outcome: TasksChangeOutput): string => {
  if (outcome.status !== 'done') throw new Error(`expected done, got ${JSON.stringify(outcome)}`);
  return ((outcome.result as { task: { id: string } }).task ?? { id: '' }).id;
};

describe('the Tasks panel, through the chat’s tools and policy', () => {
  it('adds, edits and completes a task; each change is an audited call, and no conversation appears', async () => {
    const { host, json } = await open();
    const add = await json<TasksChangeOutput>('/api/tasks', {
      method: 'POST',
      body: JSON.stringify({ description: 'Buy milk', due: '2026-11-25' }),
    });
    expect(add.status).toBe(200);
    const id = added(add.body);
    const edit = await json<TasksChangeOutput>(`/api/tasks/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ description: 'Buy oat milk', notes: 'Two litres' }),
    });
    expect(edit.body.status).toBe('done');
    expect((await json<TasksChangeOutput>(`/api/tasks/${id}/complete`, { method: 'POST' })).body.status).toBe(
      'done',
    );

    const stillOpen = await json<{ tasks: TaskItem[] }>('/api/tasks?status=open');
    expect(stillOpen.body.tasks).toEqual([]);
    const done = await json<{ tasks: TaskItem[] }>('/api/tasks?status=done');
    expect(done.body.tasks).toMatchObject([
      { id, description: 'Buy oat milk', notes: 'Two litres', due: '2026-11-25', status: 'done' },
    ]);

    // Each change went through the ledger and the audit trail, as a call the person asked for.
    const audit = await host.invoke('audit.list', { limit: 50 });
    const tools = audit.entries.map((entry) => entry.actionType);
    expect(tools).toEqual(expect.arrayContaining(['add_task', 'update_task', 'mark_task_complete']));
    // The panel's runs live in a thread of their own that the conversation list leaves out.
    expect((await host.invoke('threads.list', {})).threads.map((thread) => thread.id)).not.toContain(
      TASKS_THREAD_ID,
    );
  });

  it('a change made in the panel is undone from the audit trail like a chat one', async () => {
    const { host, json } = await open();
    const id = added(
      (
        await json<TasksChangeOutput>('/api/tasks', {
          method: 'POST',
          body: JSON.stringify({ description: 'Undo me' }),
        })
      ).body,
    );
    const entry = (await host.invoke('audit.list', { limit: 50 })).entries.find(
      (item) => item.actionType === 'add_task' && item.kind !== 'undo',
    );
    if (!entry) throw new Error('the panel’s add should be in the audit trail');
    expect(entry.threadId).toBe(TASKS_THREAD_ID);
    const undone = await host.invoke('audit.undo', { id: entry.id });
    expect(undone.status).toBe('undone');
    expect((await json<{ tasks: TaskItem[] }>('/api/tasks')).body.tasks.map((task) => task.id)).not.toContain(
      id,
    );
  });

  it('a delete waits for approval under the default rules; approving it deletes, another change meanwhile does not cancel it', async () => {
    const { host, json } = await open();
    const id = added(
      (
        await json<TasksChangeOutput>('/api/tasks', {
          method: 'POST',
          body: JSON.stringify({ description: 'Old task' }),
        })
      ).body,
    );
    const other = added(
      (
        await json<TasksChangeOutput>('/api/tasks', {
          method: 'POST',
          body: JSON.stringify({ description: 'Keep me' }),
        })
      ).body,
    );
    const asked = await json<TasksChangeOutput>(`/api/tasks/${id}`, { method: 'DELETE' });
    expect(asked.body.status).toBe('waiting');
    if (asked.body.status !== 'waiting') return;
    // A second change in the panel leaves the waiting approval waiting.
    expect(
      (await json<TasksChangeOutput>(`/api/tasks/${other}/complete`, { method: 'POST' })).body.status,
    ).toBe('done');
    const pending = await host.invoke('approval.list', { status: 'pending' });
    expect(pending.approvals.map((approval) => approval.id)).toEqual([asked.body.approvalId]);
    await host.invoke('approval.decide', { approvalId: asked.body.approvalId, decision: 'approve' });
    const all = await json<{ tasks: TaskItem[] }>('/api/tasks');
    expect(all.body.tasks.map((task) => task.id)).toEqual([other]);
  });

  it('under supervised trust (the default) even an add waits for the person’s approval, as in the chat', async () => {
    const { host, json } = await open();
    await host.invoke('settings.set', { trustLevel: 'supervised' });
    const asked = await json<TasksChangeOutput>('/api/tasks', {
      method: 'POST',
      body: JSON.stringify({ description: 'Water the plants' }),
    });
    expect(asked.body.status).toBe('waiting');
    if (asked.body.status !== 'waiting') return;
    const [approval] = (await host.invoke('approval.list', { status: 'pending' })).approvals;
    expect(approval).toMatchObject({ id: asked.body.approvalId, tool: 'add_task', rule: 'trust:supervised' });
    await host.invoke('approval.decide', { approvalId: asked.body.approvalId, decision: 'reject' });
    expect((await json<{ tasks: TaskItem[] }>('/api/tasks')).body.tasks).toEqual([]);
  });

  it('while side effects are paused, a change is refused in words and nothing changes', async () => {
    const { host, json } = await open();
    await host.invoke('sideEffects.set', { isPaused: true });
    const refused = await json<TasksChangeOutput>('/api/tasks', {
      method: 'POST',
      body: JSON.stringify({ description: 'Not now' }),
    });
    expect(refused.body.status).toBe('refused');
    if (refused.body.status === 'refused') expect(refused.body.reason).toMatch(/paused/i);
    expect((await json<{ tasks: TaskItem[] }>('/api/tasks')).body.tasks).toEqual([]);
  });

  it('bad input is a typed 400 (the tool’s own schema) before any run, and an unknown task is said so', async () => {
    const { host, json } = await open();
    const empty = await json<{ error: { code: string; message: string } }>('/api/tasks', {
      method: 'POST',
      body: JSON.stringify({ description: '' }),
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('invalid_input');
    expect(empty.body.error.message).toContain('description');
    const badDue = await json('/api/tasks', {
      method: 'POST',
      body: JSON.stringify({ description: 'x', due: 'soon' }),
    });
    expect(badDue.status).toBe(400);
    expect((await json('/api/tasks', { method: 'POST', body: '[]' })).status).toBe(400);
    expect((await json('/api/tasks?status=later')).status).toBe(400);
    const missing = await json<TasksChangeOutput>('/api/tasks/nope/complete', { method: 'POST' });
    expect(missing.body.status).not.toBe('done');
    // Nothing refused before a run made one: only the unknown task's call ran.
    expect((await host.invoke('thread.get', { threadId: TASKS_THREAD_ID })).runs).toHaveLength(1);
  });
});
