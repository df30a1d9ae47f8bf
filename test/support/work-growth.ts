/**
 * Whether the work a reading of a text does grows in step with the text: the guard the redactor's tests put against a
 * pattern that backtracks (reads each character more than a bounded number of times). It compares the CPU time one
 * reading takes on texts of growing length, each four times the last, and stops at the first step whose work grew far
 * more than its text did. A reading in step with its text does about 4 times the work for 4 times the text; one that
 * reads each character once more for each before it (a quadratic) does 16 times. No absolute time is judged, so a slow
 * or busy machine reads alike, and a quadratic reading is found at the smallest texts where it shows, in well under a
 * second, not after the test's time limit.
 */

/** The texts' lengths, in characters: each 4 times the last. */
const STEP_CHARS = [3_000, 12_000, 48_000, 192_000];
/**
 * How many times more work a step may take than the step before it: a linear reading does 4 (up to 6.5 was seen, where
 * the larger text costs the collector more), a quadratic one 16, so a busy machine is not taken for the one and a
 * quadratic is not missed: where it is not yet 10 times, its next step is.
 */
const MOST_GROWTH = 10;
/** CPU time under which a step's growth is not judged, in microseconds: a timer's and a collector's jitter. */
const JITTER_US = 2_000;
/** Each text is read at least this many times, and at most `MOST_READINGS`, until `ENOUGH_US` is spent on it. */
const LEAST_READINGS = 3;
const MOST_READINGS = 5;
const ENOUGH_US = 50_000;

/** One step of the ladder: a text's length and the least CPU time, in microseconds, any reading of it took. */
export interface WorkStep {
  chars: number;
  work: number;
}

/**
 * The CPU time the process spent on `run`, in microseconds: time the machine gave to other work is not counted. (The
 * thread's own, `process.threadCpuUsage`, is counted in whole clock ticks on some kernels: too coarse for a reading of a
 * millisecond.)
 */
function cpuMicros(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const { user, system } = process.cpuUsage(start);
  return user + system;
}

/**
 * The least CPU time of several readings: a reading is only ever slowed by what else happens (a collection, another
 * process on the same core), so the least is the one closest to the reading's own work.
 */
function leastWork(run: () => void): number {
  let least = Infinity;
  let total = 0;
  for (
    let reading = 0;
    reading < MOST_READINGS && (reading < LEAST_READINGS || total < ENOUGH_US);
    reading++
  ) {
    const work = cpuMicros(run);
    least = Math.min(least, work);
    total += work;
  }
  return least;
}

/**
 * The first two steps between which `read` did far more work than its text grew, or null when it kept in step all the
 * way. `make(count)` is the text with its repeated part `count` times; the counts are chosen so that the texts are of
 * `STEP_CHARS`' lengths.
 */
export function findOutgrowingStep(
  make: (count: number) => string,
  read: (text: string) => unknown,
): { before: WorkStep; after: WorkStep } | null {
  const fixed = make(0).length;
  const perCount = Math.max(1, make(1).length - fixed);
  const texts = STEP_CHARS.map((chars) => make(Math.max(1, Math.round((chars - fixed) / perCount))));
  read(texts[0] ?? ''); // once first: a pattern is compiled on its first use, which no step should pay for
  let before: WorkStep | null = null;
  for (const text of texts) {
    const after = { chars: text.length, work: leastWork(() => read(text)) };
    if (before && after.work > MOST_GROWTH * before.work + JITTER_US) return { before, after };
    before = after;
  }
  return null;
}

/** What a person reads when a step outgrew its text. */
export function describeGrowth(growth: { before: WorkStep; after: WorkStep } | null): string {
  if (!growth) return 'in step with the text';
  const { before, after } = growth;
  const ms = (work: number) => `${(work / 1000).toFixed(1)} ms`;
  return (
    `${before.chars} characters took ${ms(before.work)}, ${after.chars} took ${ms(after.work)}: ` +
    `${(after.work / before.work).toFixed(1)} times the work for ${(after.chars / before.chars).toFixed(1)} times the text`
  );
}
