import { ErrorCode, type WebAPICallError } from '@slack/web-api';
import { redactSecrets } from '../../vault/redactor';
import { httpToolError, parseRetryAfter, ServiceError } from '../service-errors';
import { ToolError } from '../tool';

/** Slack's answers meaning the saved token itself is no good any more: only reconnecting helps. */
const REJECTED_SIGN_IN = new Set([
  'invalid_auth',
  'not_authed',
  'token_revoked',
  'token_expired',
  'account_inactive',
]);

/** Slack's answers meaning Slack itself failed, not the call: worth trying again later. */
const SLACK_FAULTS = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

function isSlackError(error: unknown): error is WebAPICallError {
  if (!(error instanceof Error) || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return (
    code === ErrorCode.PlatformError ||
    code === ErrorCode.RequestError ||
    code === ErrorCode.HTTPError ||
    code === ErrorCode.RateLimitedError
  );
}

/** The platform error code (`channel_not_found`…) of a failed call, or null for any other failure. */
export function slackErrorCode(error: unknown): string | null {
  return isSlackError(error) && error.code === ErrorCode.PlatformError ? error.data.error : null;
}

/** The HTTP status Slack answered a call with when it was not a success (a 500), or null: not reached, or a 200. */
export function slackHttpStatus(error: unknown): number | null {
  return isSlackError(error) && error.code === ErrorCode.HTTPError ? error.statusCode : null;
}

/** Whether Slack answered 429 (the client does not wait when told to reject rate-limited calls). */
export function isRateLimited(error: unknown): boolean {
  return isSlackError(error) && error.code === ErrorCode.RateLimitedError;
}

/** Whether Slack refused the token (revoked, expired, deactivated account), so the connection has lapsed. */
export function isRejectedSignIn(error: unknown): boolean {
  const code = slackErrorCode(error);
  return code !== null && REJECTED_SIGN_IN.has(code);
}

/** A platform error code or scope name is a short token; anything else Slack might put there is not echoed. */
export function safeSlackCode(code: string): string {
  return /^[\w.:-]{1,64}$/.test(code) ? redactSecrets(code) : 'unknown_error';
}

/**
 * Any failure of a Slack call as the ToolError the model sees. `what` names the operation ("reading
 * #general"); `channel` is how the user named the channel, for the messages that are about it. Messages are
 * built from codes and numbers only, never from request config or headers (which carry the token).
 */
export function slackToolError(error: unknown, what: string, channel?: string): ToolError {
  if (error instanceof ToolError) return error;
  if (!isSlackError(error)) throw error;
  switch (error.code) {
    case ErrorCode.RateLimitedError:
      return httpToolError('slack', what, 429, { retryAfterSeconds: error.retryAfter });
    case ErrorCode.HTTPError:
      return httpToolError('slack', what, error.statusCode, {
        retryAfterSeconds: parseRetryAfter(error.headers['retry-after']),
      });
    case ErrorCode.RequestError:
      return httpToolError('slack', what, null, { networkCode: networkCode(error.original) });
    case ErrorCode.PlatformError:
      return platformError(error.data.error, what, channel, { ...error.data });
  }
}

function platformError(
  rawCode: string,
  what: string,
  channel: string | undefined,
  data: Record<string, unknown>,
): ToolError {
  const code = safeSlackCode(rawCode);
  const place = channel ?? 'that channel';
  if (REJECTED_SIGN_IN.has(code)) return httpToolError('slack', what, 401);
  if (SLACK_FAULTS.has(code)) return httpToolError('slack', what, 503);
  switch (code) {
    case 'ratelimited':
      return httpToolError('slack', what, 429, { retryAfterSeconds: platformRetryAfter(data) });
    case 'missing_scope': {
      const needed = typeof data.needed === 'string' ? safeSlackCode(data.needed) : null;
      return httpToolError('slack', what, 403, { detail: needed ? `missing the ${needed} scope` : null });
    }
    case 'channel_not_found':
      return new ServiceError(
        'not_found',
        `No channel ${place} is visible to you in Slack. Call slack_channels to see the channels you can use.`,
        null,
        null,
        false,
      );
    case 'not_in_channel':
      return new ServiceError(
        'forbidden',
        `You are not a member of ${place}. Join it in Slack first, then ask again.`,
        null,
        null,
        false,
      );
    case 'is_archived':
      return new ServiceError(
        'forbidden',
        `${place} is archived, so nothing can be posted there.`,
        null,
        null,
        false,
      );
    case 'thread_not_found':
      return new ServiceError(
        'not_found',
        `No message with that thread_ts exists in ${place}. Read the channel with slack_read to find the thread.`,
        null,
        null,
        false,
      );
    case 'msg_too_long':
      return new ServiceError(
        'invalid_request',
        'The message is too long for Slack; shorten it.',
        null,
        null,
        false,
      );
    default:
      return new ServiceError('invalid_request', `Slack refused ${what} (${code}).`, null, null, false);
  }
}

/** The client copies a Retry-After header into `response_metadata.retryAfter`, even on an HTTP 200 answer. */
function platformRetryAfter(data: Record<string, unknown>): number | null {
  const metadata = data.response_metadata;
  const seconds =
    typeof metadata === 'object' && metadata !== null && 'retryAfter' in metadata
      ? (metadata as { retryAfter: unknown }).retryAfter
      : null;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : null;
}

/** `fetch failed` hides the reason in `cause`; a timeout is an AbortSignal's TimeoutError. */
function networkCode(original: Error): string | null {
  if (original.name === 'TimeoutError' || original.name === 'AbortError') return 'timeout';
  const cause = (original as { cause?: unknown }).cause;
  const code =
    cause && typeof cause === 'object' && 'code' in cause ? (cause as { code: unknown }).code : null;
  return typeof code === 'string' && /^[A-Z_]{2,40}$/.test(code) ? code : null;
}
