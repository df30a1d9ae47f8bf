import type { Contact } from './contacts-index.ts';

/** What the main thread asks of the index worker. */
export type WorkerRequestBody =
  | { op: 'load'; kind: string; dims: number }
  | { op: 'merge'; contacts: Contact[]; maxContacts: number }
  | { op: 'clear-contacts' };

/** A request with the id its replies repeat. */
export type WorkerRequest = WorkerRequestBody & { id: number };

/**
 * What the index worker answers: a load sends `refs` chunks, then `loaded`; a merge sends `merged`; a clear of
 * the contacts, `cleared`.
 */
export type WorkerReply =
  | { id: number; type: 'refs'; refs: string[]; hashes: string[] }
  | { id: number; type: 'loaded'; slots: number; bits: Uint32Array; bytes: Int8Array }
  | { id: number; type: 'merged'; count: number }
  | { id: number; type: 'cleared' }
  | { id: number; type: 'failed'; message: string };

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * A reply as the main thread may trust it, or null. The worker is Deputy's own code, but a message that is
 * not one of these shapes (a bug, a stale build) must be ignored, never acted on.
 */
export function parseReply(message: unknown): WorkerReply | null {
  if (typeof message !== 'object' || message === null) return null;
  const reply = message as Record<string, unknown>;
  if (typeof reply.id !== 'number') return null;
  switch (reply.type) {
    case 'refs':
      return isStrings(reply.refs) && isStrings(reply.hashes) && reply.refs.length === reply.hashes.length
        ? (reply as WorkerReply)
        : null;
    case 'loaded':
      return typeof reply.slots === 'number' &&
        reply.bits instanceof Uint32Array &&
        reply.bytes instanceof Int8Array
        ? (reply as WorkerReply)
        : null;
    case 'merged':
      return typeof reply.count === 'number' ? (reply as WorkerReply) : null;
    case 'cleared':
      return reply as WorkerReply;
    case 'failed':
      return typeof reply.message === 'string' ? (reply as WorkerReply) : null;
    default:
      return null;
  }
}
