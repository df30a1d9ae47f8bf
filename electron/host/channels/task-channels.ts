import { TasksDesk, type TasksDeskDeps } from '../tasks-desk';
import type { HandlersFor } from './handlers';

/** The Tasks panel's domain: the task list, and changes to it that go through a run like the model's. */
export function taskChannels(deps: TasksDeskDeps): HandlersFor<'tasks.list' | 'tasks.change'> {
  const tasks = new TasksDesk(deps);
  return {
    'tasks.list': (input) => tasks.list(input.status),
    'tasks.change': (input) => tasks.change(input),
  };
}
