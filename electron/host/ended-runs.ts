import { lookForEndedCalls } from '../engine/cut-off-calls';
import type { RunLoopDeps, RunSpec } from '../engine/run-deps';
import { initialState } from '../engine/run-state';
import type { Store } from '../store/store';
import type { RunIds } from './run-launcher';

export interface EndedRunsDeps {
  store: Store;
  runDeps: () => RunLoopDeps;
  specFor: (run: RunIds, signal: AbortSignal) => RunSpec;
  logError: (message: string, error: unknown) => void;
}

/**
 * At start: a side effect a run that has ended left `started` is looked for, as its ending does (cut-off-calls.ts),
 * and committed if found, else `unknown`. Such calls are left by runs that ended before their endings settled
 * them, and by an ending whose look-up Deputy stopped before it landed. Nothing is run again. Resolves when every
 * look-up has landed.
 */
export async function settleEndedRuns(deps: EndedRunsDeps): Promise<void> {
  const { store } = deps;
  const looks: Promise<void>[] = [];
  for (const runId of store.endedRunEffects.runIds()) {
    try {
      const run = store.runs.get(runId);
      if (!run) continue;
      const runDeps = deps.runDeps();
      // The run has ended: only the look-up's own time limit stops it.
      const spec = deps.specFor(run, new AbortController().signal);
      const started = store.actions.startedInRun(runId).filter((entry) => entry.hasSideEffects);
      looks.push(lookForEndedCalls(runDeps, spec, initialState('', []), started));
    } catch (error) {
      deps.logError(`could not settle the calls run ${runId} left running`, error);
    }
  }
  await Promise.all(looks);
}
