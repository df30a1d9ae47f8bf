import { RunEvent, type RunRecord, type RunResponse } from '../../shared/contract';
import type { RunFailure } from '../engine/model-failure';
import type { RunLoopDeps, RunSpec } from '../engine/run-deps';
import { failRun } from '../engine/run-endings';
import { initialState, parseRunState, type RunState } from '../engine/run-state';
import type { Store } from '../store/store';
import { endingEvents } from './refusals';
import { plainAnswer } from './run-answer';
import type { RunIds } from './run-launcher';

export interface EndingDeps {
  store: Store;
  isClosed: () => boolean;
  logError: (message: string, error: unknown) => void;
  runDeps: () => RunLoopDeps;
  specFor: (run: RunIds, signal: AbortSignal) => RunSpec;
}

/**
 * Records `failure` as the ending of a run its loop did not end (a bug, a stop before it started), keeping
 * what its last checkpoint had reached.
 */
export function endWithoutWork(deps: EndingDeps, runId: string, failure: RunFailure): RunResponse {
  // Stopped by closing: nothing was recorded on purpose, and the run goes on at the next start.
  if (deps.isClosed()) {
    return plainAnswer(
      runId,
      null,
      'failed',
      'Deputy closed while this was running; it goes on when Deputy starts again.',
    );
  }
  let run: RunRecord | null = null;
  try {
    run = deps.store.runs.get(runId);
    // An ending already recorded stands: a late error must not turn a finished run into a failed one.
    if (run && (run.status === 'completed' || run.status === 'failed')) {
      return plainAnswer(runId, run, run.status, run.summary ?? '');
    }
    const spec = deps.specFor(
      { id: runId, threadId: run?.threadId ?? '', model: run?.model ?? '' },
      new AbortController().signal,
    );
    let state: RunState | null = null;
    try {
      state = parseRunState(deps.store.checkpoints.load(runId)?.state);
    } catch {
      state = null;
    }
    return failRun(deps.runDeps(), spec, state ?? initialState('', []), failure);
  } catch (storeError) {
    deps.logError(`could not record the ending of run ${runId}`, storeError);
    return plainAnswer(runId, run, 'failed', failure.message);
  }
}

/** A run's logged events, replayed to a late subscriber. A refused request logs none: its ending is rebuilt. */
export function storedEvents(store: Store, runId: string): RunEvent[] {
  const stored = store.events.byRun(runId).flatMap((payload) => {
    const parsed = RunEvent.safeParse(payload);
    return parsed.success ? [parsed.data] : [];
  });
  if (stored.length > 0) return stored;
  const run = store.runs.get(runId);
  if (run?.status !== 'failed') return [];
  const summary = run.errorMessage ?? run.summary ?? '';
  return endingEvents(plainAnswer(run.id, run, 'failed', summary), run.errorCode);
}
