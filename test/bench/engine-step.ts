import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '../../electron/host/create-host';
import { taskLoopModel } from './durability';
import { summarize } from './stats';

const STEPS_PER_RUN = 10;

/**
 * Engine overhead per tool-loop step: a zero-latency model asks for add_task (a real SQLite write) on every
 * turn; a step is the time from one model request to the next, so it holds the loop, validation, the tool,
 * the ledger writes and the event log, and no model latency at all.
 */
export async function benchEngineStep(totalSteps: number): Promise<ReturnType<typeof summarize>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'deputy-bench-'));
  const requestTimes: bigint[] = [];
  const samples: number[] = [];
  const model = taskLoopModel(STEPS_PER_RUN, requestTimes);

  const host = await createHost({
    dataDir,
    // The step limit keeps two grace turns before the final-warning turn, so a 10-step run needs 13.
    env: { GEMINI_API_KEY: 'bench', AGENT_MAX_LOOP_STEPS: String(STEPS_PER_RUN + 3) },
    modelClient: () => model,
  });
  // Measure the loop with the policy deciding `allow`, so every step runs its tool instead of pausing.
  await host.invoke('settings.set', { trustLevel: 'autonomous', rateLimits: { actionsPerMinute: 10_000 } });
  const runs = Math.ceil(totalSteps / STEPS_PER_RUN);
  for (let run = 0; run < runs + 2; run += 1) {
    requestTimes.length = 0;
    await host.runToEnd({ prompt: `Bench run ${run}` });
    // The first two runs warm up the JIT and SQLite's page cache; they are not counted.
    if (run < 2) continue;
    for (let index = 1; index < requestTimes.length; index += 1) {
      const current = requestTimes[index];
      const previous = requestTimes[index - 1];
      if (current !== undefined && previous !== undefined) samples.push(Number(current - previous) / 1e6);
    }
  }
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
  return summarize(samples);
}
