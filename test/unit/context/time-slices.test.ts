import { describe, expect, it } from 'vitest';
import { inSlices } from '../../../electron/context/time-slices';

describe('building the index in time slices', () => {
  it('stops a slice once it has used its budget, and lets the event loop run between slices', async () => {
    let now = 0;
    let steps = 0;
    const stepsAtTurn: number[] = [];
    const observe = (): void => {
      stepsAtTurn.push(steps);
      if (steps < 10) setImmediate(observe);
    };
    setImmediate(observe);
    // Each step "takes" 1.5 ms of a fake clock; the budget is 4 ms: three steps a slice (4.5 ms), then a yield.
    const slices = await inSlices(
      () => {
        steps += 1;
        now += 1.5;
        return steps < 10;
      },
      undefined,
      4,
      () => now,
    );
    expect(slices).toEqual([4.5, 4.5, 4.5, 1.5]);
    expect(steps).toBe(10);
    // Another callback ran between slices: it saw the work part done, never all ten steps in one go.
    expect(stepsAtTurn.some((seen) => seen > 0 && seen < 10)).toBe(true);
  });

  it('takes no step in the caller’s turn, and none once the signal aborts', async () => {
    let steps = 0;
    const stop = new AbortController();
    const running = inSlices(
      () => {
        steps += 1;
        if (steps === 2) stop.abort();
        return true;
      },
      stop.signal,
      0,
    );
    expect(steps).toBe(0);
    await running;
    expect(steps).toBe(2);
  });
});
