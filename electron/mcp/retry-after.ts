import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { parseHttpDate } from '../../shared/http-date';

/** The longest wait a server's Retry-After is taken for: one asking for an hour is tried again after this. */
export const RETRY_AFTER_CAP_MS = 5 * 60_000;

/** Whether an answer's Retry-After says when the server can answer again (RFC 9110 §10.2.3, RFC 6585 §4). */
export const isAskingToWait = (status: number): boolean => status === 429 || status === 503;

/**
 * The wait a Retry-After header asks for, in ms from `now`, at most RETRY_AFTER_CAP_MS: a number of seconds, or an
 * HTTP date in any of its three forms (see parseHttpDate; a date past is no wait). Null when there is none, or it is
 * neither.
 */
export function retryAfterMs(header: string | null, now: number): number | null {
  const value = header?.trim() ?? '';
  if (/^\d+$/.test(value)) return Math.min(RETRY_AFTER_CAP_MS, Number(value) * 1_000);
  const at = parseHttpDate(value, now);
  return at === null ? null : Math.min(RETRY_AFTER_CAP_MS, Math.max(0, at - now));
}

/** `fetch` that tells `onWait` the wait a 429 or 503 answer asked for in its Retry-After, as each comes. */
export function noticingRetryAfter(base: FetchLike, onWait: (ms: number) => void, now = Date.now): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (isAskingToWait(response.status)) {
      const wait = retryAfterMs(response.headers.get('retry-after'), now());
      if (wait !== null) onWait(wait);
    }
    return response;
  };
}
