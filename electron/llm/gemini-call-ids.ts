import { randomUUID } from 'node:crypto';

/**
 * Gemini may send a function call without an id, but the engine keys its ledger by call id, so the
 * adapter invents one. An invented id must never be sent back to Gemini as if the model had given
 * it. The prefix marks invented ids; unlike a set kept in memory, it survives a checkpoint and a
 * restart of the app.
 */
const INVENTED_PREFIX = 'deputy-call-';

export function inventCallId(): string {
  return `${INVENTED_PREFIX}${randomUUID()}`;
}

export function isInventedCallId(callId: string): boolean {
  return callId.startsWith(INVENTED_PREFIX);
}
