import { createHash } from 'node:crypto';

/**
 * When to try a failed tool or model call again, and how long to wait first (Keep-Up §5.10). Pure
 * decisions, so the run loop stays readable and every branch is tested without a clock; only `sleep`
 * touches a timer.
 */
export interface RetryPolicy {
  /** Retries after the first attempt; 2 means at most three attempts in all. */
  maxRetries: number;
  baseDelayMs: number;
  multiplier: number;
  /** No single wait is longer; a server asking for more is not waited for. */
  maxDelayMs: number;
}

/** The spec's defaults for tool calls: two retries, 1 s doubling, never more than 30 s. */
export const TOOL_RETRY: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 1000,
  multiplier: 2,
  maxDelayMs: 30_000,
};

/** Model calls get one retry more: a busy model is the commonest transient failure of a run. */
export const MODEL_RETRY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 1000,
  multiplier: 2,
  maxDelayMs: 30_000,
};

/** What the retry decision needs to know about one failure. */
export interface Failure {
  /** Network trouble, rate limits, a server error: worth another try. */
  transient: boolean;
  /** What the server asked for (a Retry-After header), if it did. */
  retryAfterSeconds: number | null;
  /** From `errorSignature`: equal for the same error seen again. */
  signature: string;
}

export type RetryVerdict =
  | { retry: true; delayMs: number }
  | { retry: false; reason: 'permanent' | 'repeated' | 'exhausted' | 'wait_too_long' };

/**
 * Whether to retry a failed call and after how long.
 * retriesSoFar: retries already made for this call; timesSeen: how often this signature has failed in
 * this run, this failure included.
 */
export function decideRetry(
  failure: Failure,
  retriesSoFar: number,
  timesSeen: number,
  policy: RetryPolicy,
  random: () => number,
): RetryVerdict {
  if (!failure.transient) return { retry: false, reason: 'permanent' };
  // The spec's deduplication: the same error twice means retrying is not helping.
  if (timesSeen >= 2) return { retry: false, reason: 'repeated' };
  if (retriesSoFar >= policy.maxRetries) return { retry: false, reason: 'exhausted' };
  const askedMs = failure.retryAfterSeconds === null ? 0 : Math.max(0, failure.retryAfterSeconds) * 1000;
  // A run that sits silent for minutes looks hung; better to stop and say why.
  if (askedMs > policy.maxDelayMs) return { retry: false, reason: 'wait_too_long' };
  const delayMs = Math.max(backoffDelayMs(retriesSoFar + 1, policy, random), Math.ceil(askedMs));
  return { retry: true, delayMs };
}

/**
 * The wait before retry number `retry` (1-based): exponential, capped, with "equal jitter" (half of it
 * fixed, half random) so that many runs failing together do not all come back at the same instant.
 */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number): number {
  const exponent = Math.max(0, retry - 1);
  const full = Math.min(policy.baseDelayMs * policy.multiplier ** exponent, policy.maxDelayMs);
  const jitter = Math.min(Math.max(random(), 0), 1);
  return Math.round(full / 2 + (full / 2) * jitter);
}

/**
 * A short fingerprint of "the same error": the message is normalised first, so that two timeouts that
 * differ only in seconds, request ids or quoted values have one signature.
 */
export function errorSignature(source: string, code: string, message: string): string {
  const normalised = normaliseMessage(message);
  return createHash('sha256').update(`${source}|${code}|${normalised}`).digest('hex').slice(0, 16);
}

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
// Hex runs with at least one digit: "8f3a", "0xdeadbeef"; plain words made of a-f ("added") stay.
const HEX_ID = /\b(?:0x)?(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{4,}\b/gi;
// Long opaque tokens mixing letters and digits: "req_Ab12Cd34Ef56Gh".
const OPAQUE_ID = /\b(?=[\w-]*\d)(?=[\w-]*[a-z])[\w-]{16,}\b/gi;
// A quote not glued to a letter, so the apostrophe of "don't" does not open one.
const QUOTED = /(?<![\p{L}\p{N}])(['"`“‘])[^'"`“”‘’\n]*(['"`”’])(?![\p{L}\p{N}])/gu;
const NUMBER = /\d+(?:[.,:]\d+)*/g;

function normaliseMessage(message: string): string {
  return message
    .replace(UUID, '<id>')
    .replace(HEX_ID, '<id>')
    .replace(OPAQUE_ID, '<id>')
    .replace(QUOTED, '<value>')
    .replace(NUMBER, '<n>')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * Waits `ms`, or stops at once with an `AbortError` when the run is stopped. The timer is cleared on
 * abort, so a stopped run leaves nothing behind that keeps the process alive.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function abortError(): Error {
  const error = new Error('The wait before a retry was cancelled because the run was stopped.');
  error.name = 'AbortError';
  return error;
}
