import { seedAuditTrail } from './audit-query';
import { LIST_TASKS } from './durability';
import { benchEngineStep, type EngineStepFigures } from './engine-step';
import { summarize } from './stats';

/** Entries the app's background indexing takes per batch (electron/store/audit-search-index.ts). */
const INDEX_BATCH = 200;
/** Held entries the app's background filing takes per batch, ten times a second (the same file). */
const FILE_BATCH = 20;
/** Counted runs between two timed batches: about 55 new entries wait for each. */
const RUNS_PER_BATCH = 5;

export interface LargeStoreBench {
  entries: number;
  seedMs: number;
  step: EngineStepFigures;
  /**
   * The same step on a new store, measured just before and just after: the ratio to their mean leaves out the
   * machine's drift over the minutes the seeding takes, which a figure from the start of the bench does not.
   */
  newStoreMedians: [before: number, after: number];
  /** The large store's step median ÷ the mean of `newStoreMedians`. */
  ratioToNewStore: number;
  /** The background batch that files entries a step held (migration 21), on the main thread ten times a second. */
  fileBatch: ReturnType<typeof summarize>;
  /** The background batch that indexes new audit entries for search, on the main thread once a second. */
  indexBatch: ReturnType<typeof summarize>;
}

/**
 * The peer workload's durable step on a store that already holds `entries` audit entries (a year of heavy use
 * at a million), and the background indexing batch on it: what a step and the main thread cost once the
 * history outgrows SQLite's page cache, where a plan that walks a table shows and a new store hides it. The
 * batch is run and timed between runs, rather than left to when the app's timer happens to fire.
 */
export async function benchLargeStore(entries: number, steps: number): Promise<LargeStoreBench> {
  let seedMs = 0;
  let runs = 0;
  const filings: number[] = [];
  const batches: number[] = [];
  const before = await benchEngineStep(steps, LIST_TASKS);
  const step = await benchEngineStep(steps, LIST_TASKS, undefined, {
    beforeCounting: (store) => {
      const began = performance.now();
      seedAuditTrail(store, entries);
      store.auditSearch.catchUpAll();
      seedMs = performance.now() - began;
    },
    afterCountedRun: (store) => {
      runs += 1;
      if (runs % RUNS_PER_BATCH !== 0) return;
      const began = performance.now();
      store.auditInbox.file(FILE_BATCH);
      const filed = performance.now();
      store.auditSearch.catchUp(INDEX_BATCH);
      filings.push(filed - began);
      batches.push(performance.now() - filed);
    },
  });
  const after = await benchEngineStep(steps, LIST_TASKS);
  return {
    entries,
    seedMs,
    step,
    newStoreMedians: [before.median, after.median],
    ratioToNewStore: step.median / ((before.median + after.median) / 2),
    fileBatch: summarize(filings),
    indexBatch: summarize(batches),
  };
}
