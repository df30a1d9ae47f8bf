import { z } from 'zod';

/** Every expected failure carries one of these codes, so each surface can show the right words. */
export const ErrorCode = z.enum([
  'invalid_input',
  'forbidden_sender',
  'unauthorized',
  'not_found',
  'payload_too_large',
  'unknown_channel',
  'model_not_configured',
  /** Gemini refused the API key Deputy has (wrong, revoked, or not allowed): adding one will not help, checking it will. */
  'model_key_rejected',
  'model_unavailable',
  'model_rate_limited',
  'model_server_error',
  'model_timeout',
  'model_bad_response',
  'model_blocked',
  'step_limit',
  // A task agent ended without a valid complete_task, even in its final-warning turn.
  'incomplete',
  'rate_limited',
  'approval_expired',
  'approval_decided',
  'cancelled',
  'conflict',
  /**
   * An undo would overwrite a change made since the action (the message says what changed), or a server's settings
   * were saved from a copy read before they changed elsewhere (nothing was saved).
   */
  'changed_since',
  /** The request named a host other than the loopback address Deputy listens on (DNS rebinding). */
  'wrong_host',
  /** Too many connections or subscriptions at once: the excess is turned away, nothing is queued. */
  'too_many',
  /** A service Deputy relies on (Slack, Google) could not be reached or gave an answer it could not use. */
  'service_unavailable',
  /** The client took too long to send its request. */
  'request_timeout',
  /** Secrets cannot be stored safely here (no keychain): nothing was connected. */
  'secrets_unavailable',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** Spec 002's outcome category of a run that failed with `code` (`RunResponse.outcome`): `ERROR:MODEL_TIMEOUT`. */
export const errorOutcome = (code: ErrorCode): string => `ERROR:${code.toUpperCase()}`;

export const ErrorBody = z.object({ code: ErrorCode, message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBody>;

export type Result<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };

/** A failure the user can act on; thrown inside the host, turned into `{ok:false,error}` at each transport. */
export class DeputyError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DeputyError';
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message };
  }
}

/** How much of an id a message quotes: ids come from clients, and a 5,000-character one is not echoed back whole. */
const QUOTED_ID_LENGTH = 64;

/** An id (or name) as every message quotes it: `"abc"`, or its first 64 characters and an ellipsis. */
export function quoteId(id: string): string {
  if (id.length <= QUOTED_ID_LENGTH) return `"${id}"`;
  const cut = id.slice(0, QUOTED_ID_LENGTH);
  // Never half of a surrogate pair: the message stays well-formed text.
  return `"${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…"`;
}

/** The `not_found` error for an id no `what` (run, conversation, plan…) has. */
export function notFound(what: string, id: string): DeputyError {
  return new DeputyError('not_found', `There is no ${what} with the id ${quoteId(id)}.`);
}

export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof DeputyError) return error.toBody();
  return { code: 'internal', message: 'Something went wrong inside Deputy. The details are in the log.' };
}

const MAX_LISTED_ISSUES = 10;

/** "prompt: prompt must not be empty; maxLoopSteps: Too big: expected number to be <=15", for any schema failure. */
export function describeIssues(error: z.ZodError): string {
  const issues = error.issues.slice(0, MAX_LISTED_ISSUES).map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  const more = error.issues.length - issues.length;
  return `${issues.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`;
}

/** Parses outside input, or throws the `invalid_input` error every transport reports the same way. */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success)
    throw new DeputyError('invalid_input', `Invalid input: ${describeIssues(parsed.error)}`);
  return parsed.data;
}
