import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '../../electron/host/create-host';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../electron/llm/model-client';
import type { RunEvent } from '../../shared/contract';
import { planTools } from '../support/plan-kit';
import { summarize } from './stats';

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
const LOOKUPS = ['a', 'b', 'c'];
const PLAN = {
  goal: 'three look-ups',
  steps: LOOKUPS.map((q, i) => ({
    id: q,
    title: `Look up ${q}`,
    tool: 'lookup',
    args: { q },
    dependsOn: i > 0 ? [LOOKUPS[i - 1]] : [],
  })),
};

/** A zero-latency model that plays the same three look-ups, with or without proposing a plan first. */
function model(withPlan: boolean, sentBytes: { value: number }): ModelClient {
  return {
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      sentBytes.value +=
        Buffer.byteLength(JSON.stringify(request.messages)) +
        Buffer.byteLength(JSON.stringify(request.tools));
      const results = request.messages
        .flatMap((m) => m.parts)
        .filter((part) => part.kind === 'result').length;
      const turns: ModelStreamEvent[][] = [
        ...(withPlan
          ? [[{ type: 'function_call', callId: 'propose', name: 'propose_plan', args: PLAN } as const]]
          : []),
        ...LOOKUPS.map((q) => [
          { type: 'function_call', callId: `l-${q}`, name: 'lookup', args: { q } } as const,
        ]),
      ];
      const turn = turns[results];
      if (turn) yield* turn;
      else yield { type: 'text', text: 'Done.' };
      yield { type: 'finish', finishReason: 'STOP', usage };
    },
  };
}

export interface PlanningOverhead {
  runs: number;
  /** Median wall time of a whole run (four or five model turns, SQLite writes included). */
  withPlanMs: number;
  withoutPlanMs: number;
  /** Bytes sent to the model per run (messages and tool declarations), and bytes of `plan` events. */
  withPlanModelBytes: number;
  withoutPlanModelBytes: number;
  planEventBytes: number;
}

async function measure(withPlan: boolean, runs: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'deputy-bench-plans-'));
  const sent = { value: 0 };
  const host = await createHost({
    dataDir,
    env: { GEMINI_API_KEY: 'bench' },
    modelClient: () => model(withPlan, sent),
    extraTools: planTools([], { fetch: 0 }),
    logError: () => undefined,
    sleep: () => Promise.resolve(),
    random: () => 0.5,
  });
  await host.invoke('settings.set', { trustLevel: 'autonomous' });
  const times: number[] = [];
  let planEventBytes = 0;
  try {
    for (let index = 0; index < runs; index += 1) {
      const started = performance.now();
      await host.runToEnd({ prompt: 'Look up a, then b, then c' }, (event: RunEvent) => {
        if (event.type === 'plan') planEventBytes += Buffer.byteLength(JSON.stringify(event));
      });
      times.push(performance.now() - started);
    }
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return {
    median: summarize(times).median,
    modelBytes: sent.value / runs,
    planEventBytes: planEventBytes / runs,
  };
}

/** The planner's cost per run: the same three look-ups with and without proposing a plan first. */
export async function benchPlanningOverhead(runs: number): Promise<PlanningOverhead> {
  // Both once first, so neither pays for warming up the JIT and the SQLite page cache.
  await measure(false, 10);
  await measure(true, 10);
  const without = await measure(false, runs);
  const withPlan = await measure(true, runs);
  return {
    runs,
    withPlanMs: withPlan.median,
    withoutPlanMs: without.median,
    withPlanModelBytes: withPlan.modelBytes,
    withoutPlanModelBytes: without.modelBytes,
    planEventBytes: withPlan.planEventBytes,
  };
}
