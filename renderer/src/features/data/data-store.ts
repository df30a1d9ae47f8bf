import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  ContextStats,
  DataStats,
  DeputyClient,
  TasksAndMemoriesExportOutput,
  ThreadsExportFormat,
  ThreadsExportOutput,
} from '../../../../shared/contract';
import { PRUNE_DAYS } from '../../../../shared/contract/limits';
import { toClientError } from '../../api/client-error';
import { wholeNumber } from '../settings/checked';
import { exportFileType, type ExportFileType } from '../../export-file';
import {
  clearContextOutcome,
  compactOutcome,
  exportFailure,
  exportOutcome,
  pruneOutcome,
  tasksExportOutcome,
} from './data-words';

/** Writes an export's pages to a file the person picks; answers the bytes written, or null when they cancelled. */
export type SaveExport = (pages: AsyncIterable<string>, type: ExportFileType) => Promise<number | null>;

/** How far an export under way has come: conversations, or tasks and memories. */
export type ExportProgress = { conversations: number } | { tasks: number; memories: number };

/** One of Settings → Data's exports: its file, how a page is read, and what the pages come to. */
interface PagedExport<Page extends { text: string; nextCursor: string | null }> {
  busy: 'exporting' | 'exportingTasks';
  file: ExportFileType;
  read: (cursor: string | null) => Promise<Page>;
  /** Counts the page in; answers how far the export has now come. */
  add: (page: Page) => ExportProgress;
  outcome: (bytes: number) => string;
}

export interface DataState {
  stats: DataStats | null;
  loadError: string | null;
  /** The number of days as typed; checked when the person asks to delete. */
  pruneDays: string;
  /** What the confirmation asks about: how many conversations would go for that many days. */
  pruneCheck: { days: number; threads: number } | null;
  /** The context index's size (contacts, coming events, memory vectors), or null until read. */
  context: ContextStats | null;
  busy: 'counting' | 'pruning' | 'compacting' | 'clearing' | 'exporting' | 'exportingTasks' | null;
  /** What "Export conversations" writes. */
  exportFormat: ThreadsExportFormat;
  /** While an export is read and written: how far it has come (shown at most once a second). */
  exporting: ExportProgress | null;
  /** The last action's outcome, in words, or why it failed. */
  outcome: string | null;
  error: string | null;
}

export interface DataActions {
  load(): Promise<void>;
  setPruneDays(text: string): void;
  /** Counts what would be deleted, for the confirmation; nothing is deleted yet. */
  checkPrune(): Promise<void>;
  cancelPrune(): void;
  /** Deletes what the confirmation asked about; resolves with how many conversations went. */
  prune(): Promise<number>;
  compact(): Promise<void>;
  loadContext(): Promise<void>;
  /** Empties the context index; it is rebuilt from the connected accounts at the next refresh. */
  clearContext(): Promise<void>;
  setExportFormat(format: ThreadsExportFormat): void;
  /** Every conversation, saved by `save` a page at a time as the host reads it. */
  exportConversations(save: SaveExport): Promise<void>;
  /** Every task, then every memory, as JSON lines, saved by `save` a page at a time. */
  exportTasksAndMemories(save: SaveExport): Promise<void>;
}

/** How often the count of an export under way changes: a status read aloud is not read on every page. */
const PROGRESS_EVERY_MS = 1_000;

export type DataStore = StoreApi<DataState & DataActions>;

export const DEFAULT_PRUNE_DAYS = 90;

export function createDataStore(client: DeputyClient): DataStore {
  return createStore<DataState & DataActions>()((set, get) => {
    const fail = (error: unknown) => set({ error: toClientError(error).message, outcome: null, busy: null });

    /** Reads an export's pages one after the other as `save` writes them to the file, saying how far it has come. */
    async function runExport<Page extends { text: string; nextCursor: string | null }>(
      save: SaveExport,
      job: PagedExport<Page>,
    ): Promise<void> {
      if (get().busy) return;
      set({ busy: job.busy, error: null, outcome: null, pruneCheck: null });
      let shownAt = -Infinity;
      async function* pages(): AsyncGenerator<string> {
        let cursor: string | null = null;
        do {
          const page: Page = await job.read(cursor);
          const progress = job.add(page);
          if (Date.now() - shownAt >= PROGRESS_EVERY_MS) {
            shownAt = Date.now();
            set({ exporting: progress });
          }
          yield page.text;
          cursor = page.nextCursor;
        } while (cursor !== null);
      }
      try {
        const bytes = await save(pages(), job.file);
        // Cancelled in the file picker: nothing to say.
        set({ busy: null, exporting: null, outcome: bytes === null ? null : job.outcome(bytes) });
      } catch (error) {
        set({ busy: null, exporting: null, error: exportFailure(toClientError(error).message) });
      }
    }

    return {
      stats: null,
      loadError: null,
      context: null,
      pruneDays: String(DEFAULT_PRUNE_DAYS),
      pruneCheck: null,
      busy: null,
      exportFormat: 'jsonl',
      exporting: null,
      outcome: null,
      error: null,

      async load() {
        try {
          set({ stats: await client.invoke('data.stats', {}), loadError: null });
        } catch (error) {
          set({ loadError: toClientError(error).message });
        }
      },

      setPruneDays(text) {
        set({ pruneDays: text, pruneCheck: null, error: null, outcome: null });
      },

      async checkPrune() {
        if (get().busy) return;
        const days = wholeNumber(get().pruneDays, 'Days', PRUNE_DAYS.min, PRUNE_DAYS.max);
        if (!days.ok) return set({ error: days.message, outcome: null, pruneCheck: null });
        set({ busy: 'counting', error: null, outcome: null });
        try {
          const preview = await client.invoke('threads.prune', { olderThanDays: days.value, dryRun: true });
          set({ pruneCheck: { days: days.value, threads: preview.threads }, busy: null });
        } catch (error) {
          fail(error);
        }
      },

      cancelPrune() {
        set({ pruneCheck: null });
      },

      async prune() {
        const check = get().pruneCheck;
        if (!check || get().busy) return 0;
        set({ busy: 'pruning', error: null });
        try {
          const done = await client.invoke('threads.prune', { olderThanDays: check.days });
          set({ pruneCheck: null, busy: null, outcome: pruneOutcome(done.threads) });
          await get().load();
          return done.threads;
        } catch (error) {
          fail(error);
          return 0;
        }
      },

      async loadContext() {
        try {
          set({ context: await client.invoke('context.stats', {}) });
        } catch (error) {
          set({ loadError: toClientError(error).message });
        }
      },

      async clearContext() {
        if (get().busy) return;
        set({ busy: 'clearing', error: null, outcome: null, pruneCheck: null });
        try {
          const context = await client.invoke('context.clear', {});
          set({ busy: null, context, outcome: clearContextOutcome(context) });
        } catch (error) {
          fail(error);
        }
      },

      setExportFormat(format) {
        set({ exportFormat: format });
      },

      async exportConversations(save) {
        const format = get().exportFormat;
        let conversations = 0;
        await runExport<ThreadsExportOutput>(save, {
          busy: 'exporting',
          file: exportFileType('deputy-conversations', format),
          read: (cursor) => client.invoke('threads.export', { format, ...(cursor !== null && { cursor }) }),
          add: (page) => ({ conversations: (conversations += page.conversations) }),
          outcome: (bytes) => exportOutcome(conversations, bytes),
        });
      },

      async exportTasksAndMemories(save) {
        let tasks = 0;
        let memories = 0;
        await runExport<TasksAndMemoriesExportOutput>(save, {
          busy: 'exportingTasks',
          file: exportFileType('deputy-tasks-and-memories', 'jsonl'),
          read: (cursor) => client.invoke('tasksAndMemories.export', cursor === null ? {} : { cursor }),
          add: (page) => ({ tasks: (tasks += page.tasks), memories: (memories += page.memories) }),
          outcome: (bytes) => tasksExportOutcome(tasks, memories, bytes),
        });
      },

      async compact() {
        if (get().busy) return;
        set({ busy: 'compacting', error: null, outcome: null, pruneCheck: null });
        try {
          const result = await client.invoke('data.compact', {});
          set({ busy: null, outcome: compactOutcome(result) });
          await get().load();
        } catch (error) {
          fail(error);
        }
      },
    };
  });
}
