import type { DeputyClient, RunEvent } from '../../../../shared/contract';
import { isRunStart } from '../../../../shared/run-start';

/** Whether an event ends its run. */
export const isRunEnd = (event: RunEvent): boolean => event.type === 'result' || event.type === 'error';

/** What a followed run's events do to the open conversation. */
export interface FollowedRunView {
  /**
   * A replay of the run, from its start to now (again, after a reconnect): it replaces all the window showed of the
   * run, in one change, so the run is never shown shorter while the replay arrives.
   */
  replace(runId: string, replay: readonly RunEvent[]): void;
  apply(event: RunEvent): void;
}

interface FollowedRun {
  runId: string;
  hasBegun: boolean;
  /** The replay under way, kept until the host says all of it is here. */
  replay: RunEvent[] | null;
  unsubscribe: (() => void) | null;
}

/**
 * The runs found under way in a conversation just read, shown from their start: the stored copy lacks the turn
 * each is in, and the window-wide stream brings only what they say from now on. Subscribed to one run, the host
 * replays what it emitted and then follows it live, in order, so nothing is missed and nothing comes twice. It
 * replays nothing of a run it has not held whole since its start (one resumed after a restart): its journal keeps
 * no words, and the stored copy has them.
 */
export class RunFollowers {
  private readonly followed = new Map<string, FollowedRun>();

  constructor(
    private readonly client: DeputyClient,
    private readonly view: FollowedRunView,
  ) {}

  /** Whether this run's events come by its replay, so the window-wide stream leaves them alone. */
  isFollowing(runId: string): boolean {
    return this.followed.has(runId);
  }

  follow(runId: string): void {
    const run: FollowedRun = { runId, hasBegun: false, replay: null, unsubscribe: null };
    this.followed.set(runId, run);
    const unsubscribe = this.client.on(
      'run.events',
      { runId, isWholeReplayOnly: true },
      (event) => this.apply(run, event),
      { onCaughtUp: () => this.showReplay(run) },
    );
    if (this.followed.get(runId) === run) run.unsubscribe = unsubscribe;
    else unsubscribe();
  }

  stopAll(): void {
    for (const run of [...this.followed.values()]) this.stop(run);
  }

  private stop(run: FollowedRun): void {
    if (this.followed.get(run.runId) !== run) return;
    this.followed.delete(run.runId);
    run.unsubscribe?.();
  }

  private apply(run: FollowedRun, event: RunEvent): void {
    if (this.followed.get(run.runId) !== run) return;
    // The replay begins with the run's start, the first time and again when the socket re-sends the subscription
    // after a reconnect: each replay replaces what the last one showed, so no word shows twice.
    if (isRunStart(event)) run.replay = [];
    // Not held whole since its start (resumed after a restart), the run is not replayed: this is the first it says
    // since, live. The stored copy stays, and the window-wide stream brings the rest.
    else if (!run.hasBegun) this.stop(run);
    run.hasBegun = true;
    if (run.replay) run.replay.push(event);
    else this.view.apply(event);
    if (isRunEnd(event) && !run.replay) this.stop(run);
  }

  private showReplay(run: FollowedRun): void {
    const { replay } = run;
    if (this.followed.get(run.runId) !== run || !replay) return;
    run.replay = null;
    this.view.replace(run.runId, replay);
    if (replay.some(isRunEnd)) this.stop(run);
  }
}
