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
  return httpToolError('google', what, status, {
    retryAfterSeconds: parseRetryAfter(error.response?.headers.get('retry-after'), now),
    detail: googleMessage(body),
  });
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
