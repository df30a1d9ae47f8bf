import { setImmediate as yieldToLoop } from 'node:timers/promises';

/**
 * How long one slice of index building may hold the main process. A slice stops taking steps once it has used
 * this much, so the longest stall is this plus one small step, well under the 10 ms the issue allows.
 */
export const SLICE_MS = 4;

/**
 * Runs `step` until it says there is nothing more, in slices measured by time, with a turn of the event loop
 * before each slice (so the first step never runs in the caller's turn). Stops when `signal` aborts; after a
 * yield nothing runs on a closed database. Returns how long each slice took (ms), for the bench.
 */
export async function inSlices(
  step: () => boolean,
  signal?: AbortSignal,
  budgetMs = SLICE_MS,
  clock: () => number = () => performance.now(),
): Promise<number[]> {
  const slices: number[] = [];
  let hasMore = true;
  while (hasMore) {
    await yieldToLoop();
    if (signal?.aborted) break;
    const started = clock();
    do hasMore = step();
    while (hasMore && clock() - started < budgetMs);
    slices.push(clock() - started);
  }
  return slices;
}
