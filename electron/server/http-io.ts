import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkClientInput } from '../host/client-input';
import { DeputyError, LIMITS, type ErrorBody, type ErrorCode } from '../../shared/contract';

const STATUS_BY_CODE: Partial<Record<ErrorCode, number>> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden_sender: 403,
  not_found: 404,
  unknown_channel: 404,
  conflict: 409,
  changed_since: 409,
  wrong_host: 421,
  too_many: 429,
  request_timeout: 408,
  service_unavailable: 502,
  secrets_unavailable: 503,
  // No Gemini key: the service Deputy needs is not set up yet (README: "API failures").
  model_not_configured: 503,
  // A key Gemini refused: the same, the service is not usable until the key is fixed.
  model_key_rejected: 503,
  approval_decided: 409,
  approval_expired: 410,
  rate_limited: 429,
  payload_too_large: 413,
  internal: 500,
};

/**
 * A whole number given in a query string, or NaN (which the contract refuses with a typed 400): `Number()` alone
 * would take "1e1", "0x10" or "" for numbers.
 */
export function queryNumber(text: string): number {
  return /^-?\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
}

export function statusFor(error: ErrorBody): number {
  return STATUS_BY_CODE[error.code] ?? 400;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: ErrorBody): void {
  sendJson(res, statusFor(error), { ok: false, error });
}

/** Reads a JSON body of at most LIMITS.requestBodyBytes; anything else is a typed 4xx, never a crash. */
export async function readJsonBody(
  req: IncomingMessage,
  limit: number = LIMITS.requestBodyBytes,
): Promise<unknown> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new DeputyError('invalid_input', 'Send the body as JSON with "Content-Type: application/json".');
  }
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '')
    throw new DeputyError('invalid_input', 'The request body is empty; send a JSON object.');
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw new DeputyError('invalid_input', 'The request body is not valid JSON.');
  }
  checkClientInput(body);
  return body;
}

/**
 * A body whose fields a route joins to the ids in its path: anything but a JSON object is refused, as a
 * route's schema refuses it when the body is its whole input, rather than read as `{}`.
 */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const body = await readJsonBody(req);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new DeputyError('invalid_input', 'The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

/** For routes whose body is optional (approve, reject): no body at all reads as `{}`. */
export async function readOptionalJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const hasBody =
    Number(req.headers['content-length'] ?? '0') > 0 || req.headers['transfer-encoding'] !== undefined;
  return hasBody ? readJsonObject(req) : {};
}

function tooLarge(limit: number): DeputyError {
  return new DeputyError('payload_too_large', `The request body is larger than ${limit} bytes.`);
}
