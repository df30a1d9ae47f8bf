import Database from 'better-sqlite3';

/**
 * `npx tsx test/bench/sql-profile.ts`: where a durable step's SQLite time goes, statement by statement, on the
 * peer workload (a zero-latency model, one read-only tool per turn). Every statement's run/get/all is timed
 * while 1,000 steps run; the table lists µs per step, calls per step and µs per call, slowest first.
 */
type Timed = { run: unknown; get: unknown; all: unknown };
const statementProto = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Timed;
const byStatement = new Map<string, { calls: number; ms: number }>();
let isTiming = false;
for (const method of ['run', 'get', 'all'] as const) {
  const original = statementProto[method] as (...args: unknown[]) => unknown;
  statementProto[method] = function timed(this: { source: string }, ...args: unknown[]): unknown {
    if (!isTiming) return original.apply(this, args);
    const began = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      const entry = byStatement.get(this.source) ?? { calls: 0, ms: 0 };
      entry.calls += 1;
      entry.ms += performance.now() - began;
      byStatement.set(this.source, entry);
    }
  };
}

const { benchEngineStep } = await import('./engine-step');
const { LIST_TASKS } = await import('./durability');
await benchEngineStep(300, LIST_TASKS);
isTiming = true;
const figures = await benchEngineStep(1_000, LIST_TASKS);
isTiming = false;
// The samples are the steps between model requests; each run also has its first request and its ending.
const steps = figures.n;
const total = [...byStatement.values()].reduce((sum, entry) => sum + entry.ms, 0);
console.log(
  `SQLite ${((total * 1000) / steps).toFixed(0)} µs per step over ${steps} steps (step median ${figures.median.toFixed(3)} ms)`,
);
for (const [sql, entry] of [...byStatement].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25)) {
  const perStep = ((entry.ms * 1000) / steps).toFixed(1).padStart(7);
  const callsPerStep = (entry.calls / steps).toFixed(2).padStart(6);
  const perCall = ((entry.ms * 1000) / entry.calls).toFixed(1).padStart(8);
  console.log(
    `${perStep} µs/step ${callsPerStep} calls/step ${perCall} µs/call  ${sql.replace(/\s+/g, ' ').slice(0, 90)}`,
  );
}
