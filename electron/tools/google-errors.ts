import { GaxiosError } from 'gaxios';
import { httpToolError, parseRetryAfter } from './service-errors';
import { ToolError } from './tool';

/**
 * Turns what a Google client call threw into a ToolError. Only the status, Retry-After, Google's own error
 * message and a network code are read: the error also holds the request config with the Authorization
 * header, so it is never stringified whole. ToolErrors (not_connected from the access) pass through as they are.
 */
export function googleToolError(error: unknown, what: string, now: Date = new Date()): unknown {
  if (error instanceof ToolError) return error;
  if (!(error instanceof GaxiosError)) return error;
  const body: unknown = error.response?.data;
  const status = error.status ?? error.response?.status ?? null;
  // The token endpoint refuses a refresh (revoked or expired grant) with `{"error": "invalid_grant"}`: a string,
  // where the APIs put an object. The connection has lapsed; the call itself was not wrong.
  const isRefusedSignIn =
    isRecord(body) && typeof body.error === 'string' && (status === 400 || status === 401);
  if (isRefusedSignIn || (isRecord(body) && body.error === 'invalid_grant'))
    return httpToolError('google', what, 401);
  if (status === null) return httpToolError('google', what, null, { networkCode: networkCode(error) });
  // Gmail and Calendar answer a per-user rate limit with 403, not 429: it passes, so it is worth retrying.
  const isRateLimit = status === 403 && RATE_LIMIT_REASONS.has(googleReason(body) ?? '');
  return httpToolError('google', what, isRateLimit ? 429 : status, {
    retryAfterSeconds: parseRetryAfter(error.response?.headers.get('retry-after'), now),
    detail: googleMessage(body),
  });
}

/** Google's reasons for a 403 that means "slow down" (a daily quota, `quotaExceeded`, is not among them). */
const RATE_LIMIT_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);

function googleReason(body: unknown): string | null {
  if (!isRecord(body) || !isRecord(body.error) || !Array.isArray(body.error.errors)) return null;
  const [first]: unknown[] = body.error.errors;
  return isRecord(first) && typeof first.reason === 'string' ? first.reason : null;
}

function googleMessage(body: unknown): string | null {
  if (!isRecord(body)) return null;
  const { error } = body;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return typeof body.error_description === 'string' ? body.error_description : null;
}

function networkCode(error: GaxiosError): string | null {
  if (typeof error.code === 'string') return error.code;
  const cause: unknown = error.cause;
  if (isRecord(cause)) {
    if (typeof cause.code === 'string') return cause.code;
    const inner: unknown = cause.cause;
    if (isRecord(inner) && typeof inner.code === 'string') return inner.code;
  }
  return null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
