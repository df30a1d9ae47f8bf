import { ServiceError } from './service-errors';
import { ToolError, type ToolContext } from './tool';

/** What the engine needs to know about a failed call: the tool's own code and whether trying again could work. */
export interface CallFailure {
  /** The ToolError's code ('rate_limited', 'unavailable', 'timeout', 'forbidden'…), 'internal' for a bug. */
  errorCode: string;
  message: string;
  /** Only a ServiceError can be transient: a plain ToolError or an unexpected error will fail the same way again. */
  transient: boolean;
  retryAfterSeconds: number | null;
  /**
   * The call was stopped while it was going (its time limit passed, or the run was cancelled), not refused: the
   * service may have carried it out anyway, or may yet.
   */
  isCutOff?: boolean;
  /** A ToolError's next step for the model, kept out of `message`, which is what the person reads. */
  modelHint?: string;
}

export type GuardedResult<T> = { ok: true; value: T } | { ok: false; failure: CallFailure };

/**
 * Running the call itself, looking for what it already did after a crash, or reading whom it would reach
 * before the policy decides: only the messages differ.
 */
export type CallPurpose = 'execute' | 'reconcile' | 'reach' | 'undo' | 'current';

const DOING: Record<CallPurpose, string> = {
  execute: '',
  reconcile: ' while looking for what it had already done',
  reach: ' while checking whom it would reach',
  undo: ' while undoing it',
  current: ' while reading what it changed',
};

export interface GuardedCall<T> {
  toolName: string;
  purpose: CallPurpose;
  context: ToolContext;
  limitMs: number;
  /** Gets the context with a signal that aborts on cancellation or when the limit passes. */
  work: (context: ToolContext) => Promise<T> | T;
  /** Told about an error that is not a ToolError; its message may carry internals, so the model never sees it. */
  onUnexpected: (error: unknown) => void;
}

const TIMED_OUT = Symbol('timed out');
const CANCELLED = Symbol('cancelled');

/**
 * Runs one tool call so that it cannot hang the run and cannot fail with anything but a value. When the limit
 * passes, or the run is cancelled, the registry stops waiting at once and the tool's signal is aborted, so its
 * requests are cut off and it does not go on to act. Such a failure says `isCutOff`: a side effect already on its
 * way may still land, so the engine looks for it by its idempotency key rather than calling it failed outright.
 */
export async function guardedCall<T>(call: GuardedCall<T>): Promise<GuardedResult<T>> {
  const { context } = call;
  if (context.signal.aborted) return { ok: false, failure: cancelled(call, false) };
  const limit = new AbortController();
  const signal = AbortSignal.any([context.signal, limit.signal]);
  let timer: NodeJS.Timeout | undefined;
  let onCancel: (() => void) | undefined;
  const stopped = new Promise<typeof TIMED_OUT | typeof CANCELLED>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), call.limitMs);
    onCancel = () => resolve(CANCELLED);
    context.signal.addEventListener('abort', onCancel, { once: true });
  });
  try {
    // Started in a microtask so that a tool which throws synchronously is caught like one that rejects.
    const work = Promise.resolve().then(() => call.work({ ...context, signal }));
    // A rejection after the race is decided is still handled: the race subscribed to it.
    const settled = await Promise.race([work, stopped]);
    if (settled === TIMED_OUT) {
      limit.abort(new DOMException(`${call.toolName} ran out of time`, 'TimeoutError'));
      return { ok: false, failure: timedOut(call) };
    }
    if (settled === CANCELLED) return { ok: false, failure: cancelled(call, true) };
    return { ok: true, value: settled };
  } catch (error) {
    if (context.signal.aborted) return { ok: false, failure: cancelled(call, true) };
    return { ok: false, failure: failureOf(error, call) };
  } finally {
    clearTimeout(timer);
    if (onCancel) context.signal.removeEventListener('abort', onCancel);
  }
}

/** A thrown error as the engine sees it; only a ServiceError says a retry could work. */
function failureOf(error: unknown, call: GuardedCall<unknown>): CallFailure {
  if (error instanceof ServiceError) {
    return {
      errorCode: error.code,
      message: error.message,
      transient: error.isTransient,
      retryAfterSeconds: error.retryAfterSeconds,
    };
  }
  if (error instanceof ToolError) {
    const { code, message, modelHint } = error;
    return {
      errorCode: code,
      message,
      transient: false,
      retryAfterSeconds: null,
      ...(modelHint !== undefined && { modelHint }),
    };
  }
  call.onUnexpected(error);
  const message = `The call failed unexpectedly${DOING[call.purpose]}.`;
  return { errorCode: 'internal', message, transient: false, retryAfterSeconds: null };
}

function timedOut(call: GuardedCall<unknown>): CallFailure {
  const seconds = formatSeconds(call.limitMs);
  const message =
    call.purpose === 'execute'
      ? `The call got no answer within ${seconds} and was stopped.`
      : `The call could not finish${DOING[call.purpose].replace(' while', '')} within ${seconds}.`;
  return { errorCode: 'timeout', message, transient: true, retryAfterSeconds: null, isCutOff: true };
}

/** `isCutOff`: the call had set off when the run was cancelled (before it did, nothing can have happened). */
function cancelled(call: GuardedCall<unknown>, isCutOff: boolean): CallFailure {
  return {
    errorCode: 'cancelled',
    message: 'The call was stopped because the run was cancelled.',
    transient: false,
    retryAfterSeconds: null,
    ...(isCutOff && { isCutOff }),
  };
}

/** 60000 → "60 s", 250 → "0.25 s". */
function formatSeconds(ms: number): string {
  return `${Number((ms / 1_000).toFixed(2))} s`;
}
