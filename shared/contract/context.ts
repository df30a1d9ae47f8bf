import { z } from 'zod';

/** The context index (context.db): people, coming events and memory vectors, all rebuilt from the accounts. */
export const ContextStatsInput = z.object({}).strict().default({});
export const ContextStatsOutput = z.object({
  contacts: z.number().int(),
  upcomingEvents: z.number().int(),
  vectors: z.number().int(),
  /** Received mails kept to be found by meaning: 0 unless the person turned that on in Settings → Data. */
  recentMail: z.number().int(),
  /** The file and its write-ahead log, in bytes. */
  bytes: z.number().int(),
});
export type ContextStats = z.infer<typeof ContextStatsOutput>;

/** Empties the index; it fills again from the connected accounts at the next refresh. Answers the new size. */
export const ContextClearInput = z.object({}).strict().default({});
