import { isoTime } from '../../shared/iso-time';
import type { ToolOutcome } from '../tools/registry';
import { toolContext, type CallScope, type HandedAs } from './call-context';
import { logRuntime } from './journal';
import { retryAt, toolRetryNotice } from './retry-notice';
import {
  decideRetry,
  errorSignature,
  MODEL_RETRY,
  TOOL_RETRY,
  type Failure,
  type RetryVerdict,
} from './retry';
import type { CheckedCall } from './run-deps';
import type { CallPart } from './run-state';

/** A call's outcome when it did not go through. */
export type Failed = Extract<ToolOutcome, { ok: false }>;

/** What the model reads about a failed call: enough to adapt (is it worth trying later?), nothing internal. */
export function errorForModel(
  outcome: Failed,
  attempts: number,
  hasSideEffects: boolean,
): Record<string, unknown> {
  const mayHaveHappened = hasSideEffects && isCutOff(outcome);
  const message = outcome.modelHint ? `${outcome.message} ${outcome.modelHint}` : outcome.message;
  return {
    error: {
      code: outcome.code,
      kind: outcome.errorCode,
      message: mayHaveHappened
        ? `${message} It may still have happened: check (search, read) before doing it again.`
        : message,
      retryable: outcome.transient && !mayHaveHappened,
      ...(attempts > 1 && { attempts }),
    },
  };
}

/**
 * A call stopped while it was still going (its time limit passed, the run was cancelled, the service timed
 * out): the service may yet carry it out. A side effect in that state is not tried again here, where a second
 * attempt could land next to the first.
 */
export function isCutOff(outcome: Failed): boolean {
  return outcome.isCutOff === true || outcome.errorCode === 'timeout';
}

export async function runWithRetries(
  scope: CallScope,
  actionId: string,
  call: CallPart,
  check: CheckedCall,
  handed: HandedAs,
): Promise<{ outcome: ToolOutcome; attempts: number }> {
  const { deps, spec } = scope;
  const context = toolContext(scope, actionId, call, check, handed);
  for (let retries = 0; ; retries += 1) {
    // The first attempt was counted with `started`; each retry is counted as it begins.
    if (retries > 0) deps.store.actions.countAttempt(actionId, isoTime(deps.now()));
    const outcome = await deps.registry.run(check, context, (error) =>
      deps.logError(`tool ${check.tool.name} failed unexpectedly`, error),
    );
    if (outcome.ok) return { outcome, attempts: retries + 1 };
    const failure: Failure = {
      transient: outcome.transient && !(check.tool.hasSideEffects && isCutOff(outcome)),
      retryAfterSeconds: outcome.retryAfterSeconds,
      signature: errorSignature(check.tool.name, outcome.errorCode, outcome.message),
    };
    const verdict = noteFailure(scope, failure, retries, call, {
      tool: check.tool.name,
      errorCode: outcome.errorCode,
    });
    if (!verdict.retry) return { outcome, attempts: retries + 1 };
    deps.emit({
      type: 'notice',
      runId: spec.runId,
      threadId: spec.threadId,
      actionId,
      tool: check.tool.name,
      message: toolRetryNotice(check.tool, check.args, outcome.errorCode, verdict.delayMs, handed.names),
      retryAt: retryAt(deps.now(), verdict.delayMs),
    });
    try {
      await deps.sleep(verdict.delayMs, spec.signal);
    } catch {
      return {
        outcome: { ...outcome, message: `${outcome.message} Stopped before trying again.`, transient: false },
        attempts: retries + 1,
      };
    }
  }
}

/**
 * Counts a failure's signature in the run's retry memory and decides whether to try again, recording the
 * decision (with its checkpoint) so a resumed run remembers which errors it has already seen.
 */
export function noteFailure(
  scope: CallScope,
  failure: Failure,
  retriesSoFar: number,
  call: CallPart | null,
  detail: Record<string, unknown>,
): RetryVerdict {
  const { deps, spec, state } = scope;
  const seen = (state.retry.signatures[failure.signature] ?? 0) + 1;
  state.retry.signatures = { ...state.retry.signatures, [failure.signature]: seen };
  const verdict = decideRetry(failure, retriesSoFar, seen, call ? TOOL_RETRY : MODEL_RETRY, deps.random);
  deps.store.transaction(() => {
    logRuntime(
      deps,
      spec,
      'retry',
      state.step,
      { ...detail, signature: failure.signature, seen, ...verdict, attempt: retriesSoFar + 1 },
      call?.callId,
    );
    deps.checkpoints.save(spec, state);
  });
  return verdict;
}
