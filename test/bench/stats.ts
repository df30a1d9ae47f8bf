import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export function summarize(samples: readonly number[]): {
  n: number;
  median: number;
  p95: number;
  max: number;
} {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

export const ms = (value: number): string => `${value.toFixed(3)} ms`;

/**
 * A full collection now, so the pauses measured next are the phase's own, not the clean-up of the garbage an
 * earlier phase (or the seeding) left behind: a real main process has no such heap of bench garbage.
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
}

/**
 * collectGarbage(), then a quarter second idle: V8 sweeps what a full collection freed on background threads
 * after it returns, and on a 2-core machine a phase that begins at once finds its main thread finishing that
 * sweep, a pause of the bench's making.
 */
export async function collectGarbageAndSettle(): Promise<void> {
  collectGarbage();
  await new Promise((resolve) => setTimeout(resolve, 250));
}
