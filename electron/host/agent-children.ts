import { createHash } from 'node:crypto';
import type { RunEvent, RunResponse } from '../../shared/contract';
import { ToolError } from '../tools/tool';

/** Why a child run is stopped from above: its parent was stopped, or the call that started it ran out of time. */
export type ChildStop = 'parent_stopped' | 'out_of_time';

export interface RunWatch {
  subscribe: (runId: string, listener: (event: RunEvent) => void) => () => void;
  cancel: (runId: string, why: ChildStop) => boolean;
}

/** Waits for a child's ending (a pause for approval is not one); stopping the parent stops the child. */
export function waitForRunEnd(watch: RunWatch, runId: string, signal: AbortSignal): Promise<RunResponse> {
  return new Promise((resolve, reject) => {
    let unsubscribe: () => void = () => {};
    const onAbort = (): void => {
      unsubscribe();
      // The call's time limit aborts with a TimeoutError (call-guard.ts); anything else is the run being stopped.
      const isOutOfTime = (signal.reason as { name?: unknown } | undefined)?.name === 'TimeoutError';
      watch.cancel(runId, isOutOfTime ? 'out_of_time' : 'parent_stopped');
      reject(new ToolError('cancelled', 'The agent was stopped with the run that started it.'));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    let isDone = false;
    // The bus first replays what the run already emitted, so a child that ended before this call is seen too.
    unsubscribe = watch.subscribe(runId, (event) => {
      if (isDone || event.type !== 'result' || event.result.status === 'awaiting_confirmation') return;
      isDone = true;
      signal.removeEventListener('abort', onAbort);
      queueMicrotask(() => unsubscribe());
      resolve(event.result);
    });
    if (isDone) unsubscribe();
  });
}

/** A child's run id, derived from its parent's call (run, call and arguments): the same call, the same child. */
export function childRunId(idempotencyKey: string): string {
  const hex = createHash('sha256').update(`agent-child:${idempotencyKey}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
