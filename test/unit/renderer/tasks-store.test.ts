import { describe, expect, it } from 'vitest';
import type { TaskItem } from '../../../shared/contract';
import { createTasksStore } from '../../../renderer/src/features/tasks/tasks-store';
import { fakeClient } from './fixtures';

const task = (description: string, status: TaskItem['status']): TaskItem => ({
  id: description,
  description,
  due: null,
  notes: null,
  status,
  createdAt: '2026-11-27T06:00:00.000Z',
  completedAt: status === 'done' ? '2026-11-27T06:01:00.000Z' : null,
});

describe('tasks store', () => {
  it('keeps the newest list when an older read answers last', async () => {
    const answers: ((tasks: TaskItem[]) => void)[] = [];
    const fake = fakeClient({
      'tasks.list': () => new Promise((resolve) => answers.push((tasks) => resolve({ tasks }))),
    });
    const store = createTasksStore(fake.client);
    const timed = store.getState().load();
    const afterChange = store.getState().load();
    answers[1]?.([task('Buy milk', 'done')]);
    await afterChange;
    answers[0]?.([task('Buy milk', 'open')]);
    await timed;
    expect(store.getState().tasks).toEqual([task('Buy milk', 'done')]);
  });

  it('says a change is done only once the list it reloads shows it', async () => {
    let list: TaskItem[] = [task('Buy milk', 'open')];
    const fake = fakeClient({
      'tasks.list': async () => ({ tasks: list }),
      'tasks.change': async () => {
        list = [task('Buy milk', 'done')];
        return { status: 'done' as const, result: {} };
      },
    });
    const store = createTasksStore(fake.client);
    await store.getState().load();
    const seen: string[] = [];
    store.subscribe((state) => {
      if (state.notice) seen.push(`${state.notice.text} / ${state.tasks[0]?.status}`);
    });
    expect(
      await store.getState().change({ tool: 'mark_task_complete', args: { id: 'Buy milk' } }, 'Done.'),
    ).toBe(true);
    expect(seen[0]).toBe('Done. / done');
  });

  it('takes a change that waits for approval (the form clears), and not one that was refused', async () => {
    const outcomes = [
      { status: 'waiting' as const, approvalId: 'a1' },
      { status: 'refused' as const, reason: 'Not allowed.' },
    ];
    const fake = fakeClient({
      'tasks.list': async () => ({ tasks: [] }),
      'tasks.change': async () => outcomes.shift() ?? { status: 'failed' as const, reason: 'No more.' },
    });
    const store = createTasksStore(fake.client);
    const add = { tool: 'add_task' as const, args: { description: 'Buy milk' } };
    expect(await store.getState().change(add, 'Added.')).toBe(true);
    expect(store.getState().notice?.text).toContain('Waiting for your approval');
    expect(await store.getState().change(add, 'Added.')).toBe(false);
    expect(store.getState().notice).toEqual({ tone: 'error', text: 'Not allowed.' });
  });
});
