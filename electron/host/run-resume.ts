import type { RunResponse } from '../../shared/contract';
import { logRuntime } from '../engine/journal';
import type { RunFailure } from '../engine/model-failure';
import type { RunLoopDeps, RunSpec } from '../engine/run-deps';
import { failRun } from '../engine/run-endings';
import { driveRun } from '../engine/run-loop';
import { initialState, parseRunState, type RunState } from '../engine/run-state';
import { endingFor } from '../engine/settled-by-deputy';
import type { StoredApproval } from '../store/approvals-repo';
import type { Store } from '../store/store';

type UnfinishedRun = { id: string; threadId: string; model: string; status: string };

export interface ResumeDeps {
  store: Store;
  now: () => Date;
  runDeps: () => RunLoopDeps;
  specFor: (run: UnfinishedRun, signal: AbortSignal) => RunSpec;
  track: (run: UnfinishedRun, work: (signal: AbortSignal) => Promise<RunResponse>) => Promise<RunResponse>;
  /** Who the resumed notice is from (the chat's agent id). */
  noticeFrom: string;
  /** Ends a run paused on `approval`, which Deputy itself settled, as the live run ended (`endPausedRun`). */
  finishEnding: (approval: StoredApproval, failure: RunFailure) => void;
}

/**
 * Picks one unfinished run up from its last checkpoint. A run paused for approval stays paused unless its
 * decision was taken and not yet acted on, and ends if Deputy was ending it; one whose state cannot be read is
 * ended with that reason rather than guessed at.
 */
export function resumeRun(deps: ResumeDeps, run: UnfinishedRun): void {
  const { store } = deps;
  let state: RunState | null = null;
  let problem = 'its saved state is missing';
  try {
    const checkpoint = store.checkpoints.load(run.id);
    state = parseRunState(checkpoint?.state ?? store.runs.loadState(run.id));
    if (checkpoint && !state) problem = 'its saved state could not be read';
  } catch (error) {
    problem = error instanceof Error ? error.message : 'its saved state could not be read';
  }
  if (!state) {
    const spec = deps.specFor(run, new AbortController().signal);
    failRun(deps.runDeps(), spec, initialState('', []), {
      code: 'internal',
      message: `Deputy stopped during this run and could not pick it up again: ${problem}.`,
    });
    return;
  }
  const held = state.awaiting.map((entry) => store.approvals.get(entry.approvalId));
  if (run.status === 'awaiting_confirmation') {
    // Deputy settled what the run waited for (it expired, the person wrote again, the plan was cancelled) and
    // stopped before it ended the run: it ends now, as it would have, and the model is told nothing.
    for (const approval of held) {
      const ending = approval ? endingFor(approval) : null;
      if (approval && ending) return deps.finishEnding(approval, ending);
    }
  }
  const isStillWaiting =
    run.status === 'awaiting_confirmation' &&
    held.length > 0 &&
    held.every((approval) => approval?.status === 'pending');
  if (isStillWaiting) return;
  const resumed = state;
  void deps.track(run, (signal) => {
    const loop = deps.runDeps();
    const spec = deps.specFor(run, signal);
    store.transaction(() => {
      store.runs.markResumed(run.id, deps.now().toISOString());
      logRuntime(loop, spec, 'resume', resumed.step, {
        status: run.status,
        pending: resumed.pendingCalls.length,
        awaiting: resumed.awaiting.length,
      });
    });
    loop.emit({
      type: 'notice',
      runId: run.id,
      threadId: run.threadId,
      actionId: run.id,
      tool: deps.noticeFrom,
      message: 'Deputy stopped while this was running and picked it up again where it left off.',
    });
    return driveRun(loop, spec, resumed);
  });
}
