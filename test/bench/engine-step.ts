import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, DATABASE_FILE, VAULT_KEY_FILE } from '../../electron/host/create-host';
import { openDatabase } from '../../electron/store/database';
import { createKeyFileCipher } from '../../electron/vault/cipher';
import { Vault } from '../../electron/vault/vault';
import type { Store } from '../../electron/store/store';
import { ADD_TASK, taskLoopModel, type BenchCall } from './durability';
import { summarize } from './stats';

const STEPS_PER_RUN = 10;
const WARM_UP_RUNS = 2;

export interface EngineStepFigures extends ReturnType<typeof summarize> {
  samples: number[];
  /** What the database (its write-ahead log folded in) grew by per counted run. */
  bytesPerRun: number;
}

/**
 * Engine overhead per tool-loop step: a zero-latency model asks for `call` on every turn (10 turns, then it
 * answers); a step is the time from one model request to the next, so it holds the loop, validation, the tool,
 * the ledger, the audit entry, the journal and the checkpoint, and no model latency at all.
 */
export async function benchEngineStep(
  totalSteps: number,
  call: BenchCall = ADD_TASK,
  warmUpRuns = WARM_UP_RUNS,
  hooks: {
    /** Once the warm-up runs are done, before the counted ones: for a bench that wants history in the store. */
    beforeCounting?: (store: Store) => void;
    /** After each counted run, between runs, so no step's time includes it. */
    afterCountedRun?: (store: Store) => void;
  } = {},
): Promise<EngineStepFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'deputy-bench-'));
  const requestTimes: bigint[] = [];
  const samples: number[] = [];
  const model = taskLoopModel(STEPS_PER_RUN, requestTimes, call);

  keepGeminiKeyInVault(dataDir);
  const host = await createHost({
    dataDir,
    // The step limit keeps two grace turns before the final-warning turn, so a 10-step run needs 13.
    env: { AGENT_MAX_LOOP_STEPS: String(STEPS_PER_RUN + 3) },
    modelClient: () => model,
  });
  const store = host.internalsForTests().store;
  // Measure the loop with the policy deciding `allow`, so every step runs its tool instead of pausing.
  await host.invoke('settings.set', { trustLevel: 'autonomous', rateLimits: { actionsPerMinute: 10_000 } });
  const runs = Math.ceil(totalSteps / STEPS_PER_RUN);
  let bytesBefore = 0;
  for (let run = 0; run < runs + warmUpRuns; run += 1) {
    if (run === warmUpRuns) {
      hooks.beforeCounting?.(store);
      bytesBefore = databaseBytes(store);
    }
    requestTimes.length = 0;
    await host.runToEnd({ prompt: `Bench run ${run}` });
    // The first runs warm up the JIT and SQLite's page cache; they are not counted.
    if (run < warmUpRuns) continue;
    hooks.afterCountedRun?.(store);
    for (let index = 1; index < requestTimes.length; index += 1) {
      const current = requestTimes[index];
      const previous = requestTimes[index - 1];
      if (current !== undefined && previous !== undefined) samples.push(Number(current - previous) / 1e6);
    }
  }
  const bytesPerRun = (databaseBytes(store) - bytesBefore) / runs;
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { ...summarize(samples), samples, bytesPerRun };
}

/**
 * The Gemini key where the app keeps it once the person has pasted it in Settings: in the vault, sealed, and read
 * (to know one is set) on every step. Given through the environment instead, as before, the bench skipped that.
 */
function keepGeminiKeyInVault(dataDir: string): void {
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  try {
    new Vault(db, createKeyFileCipher(join(dataDir, VAULT_KEY_FILE))).set('gemini.apiKey', BENCH_GEMINI_KEY);
  } finally {
    db.close();
  }
}
const BENCH_GEMINI_KEY = 'AIzaSyBenchKeyNeverSentAnywhere000000000';

function databaseBytes(store: Store): number {
  // The audit entries' viewer indexes are written after the fact: counted here as if they were already.
  store.auditSearch.catchUpAll();
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  return store.data.sizes().databaseBytes;
}
