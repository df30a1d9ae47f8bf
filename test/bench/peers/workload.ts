/**
 * The workload every engine runs in the peer bench: a zero-latency scripted model asks for one read-only tool
 * per turn, `STEPS` turns, then answers. A step is the time from one model request to the next: the engine's
 * own work (its loop, the tool, whatever it stores), with no model latency at all.
 */
export const STEPS = 10;

/** The tool's arguments on the model's `turn`-th turn. */
export function toolArgs(turn: number): { query: string } {
  return { query: `quarterly ${turn}` };
}

/** What the read-only tool returns in the peers (Deputy's list_tasks reads its empty task table). */
export const TOOL_RESULT = { tasks: [], isTruncated: false };

/** Collects the instants of model requests and turns them into step samples, skipping warm-up runs. */
export class StepClock {
  private readonly requests: bigint[] = [];
  readonly samples: number[] = [];

  tick(): void {
    this.requests.push(process.hrtime.bigint());
  }

  /** Ends one run: its steps count unless it was a warm-up run. */
  endRun(isCounted: boolean): void {
    if (isCounted) {
      for (let index = 1; index < this.requests.length; index += 1) {
        const current = this.requests[index];
        const previous = this.requests[index - 1];
        if (current !== undefined && previous !== undefined)
          this.samples.push(Number(current - previous) / 1e6);
      }
    }
    this.requests.length = 0;
  }
}
