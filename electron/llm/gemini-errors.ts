import { ApiError } from '@google/genai';
import { z } from 'zod';
import { cutMidAnswer } from './gemini-response';
import { ModelError } from './model-client';
import { quoted } from '../../shared/quote-words';
import { parseHttpDate } from '../../shared/http-date';

/** Turns what `@google/genai` and fetch throw into one ModelError a person can read. */

export interface FailureContext {
  model: string;
  /** Where requests go, for messages: a host name, never a URL with secrets in it. */
  host: string;
  /** Gemini had answered with headers, so a transport error now cuts an answer short. */
  hasResponse: boolean;
  retryAfterHeader: string | null;
}

const DEFAULT_HOST = 'generativelanguage.googleapis.com';

/** Where requests go, as messages name it: a host, never a URL that could carry a secret. */
export function hostOf(baseUrl: string | undefined): string {
  if (baseUrl === undefined) return DEFAULT_HOST;
  return URL.canParse(baseUrl) ? new URL(baseUrl).host : 'the address in DEPUTY_GEMINI_BASE_URL';
}

export function toModelError(error: unknown, context: FailureContext): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof ApiError) return fromHttpStatus(error.status, readGoogleError(error.message), context);
  if (error instanceof SyntaxError || isStreamParseError(error)) {
    return new ModelError('bad_response', 'Gemini sent a reply that is not valid JSON.');
  }
  if (context.hasResponse) return cutMidAnswer();
  if (isUnsendableHeader(error)) return new ModelError('key_rejected', UNSENDABLE_KEY);
  return fromConnectionError(error, context.host);
}

const UNSENDABLE_KEY =
  'The Gemini key has a character no key has (a space, a line break or a letter outside A–Z), so it could not be sent. Paste the key again in Settings → Connections, or fix GEMINI_API_KEY.';

/**
 * fetch refuses a header value with a character outside Latin-1 (or a line break) before anything is sent. The
 * key is the only header a person gives, so that is what it is about; said as a network failure, it was not.
 */
function isUnsendableHeader(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /ByteString|Invalid character in header|invalid header value/i.test(error.message)
  );
}

/** Keeps a secret out of a message even if a server or library echoed it back. */
export function withoutSecret(error: ModelError, secret: string): ModelError {
  if (secret === '' || !error.message.includes(secret)) return error;
  return new ModelError(error.kind, error.message.replaceAll(secret, '[redacted]'), error.retryAfterSeconds);
}

interface GoogleError {
  message: string | null;
  reasons: string[];
  retryDelaySeconds: number | null;
}

/** Ends a clause with a full stop unless it ends a sentence already. */
const sentence = (text: string): string => (/[.!?…]$/.test(text) ? text : `${text}.`);

function fromHttpStatus(status: number, google: GoogleError, context: FailureContext): ModelError {
  const said = google.message === null ? '.' : `: ${clip(google.message)}`;
  if (status === 429) {
    const retryAfter = parseRetryAfter(context.retryAfterHeader) ?? google.retryDelaySeconds;
    const wait = retryAfter === null ? '' : ` Try again in ${retryAfter} s.`;
    return new ModelError(
      'rate_limited',
      `${sentence(`Gemini is limiting requests (HTTP 429)${said}`)}${wait}`,
      retryAfter,
    );
  }
  if (status === 401 || status === 403 || google.reasons.includes('API_KEY_INVALID')) {
    return new ModelError(
      'key_rejected',
      `Gemini rejected the API key (HTTP ${status})${sentence(said)} Check the key in Settings → Connections, or GEMINI_API_KEY.`,
    );
  }
  if (status === 404) {
    return new ModelError(
      'bad_response',
      `Gemini does not know the model ${quoted(context.model)} (HTTP 404). Check DEPUTY_MODEL and DEPUTY_GEMINI_BASE_URL.`,
    );
  }
  if (status >= 500)
    return new ModelError('server_error', sentence(`Gemini had a server error (HTTP ${status})${said}`));
  return new ModelError('bad_response', sentence(`Gemini rejected the request (HTTP ${status})${said}`));
}

const NOT_FOUND_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN']);

function fromConnectionError(error: unknown, host: string): ModelError {
  const code = findErrorCode(error);
  if (code === 'ECONNREFUSED') {
    return new ModelError(
      'unavailable',
      `Could not connect to Gemini at ${host}: the connection was refused.`,
    );
  }
  if (code !== null && NOT_FOUND_CODES.has(code)) {
    return new ModelError(
      'unavailable',
      `Could not find Gemini's server (${host}). Check the network connection.`,
    );
  }
  const why = code ?? (error instanceof Error ? error.message : String(error));
  return new ModelError('unavailable', `Could not reach Gemini at ${host} (${clip(why)}).`);
}

/** Network errors hide their code in a chain of causes (fetch → undici → socket). */
function findErrorCode(error: unknown): string | null {
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if ('code' in current && typeof current.code === 'string' && current.code !== '') return current.code;
    current = 'cause' in current ? current.cause : null;
  }
  return null;
}

/** The SDK's own words when an SSE event is not a complete JSON object. */
function isStreamParseError(error: unknown): boolean {
  return (
    error instanceof Error && /exception parsing stream chunk|Incomplete JSON segment/.test(error.message)
  );
}

const googleErrorBody = z.object({
  error: z.object({
    message: z.string().optional(),
    details: z
      .array(
        z.looseObject({
          '@type': z.string().optional(),
          reason: z.string().optional(),
          retryDelay: z.string().optional(),
        }),
      )
      .optional(),
  }),
});

/** The SDK puts the response body (Google's `{ error: { … } }` JSON) in the ApiError's message. */
function readGoogleError(sdkMessage: string): GoogleError {
  const start = sdkMessage.indexOf('{');
  const parsed = googleErrorBody.safeParse(start === -1 ? null : parseJson(sdkMessage.slice(start)));
  if (!parsed.success) return { message: null, reasons: [], retryDelaySeconds: null };
  const details = parsed.data.error.details ?? [];
  const retryDelay = details.find((detail) => detail['@type']?.endsWith('google.rpc.RetryInfo'))?.retryDelay;
  return {
    message: parsed.data.error.message?.trim() || null,
    reasons: details.flatMap((detail) => (detail.reason === undefined ? [] : [detail.reason])),
    retryDelaySeconds: retryDelay === undefined ? null : parseSeconds(retryDelay.replace(/s$/, '')),
  };
}

/**
 * Retry-After is either a number of seconds or an HTTP date, in any of its three forms, always in GMT (parseHttpDate:
 * `Date.parse` read an asctime date in the local time zone and rolled 31 Feb over into March).
 */
function parseRetryAfter(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = parseSeconds(header);
  if (seconds !== null) return seconds;
  const now = Date.now();
  const date = parseHttpDate(header.trim(), now);
  return date === null ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

function parseSeconds(text: string): number | null {
  const seconds = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function clip(text: string, max = 240): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}
