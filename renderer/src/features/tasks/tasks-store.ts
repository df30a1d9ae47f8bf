import { createStore, type StoreApi } from 'zustand/vanilla';
import type { DeputyClient, TaskItem, TasksChangeInput } from '../../../../shared/contract';
import { toClientError } from '../../api/client-error';

export interface TasksState {
  tasks: TaskItem[];
  hasLoaded: boolean;
  loadError: string | null;
  /** The last change's outcome, in words: what happened, or why not. */
  notice: { tone: 'info' | 'error'; text: string } | null;
  isChanging: boolean;
}

export interface TasksActions {
  load(): Promise<void>;
  /**
   * Resolves true when the change was taken: made, or waiting for the person's approval (asking again would
   * ask twice). False when it was refused or failed, so the form keeps what was typed.
   */
  change(input: TasksChangeInput, done: string): Promise<boolean>;
  /** Says what came of something decided outside `change` (an approval of a waiting change). */
  tell(notice: TasksState['notice']): void;
}

export type TasksStore = StoreApi<TasksState & TasksActions>;

export function createTasksStore(client: DeputyClient): TasksStore {
  // Only the newest read may set the list: the panel's timed refresh, sent before a change and answered after
  // it, must not put the old list back.
  let generation = 0;
  return createStore<TasksState & TasksActions>()((set, get) => ({
    tasks: [],
    hasLoaded: false,
    loadError: null,
    notice: null,
    isChanging: false,

    async load() {
      const current = ++generation;
      try {
        const { tasks } = await client.invoke('tasks.list', { status: 'all' });
        if (current === generation) set({ tasks, hasLoaded: true, loadError: null });
      } catch (error) {
        if (current === generation) set({ loadError: toClientError(error).message });
      }
    },

    async change(input, done) {
      set({ isChanging: true, notice: null });
      try {
        const outcome = await client.invoke('tasks.change', input);
        // Said once the list shows it: "Done" beside a list that does not have it yet would read as a failure.
        await get().load();
        switch (outcome.status) {
          case 'done':
            set({ notice: { tone: 'info', text: done } });
            break;
          case 'waiting':
            set({
              notice: { tone: 'info', text: 'Waiting for your approval, below (your settings ask first).' },
            });
            break;
          case 'refused':
          case 'failed':
            set({ notice: { tone: 'error', text: outcome.reason } });
            break;
        }
        return outcome.status === 'done' || outcome.status === 'waiting';
      } catch (error) {
        set({ notice: { tone: 'error', text: toClientError(error).message } });
        return false;
      } finally {
        set({ isChanging: false });
      }
    },

    tell(notice) {
      set({ notice });
    },
  }));
}
