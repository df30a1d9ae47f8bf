import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointSink } from '../../electron/engine/journal';
import { driveRun } from '../../electron/engine/run-loop';
import { initialState } from '../../electron/engine/run-state';
import { createHost, type Host } from '../../electron/host/create-host';
import type { HostInternals } from '../../electron/host/host';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../electron/llm/model-client';
import { summarize } from './stats';

const NO_CHECKPOINTS: CheckpointSink = { save: () => {} };

/** The call the scripted model makes on its `turn`-th turn. */
export type BenchCall = (turn: number) => { name: string; args: Record<string, unknown> };

/** A write: add_task, a real SQLite insert with a ledger `started` before it and `committed` after. */
export const ADD_TASK: BenchCall = (turn) => ({
  name: 'add_task',
  args: {
    description: `Task ${turn}: follow up on the quarterly numbers with the finance team`,
    intent: 'add a task',
    confidence: 0.95,
  },
});

/** A read: list_tasks, the workload (one read-only tool per turn). */
export const LIST_TASKS: BenchCall = (turn) => ({ name: 'list_tasks', args: { query: `quarterly ${turn}` } });

/**
 * A zero-latency model that asks for add_task on every turn (`steps` of them), then answers. The time between
 * two model requests is one step: the loop, validation, the tool's SQLite write, the ledger, the log and (when
 * durable) the checkpoints.
 */
export function taskLoopModel(
  steps: number,
  requestTimes: bigint[],
  call: BenchCall = ADD_TASK,
): ModelClient {
  let turn = 0;
  return {
    async *stream(_request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      requestTimes.push(process.hrtime.bigint());
      turn += 1;
      if (turn > steps) {
        turn = 0;
        yield { type: 'text', text: 'Done.' };
      } else {
        yield { type: 'function_call', callId: `c${turn}`, ...call(turn) };
      }
      yield {
        type: 'finish',
        finishReason: 'STOP',
        usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      };
    },
  };
}

async function openBenchHost(
  model: ModelClient,
): Promise<{ host: Host; internals: HostInternals; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'deputy-bench-'));
  const host = await createHost({ dataDir, env: { GEMINI_API_KEY: 'bench' }, modelClient: () => model });
  await host.invoke('settings.set', {
    trustLevel: 'autonomous',
    rateLimits: { actionsPerMinute: 10_000, modelTokensPerHour: 100_000_000 },
  });
  return { host, internals: host.internalsForTests(), dataDir };
}

/**
 * Drives one run of `steps` tool calls straight through the engine (the host's own wiring, reached beneath the
 * contract: the product never turns checkpoints off), with the checkpoint sink given.
 */
async function benchRun(
  internals: HostInternals,
  steps: number,
  sink: CheckpointSink | null,
): Promise<{ runId: string; finalStateBytes: number }> {
  const store = internals.store;
  const now = new Date().toISOString();
  const run = { id: randomUUID(), threadId: randomUUID(), model: 'gemini-2.5-flash' };
  store.transaction(() => {
    store.threads.create(run.threadId, 'bench', now);
    store.runs.create({ id: run.id, threadId: run.threadId, model: run.model, prompt: 'bench' }, now);
  });
  const deps = internals.runDeps();
  const spec = { ...internals.specFor(run, new AbortController().signal), maxSteps: steps + 3 };
  const state = initialState('You are Deputy, a careful assistant. '.repeat(20), [
    { role: 'user', parts: [{ kind: 'text', text: 'Add the follow-up tasks.' }] },
  ]);
  await driveRun(sink ? { ...deps, checkpoints: sink } : deps, spec, state);
  return { runId: run.id, finalStateBytes: Buffer.byteLength(JSON.stringify(state)) };
}

/**
 * Per-step overhead with durability on (checkpoints after every tool result and turn boundary) and off (no
 * checkpoints; the ledger rows are written either way), interleaved run by run so both see the same machine.
 */
export async function benchDurability(
  totalSteps: number,
): Promise<{ on: ReturnType<typeof summarize>; off: ReturnType<typeof summarize> }> {
  const stepsPerRun = 10;
  const times: bigint[] = [];
  const { host, internals, dataDir } = await openBenchHost(taskLoopModel(stepsPerRun, times));
  const samples = { on: [] as number[], off: [] as number[] };
  const runs = Math.ceil(totalSteps / stepsPerRun);
  for (let index = 0; index < 2 * (runs + 2); index += 1) {
    const durable = index % 2 === 0;
    times.length = 0;
    await benchRun(internals, stepsPerRun, durable ? null : NO_CHECKPOINTS);
    if (index < 4) continue; // warm-up
    for (let step = 1; step < times.length; step += 1) {
      const current = times[step];
      const previous = times[step - 1];
      if (current !== undefined && previous !== undefined)
        (durable ? samples.on : samples.off).push(Number(current - previous) / 1e6);
    }
  }
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { on: summarize(samples.on), off: summarize(samples.off) };
}

/** The checkpoint bytes a 200-step run writes, against the size of its final state. */
export async function benchCheckpointBytes(
  steps: number,
  call: BenchCall = ADD_TASK,
): Promise<{
  checkpoints: number;
  snapshots: number;
  bytes: number;
  finalStateBytes: number;
}> {
  const { host, internals, dataDir } = await openBenchHost(taskLoopModel(steps, [], call));
  const { runId, finalStateBytes } = await benchRun(internals, steps, null);
  const stats = internals.store.checkpoints.stats(runId);
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { checkpoints: stats.count, snapshots: stats.snapshots, bytes: stats.bytes, finalStateBytes };
}
