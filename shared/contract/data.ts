import { z } from 'zod';

/** Deputy's own ids are UUIDs; anything outside word characters and dashes is not one, and is refused as such. */
export const ThreadId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\w-]+$/, 'not a conversation id');

export const ThreadDeleteInput = z.object({ threadId: ThreadId }).strict();
export const ThreadDeleteOutput = z.object({
  deleted: z.string(),
  /** Runs of the conversation that were still working and were stopped first. */
  stoppedRuns: z.number().int(),
});

import { PRUNE_DAYS } from './limits';

export { PRUNE_DAYS };

export const ThreadsPruneInput = z
  .object({
    olderThanDays: z.number().int().min(PRUNE_DAYS.min).max(PRUNE_DAYS.max),
    /** Only count what would be deleted (for the confirmation that says how many). */
    dryRun: z.boolean().optional(),
  })
  .strict();
export const ThreadsPruneOutput = z.object({
  /** Conversations deleted (or, on a dry run, that would be). */
  threads: z.number().int(),
  /** Conversations last active before this moment are the old ones. */
  before: z.string(),
  dryRun: z.boolean(),
});

export const DataCounts = z.object({
  threads: z.number().int(),
  messages: z.number().int(),
  runs: z.number().int(),
  actions: z.number().int(),
  approvals: z.number().int(),
  events: z.number().int(),
  checkpoints: z.number().int(),
});
export type DataCounts = z.infer<typeof DataCounts>;

export const DataStatsInput = z.object({}).strict().default({});
export const DataStatsOutput = z.object({
  /** The database file (its pages) and its write-ahead log, in bytes; `totalBytes` is both. */
  databaseBytes: z.number().int(),
  walBytes: z.number().int(),
  totalBytes: z.number().int(),
  counts: DataCounts,
});
export type DataStats = z.infer<typeof DataStatsOutput>;

export const DataCompactInput = z.object({}).strict().default({});
export const DataCompactOutput = z.object({
  bytesBefore: z.number().int(),
  bytesAfter: z.number().int(),
});
export type DataCompactResult = z.infer<typeof DataCompactOutput>;

export const ThreadsExportFormat = z.enum(['jsonl', 'md']);
export type ThreadsExportFormat = z.infer<typeof ThreadsExportFormat>;
/**
 * Where an export goes on, as the page before handed it out: `<n>` the conversation after the n-th, `<n>.<m>`
 * inside the n-th, after its message m. Anything else is refused, not read as page one.
 */
export const ThreadsExportCursor = z.string().regex(/^\d{1,16}(\.\d{1,16})?$/, 'not a cursor');
export const ThreadsExportInput = z
  .object({ format: ThreadsExportFormat, cursor: ThreadsExportCursor.optional() })
  .strict();
/**
 * One page of the export of every conversation, oldest first: text to append to the pages before (a page may end
 * inside a conversation, and then inside its line of JSON), and the cursor of the next page (null at the end).
 */
export const ThreadsExportOutput = z.object({
  text: z.string(),
  nextCursor: z.string().nullable(),
  /** How many conversations begin in this page: added up, how far the export has come. */
  conversations: z.number().int().nonnegative(),
});
export type ThreadsExportOutput = z.infer<typeof ThreadsExportOutput>;

/**
 * Where "Export tasks and memories" goes on, as the page before handed it out: `t<n>` after the n-th task,
 * `m<n>` after the n-th memory. Anything else is refused, not read as page one.
 */
export const TasksAndMemoriesExportCursor = z.string().regex(/^[tm]\d{1,16}$/, 'not a cursor');
export const TasksAndMemoriesExportInput = z
  .object({ cursor: TasksAndMemoriesExportCursor.optional() })
  .strict()
  .default({});
/**
 * One page of the export of every task, then every memory, in the order they were added: JSON lines, each with a
 * `kind` ("task" or "memory"), and the cursor of the next page (null at the end).
 */
export const TasksAndMemoriesExportOutput = z.object({
  text: z.string(),
  nextCursor: z.string().nullable(),
  /** How many tasks and memories this page holds: added up, how far the export has come. */
  tasks: z.number().int().nonnegative(),
  memories: z.number().int().nonnegative(),
});
export type TasksAndMemoriesExportOutput = z.infer<typeof TasksAndMemoriesExportOutput>;
