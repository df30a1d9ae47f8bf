import { redactSecrets } from '../vault/redactor';
import { notConnected } from '../connections/access';
import { ToolError, type Integration } from './tool';
import { parseHttpDate } from '../../shared/http-date';

/**
 * Service failures turned into messages the model (and the person reading the run) can act on. Nothing from
 * the raw error reaches the message unredacted, and no header or request config (which carry the token) does.
 */
export class ServiceError extends ToolError {
  constructor(
    code: string,
    message: string,
    /** HTTP status when there was one. */
    readonly status: number | null,
    /** Seconds to wait before trying again, from Retry-After or Slack's rate-limit answer. */
    readonly retryAfterSeconds: number | null,
    /** Whether trying the same call again later could work (429, 5xx, network, timeout). */
    readonly isTransient: boolean,
  ) {
    super(code, message);
    this.name = 'ServiceError';
  }
}

/** Network failures that mean "no answer in time" rather than "could not connect"; both are worth retrying. */
const TIMEOUT_CODES = new Set(['timeout', 'ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);

export const SERVICE_NAME: Record<Integration, string> = { google: 'Google', slack: 'Slack' };

/**
 * Maps an HTTP-level failure from a service to a ToolError. `what` names the operation in words
 * ("reading the Gmail thread"); `detail` is the service's own message, which is redacted before use.
 * Whether the failure is transient decides whether the engine retries it: no answer (network, timeout, 408),
 * 429 and 5xx are; 400, 401 (the client has already tried a refresh), 403, 404 and other 4xx are not.
 */
export function httpToolError(
  integration: Integration,
  what: string,
  status: number | null,
  options: { retryAfterSeconds?: number | null; detail?: string | null; networkCode?: string | null } = {},
): ServiceError {
  const service = SERVICE_NAME[integration];
  const detail = options.detail ? ` (${redactSecrets(options.detail).slice(0, 300)})` : '';
  const retryAfter = options.retryAfterSeconds ?? null;
  if (status === null && options.networkCode && TIMEOUT_CODES.has(options.networkCode)) {
    return new ServiceError(
      'timeout',
      `${service} did not answer in time while ${what} (${options.networkCode}). Try again shortly.`,
      null,
      null,
      true,
    );
  }
  if (status === null) {
    const code = options.networkCode ? ` (${options.networkCode})` : '';
    return new ServiceError(
      'unavailable',
      `Could not reach ${service} while ${what}${code}. Check the network and try again.`,
      null,
      null,
      true,
    );
  }
  if (status === 401) {
    const lapsed = notConnected(integration, `${service} did not accept the saved sign-in while ${what}.`);
    return new ServiceError('not_connected', lapsed.message, 401, null, false);
  }
  if (status === 403) {
    return new ServiceError(
      'forbidden',
      `${service} refused ${what}: the connected account lacks permission${detail}. Reconnect ${service} in Settings → Connections to grant it.`,
      403,
      null,
      false,
    );
  }
  if (status === 404) {
    return new ServiceError(
      'not_found',
      `${service} found nothing for ${what}${detail}. Check the id.`,
      404,
      null,
      false,
    );
  }
  if (status === 408) {
    return new ServiceError(
      'timeout',
      `${service} gave up waiting while ${what} (HTTP 408). Try again shortly.`,
      408,
      retryAfter,
      true,
    );
  }
  if (status === 429) {
    const wait = retryAfter !== null ? ` Try again in ${retryAfter} s.` : ' Try again shortly.';
    return new ServiceError(
      'rate_limited',
      `${service} is limiting requests while ${what}.${wait}`,
      429,
      retryAfter,
      true,
    );
  }
  if (status >= 500) {
    return new ServiceError(
      'unavailable',
      `${service} had a problem while ${what} (HTTP ${status}). Try again later.`,
      status,
      retryAfter,
      true,
    );
  }
  return new ServiceError(
    'invalid_request',
    `${service} rejected ${what} (HTTP ${status})${detail}.`,
    status,
    null,
    false,
  );
}

/**
 * Reads a Retry-After header given in seconds or as an HTTP date, in any of its three forms, always in GMT
 * (parseHttpDate: `Date.parse` read an asctime date in the local time zone and rolled 31 Feb over into March).
 */
export function parseRetryAfter(value: string | null | undefined, now: Date = new Date()): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = parseHttpDate(value.trim(), now.getTime());
  return date === null ? null : Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}
