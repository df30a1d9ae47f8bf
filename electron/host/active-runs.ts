import { DeputyError, MAX_QUEUED_RUNS, type RunResponse } from '../../shared/contract';
import { LeftQueue, RunSlots } from './run-slots';

export interface RunIds {
  id: string;
  threadId: string;
}

interface ActiveRun {
  threadId: string;
  controller: AbortController;
  done: Promise<RunResponse>;
}

export interface ActiveRunsDeps {
  /** The cap on runs at once, read whenever a slot may be handed out. */
  capacity: () => number;
  /** A run waits in line: `position` runs must finish before it starts; `isFirst` when it has just joined. */
  onQueued: (run: RunIds, position: number, isFirst: boolean) => void;
  /** A run was cancelled (or Deputy closed) while it waited: nothing of it ran. */
  onLeftQueue: (runId: string) => RunResponse;
  /** A bug in the run's work: it must still end in a terminal state. */
  onError: (runId: string, error: unknown) => RunResponse;
}

/**
 * The runs working (or waiting for a slot) in this process: cancellable, awaited on close, and behind the
 * cap on runs at once. More work of a run (a decision arriving while it still goes) chains behind the work it
 * has and shares its slot, so a run never waits behind itself.
 */
export class ActiveRuns {
  private readonly runs = new Map<string, ActiveRun>();
  private readonly slots: RunSlots;

  constructor(private readonly deps: ActiveRunsDeps) {
    this.slots = new RunSlots(deps.capacity);
  }

  /**
   * `holdsSlot: false` is for an agent's child run: its parent holds a slot and waits for it, so the child
   * taking one too could leave every slot held by a waiting parent.
   */
  track(
    run: RunIds,
    work: (signal: AbortSignal) => Promise<RunResponse>,
    { holdsSlot = true }: { holdsSlot?: boolean } = {},
  ): Promise<RunResponse> {
    // Two decisions on one run's held calls arrive close together: the second waits for the first.
    const before = this.runs.get(run.id);
    const controller = before?.controller ?? new AbortController();
    const start = before ? before.done.then(() => undefined) : Promise.resolve();
    const slot = holdsSlot
      ? this.slots.acquire(run.id, controller.signal, (position, isFirst) =>
          this.deps.onQueued(run, position, isFirst),
        )
      : Promise.resolve();
    const done: Promise<RunResponse> = start
      .then(() => slot)
      .then(() => work(controller.signal))
      .catch((error: unknown) =>
        error instanceof LeftQueue ? this.deps.onLeftQueue(run.id) : this.deps.onError(run.id, error),
      )
      .finally(() => {
        if (holdsSlot) this.slots.release(run.id);
        if (this.runs.get(run.id)?.done === done) this.runs.delete(run.id);
      });
    this.runs.set(run.id, { threadId: run.threadId, controller, done });
    return done;
  }

  has(runId: string): boolean {
    return this.runs.has(runId);
  }

  hasIn(threadId: string): boolean {
    return [...this.runs.values()].some((run) => run.threadId === threadId);
  }

  cancel(runId: string): boolean {
    const run = this.runs.get(runId);
    if (!run) return false;
    run.controller.abort();
    return true;
  }

  /** Stops every run of the thread, and whatever work chains behind them, and waits until each has ended. */
  async stopIn(threadId: string): Promise<number> {
    const stopped = new Set<string>();
    for (;;) {
      const running = [...this.runs.entries()].filter(([, run]) => run.threadId === threadId);
      if (running.length === 0) return stopped.size;
      for (const [runId, run] of running) {
        stopped.add(runId);
        run.controller.abort();
      }
      await Promise.allSettled(running.map(([, run]) => run.done));
    }
  }

  /** Stops everything (closing) and waits until all of it has settled. */
  async stopAll(): Promise<void> {
    const pending = [...this.runs.values()];
    for (const run of pending) run.controller.abort();
    await Promise.allSettled(pending.map((run) => run.done));
  }

  /**
   * Refuses a new run (before anything of it is stored) when the line of runs waiting for a slot is full: runs
   * start from scripts, over HTTP and the WebSocket, and each one waiting holds a row and a promise in memory.
   * Only new runs are refused; a run already started (resumed, approved, a child of a working run) always goes on.
   */
  checkRoomInLine(): void {
    if (this.slots.waitingCount() < MAX_QUEUED_RUNS) return;
    throw new DeputyError(
      'too_many',
      `${MAX_QUEUED_RUNS} runs are already waiting to start; let some finish or cancel some, then try again.`,
    );
  }

  /** A raised cap lets waiting runs in now rather than when the next run ends. */
  admitWaiting(): void {
    this.slots.admitWaiting();
  }
}
