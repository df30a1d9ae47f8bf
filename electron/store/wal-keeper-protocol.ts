import { asTableCounts, type TableCounts } from './data-counts.ts';

/** What the main thread asks of the WAL keeper's thread. */
export type KeeperRequest = { type: 'close' } | { type: 'counts'; id: number };

/** What the thread answers: `loaded` once, first; a `counts` request its counts, or why it could not. */
export type KeeperReply =
  | { type: 'loaded' }
  | { type: 'counts'; id: number; counts: TableCounts }
  | { type: 'countsFailed'; id: number; message: string };

/** A request as the thread may act on it, or null: anything else is ignored. */
export function parseRequest(message: unknown): KeeperRequest | null {
  if (typeof message !== 'object' || message === null) return null;
  const request = message as Record<string, unknown>;
  if (request.type === 'close') return { type: 'close' };
  if (request.type === 'counts' && typeof request.id === 'number') return { type: 'counts', id: request.id };
  return null;
}

/**
 * A reply as the main thread may trust it, or null. The thread is Deputy's own code, but a message that is not
 * one of these shapes (a bug, a stale build) must be ignored, never acted on.
 */
export function parseReply(message: unknown): KeeperReply | null {
  if (typeof message !== 'object' || message === null) return null;
  const reply = message as Record<string, unknown>;
  if (reply.type === 'loaded') return { type: 'loaded' };
  if (typeof reply.id !== 'number') return null;
  if (reply.type === 'countsFailed' && typeof reply.message === 'string')
    return { type: 'countsFailed', id: reply.id, message: reply.message };
  const counts = reply.type === 'counts' ? asTableCounts(reply.counts) : null;
  return counts ? { type: 'counts', id: reply.id, counts } : null;
}
