/** A run that was cancelled (or stopped by closing) while it waited for a slot: it never started. */
export class LeftQueue extends Error {
  constructor(readonly runId: string) {
    super(`Run ${runId} left the queue before it started.`);
    this.name = 'LeftQueue';
  }
}

interface Entry {
  /** Pieces of work of this run that hold (or wait for) its slot: a continuation joins the slot it has. */
  holders: number;
  isGranted: boolean;
  grant: Promise<void>;
  admit: () => void;
  refuse: (error: LeftQueue) => void;
  onPosition: (position: number, isFirst: boolean) => void;
  stopListening: () => void;
}

/**
 * The global cap on runs that work at once. A run beyond the cap waits in line, first come first served, and
 * hears its place in the line whenever it changes. Slots belong to runs, not to pieces of work: the Host chains
 * a run's work (a decision arriving while the run is still going), and the chained piece shares the run's slot,
 * so a run never waits behind itself.
 */
export class RunSlots {
  private readonly entries = new Map<string, Entry>();
  private readonly line: string[] = [];
  private working = 0;

  constructor(private readonly capacity: () => number) {}

  /** Resolves when the run may work; rejects with `LeftQueue` if `signal` aborts while it waits. */
  acquire(
    runId: string,
    signal: AbortSignal,
    /** `isFirst` for the place the run gets when it joins the line; then for each move of the line. */
    onPosition: (position: number, isFirst: boolean) => void = () => {},
  ): Promise<void> {
    const known = this.entries.get(runId);
    if (known) {
      known.holders += 1;
      return known.grant;
    }
    const entry = this.newEntry(onPosition);
    this.entries.set(runId, entry);
    if (signal.aborted) {
      entry.refuse(new LeftQueue(runId));
      return entry.grant;
    }
    this.line.push(runId);
    const leave = (): void => this.leave(runId);
    signal.addEventListener('abort', leave, { once: true });
    entry.stopListening = () => signal.removeEventListener('abort', leave);
    this.admitWaiting();
    if (!entry.isGranted) entry.onPosition(this.line.indexOf(runId) + 1, true);
    return entry.grant;
  }

  /** Each `acquire` is matched by one `release`, whether the run worked, failed or left the line. */
  release(runId: string): void {
    const entry = this.entries.get(runId);
    if (!entry) return;
    entry.holders -= 1;
    if (entry.holders > 0) return;
    this.entries.delete(runId);
    entry.stopListening();
    if (entry.isGranted) {
      this.working -= 1;
      this.admitWaiting();
    } else {
      this.leave(runId);
    }
  }

  /** Lets in whoever fits now: called after a run ends and when the cap is raised. */
  admitWaiting(): void {
    let hasMoved = false;
    while (this.line.length > 0 && this.working < Math.max(1, this.capacity())) {
      const runId = this.line.shift();
      const entry = runId === undefined ? undefined : this.entries.get(runId);
      if (!entry) continue;
      this.working += 1;
      entry.isGranted = true;
      entry.stopListening();
      entry.admit();
      hasMoved = true;
    }
    if (hasMoved) this.tellPositions();
  }

  /** How many runs wait in line for a slot. */
  waitingCount(): number {
    return this.line.length;
  }

  /** The runs working now and the runs waiting, in order. */
  snapshot(): { working: number; waiting: string[] } {
    return { working: this.working, waiting: [...this.line] };
  }

  private leave(runId: string): void {
    const at = this.line.indexOf(runId);
    if (at === -1) return;
    this.line.splice(at, 1);
    this.entries.get(runId)?.refuse(new LeftQueue(runId));
    this.tellPositions();
  }

  private tellPositions(): void {
    if (this.line.length === 0) return;
    this.line.forEach((runId, index) => this.entries.get(runId)?.onPosition(index + 1, false));
  }

  private newEntry(onPosition: Entry['onPosition']): Entry {
    let admit = (): void => {};
    let refuse = (_error: LeftQueue): void => {};
    const grant = new Promise<void>((resolve, reject) => {
      admit = resolve;
      refuse = reject;
    });
    // The holders await the grant; this keeps a refusal that lands before they do from counting as unhandled.
    grant.catch(() => {});
    return { holders: 1, isGranted: false, grant, admit, refuse, onPosition, stopListening: () => {} };
  }
}
