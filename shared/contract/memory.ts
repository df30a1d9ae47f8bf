import { z } from 'zod';
import { PageCursor } from './paging';

export const MEMORY_TEXT_MAX = 2_000;

/**
 * Where a memory's words came from: the person's own, content Deputy read (a mail, an event, a Slack
 * message), or not known (saved before Deputy recorded it).
 */
export const MemoryOrigin = z.enum(['person', 'source', 'legacy']);
export type MemoryOrigin = z.infer<typeof MemoryOrigin>;

export const Memory = z.object({
  id: z.string(),
  text: z.string(),
  origin: MemoryOrigin,
  /** For a memory drawn from content: where that content came from ("a mail from news@x.io"). */
  source: z.string().nullable(),
  /** When the person confirmed it (approved saving it, wrote it, or edited it); null while unconfirmed. */
  confirmedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Memory = z.infer<typeof Memory>;

export const MemoryListInput = z
  .object({
    /** Words to look for; without it, the newest first. */
    query: z.string().trim().max(200).optional(),
    limit: z.number().int().min(1).max(200).default(50),
    /** The `nextCursor` of the previous page (newest-first listing only). */
    cursor: PageCursor.optional(),
  })
  .strict()
  .default({ limit: 50 });
export const MemoryListOutput = z.object({ memories: z.array(Memory), nextCursor: z.string().nullable() });
export type MemoryListOutput = z.infer<typeof MemoryListOutput>;

export const MemoryUpdateInput = z
  .object({ id: z.string().min(1).max(100), text: z.string().trim().min(1).max(MEMORY_TEXT_MAX) })
  .strict();
export const MemoryUpdateOutput = z.object({ memory: Memory });

export const MemoryDeleteInput = z.object({ id: z.string().min(1).max(100) }).strict();
export const MemoryDeleteOutput = z.object({ deleted: z.string() });
