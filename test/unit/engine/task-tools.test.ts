import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/store/database';
import { Store } from '../../../electron/store/store';
import { ToolRegistry } from '../../../electron/tools/registry';
import { createTaskTools } from '../../../electron/tools/tasks/task-tools';
import type { Tool, ToolContext } from '../../../electron/tools/tool';
import { z } from 'zod';

function setup(): { registry: ToolRegistry; store: Store } {
  const store = new Store(openDatabase(':memory:'));
  return {
    registry: new ToolRegistry(createTaskTools(store.tasks, () => new Date('2026-11-21T10:00:00Z'))),
    store,
  };
}

const context: ToolContext = {
  runId: 'r',
  threadId: 't',
  actionId: 'a',
  idempotencyKey: 'k',
  signal: new AbortController().signal,
  now: () => new Date(),
};

async function run(registry: ToolRegistry, name: string, args: unknown): Promise<unknown> {
  const check = registry.check(name, args);
  if (!check.ok) return check;
  return registry.run(check, context);
}

describe('task tools', () => {
  it('declares the five task tools with JSON schemas, and never complete_task', () => {
    const { registry } = setup();
    const names = registry.declarations().map((d) => d.name);
    expect(names).toEqual(['add_task', 'list_tasks', 'update_task', 'mark_task_complete', 'delete_task']);
    const add = registry.declarations()[0];
    expect(add?.parameters).toMatchObject({
      type: 'object',
      required: ['description', 'intent', 'confidence'],
    });
    expect(Object.keys((add?.parameters.properties ?? {}) as object)).toEqual(
      expect.arrayContaining(['intent', 'reasoning', 'confidence', 'assumptions']),
    );
    const list = registry.declarations()[1];
    expect(list?.parameters.properties).not.toHaveProperty('confidence');
    expect(add?.parameters).not.toHaveProperty('$schema');
    for (const tool of registry.list()) {
      expect(['query', 'compute', 'draft', 'create', 'update', 'delete', 'external']).toContain(
        tool.category,
      );
      expect(['low', 'medium', 'high', 'critical']).toContain(tool.risk);
    }
  });

  it('refuses to register a reserved or duplicate name', () => {
    const fake: Tool = {
      name: 'complete_task',
      description: '',
      input: z.object({}),
      output: z.object({}),
      category: 'compute',
      risk: 'low',
      hasSideEffects: false,
      execute: () => ({}),
    };
    expect(() => new ToolRegistry([fake])).toThrow(/reserved/);
    expect(
      () =>
        new ToolRegistry([
          { ...fake, name: 'x' },
          { ...fake, name: 'x' },
        ]),
    ).toThrow(/twice/);
  });

  it('adds, lists, updates, completes and deletes a task', async () => {
    const { registry, store } = setup();
    const added = (await run(registry, 'add_task', { description: 'Buy milk', due: '2026-11-22' })) as {
      result: { task: { id: string } };
    };
    const id = added.result.task.id;
    expect(store.tasks.get(id)).toMatchObject({ description: 'Buy milk', due: '2026-11-22', status: 'open' });
    expect(await run(registry, 'list_tasks', { query: 'milk' })).toMatchObject({
      ok: true,
      result: { tasks: [{ id }], isTruncated: false },
    });
    await run(registry, 'update_task', { id, notes: 'semi-skimmed', due: null });
    expect(store.tasks.get(id)).toMatchObject({ notes: 'semi-skimmed', due: null });
    await run(registry, 'mark_task_complete', { id });
    expect(store.tasks.get(id)).toMatchObject({ status: 'done', completedAt: '2026-11-21T10:00:00.000Z' });
    expect(await run(registry, 'list_tasks', {})).toMatchObject({ result: { tasks: [] } });
    expect(await run(registry, 'delete_task', { id })).toMatchObject({
      ok: true,
      result: { deleted: id, description: 'Buy milk' },
    });
    expect(store.tasks.get(id)).toBeNull();
  });

  it.each([
    ['add_task', { description: 'x', due: 'tomorrow' }, 'due'],
    ['add_task', { description: 'x', priority: 'high' }, 'priority'],
    ['update_task', { id: 'x' }, 'at least one'],
    ['list_tasks', { status: 'later' }, 'status'],
    ['delete_task', {}, 'id'],
  ])('rejects bad arguments to %s: %j', async (name, args, hint) => {
    const { registry } = setup();
    const outcome = await run(registry, name, args);
    expect(outcome).toMatchObject({ ok: false, code: 'invalid_arguments' });
    expect(JSON.stringify(outcome)).toContain(hint);
  });

  it.each([
    ['add_task', { description: 42 }, "add_task's description must be text, not a number."],
    ['add_task', {}, "add_task's description is missing: it is required, as text."],
    ['add_task', { description: '  ' }, "add_task's description must not be empty."],
    [
      'add_task',
      { description: 'x'.repeat(501) },
      "add_task's description must be at most 500 characters long.",
    ],
    [
      'add_task',
      { description: 'x', due: 'tomorrow' },
      "add_task's due: use an ISO date (2026-11-22) or date-time (2026-11-22T09:00).",
    ],
    [
      'add_task',
      { description: 'x', priority: 'high' },
      'add_task has no argument named "priority": leave it out.',
    ],
    ['add_task', { description: 'x', confidence: 2 }, "add_task's confidence must be at most 1."],
    ['list_tasks', { status: 'later' }, 'list_tasks\'s status must be one of "open", "done" or "all".'],
    ['update_task', { id: 'x' }, 'update_task: give at least one of description, due or notes to change.'],
  ])('says what is wrong with the arguments to %s in plain words: %j', async (name, args, words) => {
    const { registry } = setup();
    expect(await run(registry, name, args)).toMatchObject({
      ok: false,
      code: 'invalid_arguments',
      message: words,
    });
  });

  it('reports a missing task as a tool failure the model can read', async () => {
    const { registry } = setup();
    for (const name of ['update_task', 'mark_task_complete', 'delete_task']) {
      const args = name === 'update_task' ? { id: 'nope', notes: 'x' } : { id: 'nope' };
      const outcome = await run(registry, name, args);
      expect(outcome).toMatchObject({ ok: false, code: 'tool_failed' });
      expect(JSON.stringify(outcome)).toContain('list_tasks');
    }
  });

  it('turns an unexpected tool crash into a generic failure and reports the error', async () => {
    const crashing: Tool = {
      name: 'crash',
      description: '',
      input: z.object({}),
      output: z.object({}),
      category: 'compute',
      risk: 'low',
      hasSideEffects: false,
      execute: () => {
        throw new Error('secret internals');
      },
    };
    const registry = new ToolRegistry([crashing]);
    const seen: unknown[] = [];
    const check = registry.check('crash', {});
    if (!check.ok) throw new Error('check failed');
    const outcome = await registry.run(check, context, (error) => seen.push(error));
    expect(outcome).toMatchObject({
      ok: false,
      code: 'tool_failed',
      message: 'The call failed unexpectedly.',
      transient: false,
    });
    expect(seen).toHaveLength(1);
  });
  it('shows a task by its words on an approval card, with when it is due, never by its id', () => {
    const { registry, store } = setup();
    const task = store.tasks.add(
      { id: 'task-7f3a9c', description: 'Buy milk', due: '2026-11-28', notes: null },
      '2026-11-21T10:00:00.000Z',
    );
    for (const name of ['mark_task_complete', 'delete_task']) {
      const preview = registry.get(name)?.preview?.({ id: task.id } as never);
      expect(JSON.stringify(preview)).not.toContain(task.id);
      expect(preview).toMatchObject({
        title: expect.stringContaining('“Buy milk”'),
        fields: [{ label: 'Due', value: 'Sat, 28 Nov 2026' }],
      });
    }
    const change = registry
      .get('update_task')
      ?.preview?.({ id: task.id, description: 'Buy oat milk', due: '2026-12-01T09:30' } as never);
    expect(JSON.stringify(change)).not.toContain(task.id);
    expect(change?.title).toBe('Change task “Buy milk”');
    expect(change?.changes).toContainEqual({
      label: 'Due',
      before: 'Sat, 28 Nov 2026',
      after: 'Tue, 1 Dec 2026, 09:30',
    });
    const added = registry
      .get('add_task')
      ?.preview?.({ description: 'Call Sam', due: '2026-12-10' } as never);
    expect(added?.fields).toContainEqual({ label: 'Due', value: 'Thu, 10 Dec 2026' });
  });

  it('says in a sentence that no task has the id, for each tool that changes one', async () => {
    const { registry } = setup();
    const titles = Object.fromEntries(
      ['update_task', 'mark_task_complete', 'delete_task'].map((name) => [
        name,
        registry.get(name)?.preview?.({ id: 'nosuch', description: 'Buy oat milk' } as never)?.title,
      ]),
    );
    expect(titles).toEqual({
      update_task: 'Change a task (no task has the id “nosuch”)',
      mark_task_complete: 'Mark a task as done (no task has the id “nosuch”)',
      delete_task: 'Delete a task (no task has the id “nosuch”)',
    });
    const update = registry.get('update_task');
    const args = { id: 'nosuch', description: 'Buy oat milk' } as never;
    // Nothing was before: not "(none)", which would say the task had no description.
    expect(update?.preview?.(args)?.changes).toEqual([
      { label: 'Description', before: '', after: 'Buy oat milk' },
    ]);
    for (const name of ['update_task', 'mark_task_complete', 'delete_task']) {
      expect(await registry.get(name)?.reach?.(args, {} as never)).toMatchObject({
        target: 'the unknown task id “nosuch”',
      });
    }
  });
});
