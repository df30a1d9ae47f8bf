import type { Memory } from '../../shared/contract';
import type { MemoriesRepo } from '../store/memories-repo';
import type { Task, TasksRepo } from '../store/tasks-repo';
import type { Corpus } from './semantic-index';

/** Memories read (and hashed) per step of a sync: a step stays around a millisecond. */
const MEMORY_PAGE = 100;
/** Open tasks are few; done ones are not searched by meaning. */
const OPEN_TASKS = 1_000;

export function memoryCorpus(memories: MemoriesRepo): Corpus<Memory> {
  return {
    kind: 'memory',
    page: (cursor) => {
      const page = memories.page(MEMORY_PAGE, cursor);
      return {
        items: page.memories.map((memory) => ({ id: memory.id, text: memory.text })),
        next: page.nextCursor,
      };
    },
    fullText: (query, limit) => memories.search(query, limit),
    get: (id) => memories.get(id),
    idOf: (memory) => memory.id,
  };
}

const taskText = (task: Task): string => [task.description, task.notes ?? ''].join('\n').trim();

export function taskCorpus(tasks: TasksRepo): Corpus<Task> {
  return {
    kind: 'task',
    page: () => ({
      items: tasks
        .list({ status: 'open', limit: OPEN_TASKS })
        .map((task) => ({ id: task.id, text: taskText(task) })),
      next: null,
    }),
    // The task list matches a phrase; each word is looked for on its own, the first words' matches first.
    fullText: (query, limit) => {
      const found = new Map<string, Task>();
      for (const word of query.match(/[\p{L}\p{N}]{3,}/gu) ?? [])
        for (const task of tasks.list({ status: 'open', query: word, limit })) found.set(task.id, task);
      return [...found.values()].slice(0, limit);
    },
    get: (id) => {
      const task = tasks.get(id);
      return task?.status === 'open' ? task : null;
    },
    idOf: (task) => task.id,
  };
}
