import { benchAuditQueries } from './audit-query';
import { benchContextSearch } from './context-search';
import { benchDeltaLatency } from './delta-latency';
import { benchCheckpointBytes, benchDurability } from './durability';
import { benchEngineStep } from './engine-step';
import { benchPlanningOverhead } from './planning';
import { benchRefusedRuns } from './refused-runs';
import { ms } from './stats';

/** `npm run bench`: prints the figures the issues ask for. Not a test: figures vary with the machine. */
async function main(): Promise<void> {
  console.log(`Deputy bench — node ${process.version}, ${process.platform}/${process.arch}`);

  const steps = await benchEngineStep(2_000);
  console.log(
    `engine overhead per tool-loop step (zero-latency model, SQLite writes included): ` +
      `median ${ms(steps.median)}, p95 ${ms(steps.p95)}, max ${ms(steps.max)} over ${steps.n} steps (target median ≤ 1 ms)`,
  );

  const planning = await benchPlanningOverhead(50);
  console.log(
    `planning overhead per run (3 look-ups, zero-latency model): median ${ms(planning.withPlanMs)} with a plan vs ` +
      `${ms(planning.withoutPlanMs)} without (+${ms(planning.withPlanMs - planning.withoutPlanMs)}, one extra model turn ` +
      `included); bytes sent to the model ${Math.round(planning.withPlanModelBytes)} vs ${Math.round(planning.withoutPlanModelBytes)} ` +
      `(+${Math.round(planning.withPlanModelBytes - planning.withoutPlanModelBytes)}); plan events ${Math.round(planning.planEventBytes)} bytes ` +
      `over ${planning.runs} runs each`,
  );

  const durability = await benchDurability(1_000);
  console.log(
    `per-step overhead, durability on (checkpoints) vs off: median ${ms(durability.on.median)} vs ${ms(durability.off.median)} ` +
      `(ratio ${(durability.on.median / durability.off.median).toFixed(2)}), p95 ${ms(durability.on.p95)} vs ${ms(durability.off.p95)} ` +
      `over ${durability.on.n} + ${durability.off.n} steps`,
  );

  const steps200 = await benchCheckpointBytes(200);
  console.log(
    `checkpoints of a 200-step run: ${steps200.checkpoints} checkpoints (${steps200.snapshots} snapshots), ` +
      `${steps200.bytes} bytes = ${Math.round(steps200.bytes / 200)} bytes/step; final state ${steps200.finalStateBytes} bytes; ` +
      `ratio ${(steps200.bytes / steps200.finalStateBytes).toFixed(2)}× (target ≤ 3×)`,
  );

  const refused = await benchRefusedRuns(200);
  console.log(
    `200 refused requests (model-token budget used up): database grew ${refused.bytes} bytes = ` +
      `${Math.round(refused.bytesPerRun)} bytes per refusal (target < 2 KB); WAL ${refused.walBytes} bytes before ` +
      `folding in; ${Math.round(refused.elapsedMs)} ms`,
  );

  const auditEntries = Number(process.env.DEPUTY_BENCH_AUDIT_ENTRIES ?? 1_000_000);
  const audit = benchAuditQueries(auditEntries, 200);
  console.log(
    `audit trail, ${audit.entries.toLocaleString('en')} entries (seeded in ${(audit.seedMs / 1000).toFixed(1)} s): ` +
      `filtered page of 50 p95 ${ms(audit.page.p95)} (median ${ms(audit.page.median)}, max ${ms(audit.page.max)}, target p95 ≤ 20 ms); ` +
      `full-text query p95 ${ms(audit.search.p95)} (median ${ms(audit.search.median)}, max ${ms(audit.search.max)}, target p95 ≤ 50 ms)`,
  );
  for (const [name, figures] of Object.entries(audit.pageByFilter))
    console.log(
      `  filter ${name}: p95 ${ms(figures.p95)}, median ${ms(figures.median)}, max ${ms(figures.max)}`,
    );

  const deltas = await benchDeltaLatency(20);
  console.log(
    `delta latency, fake Gemini chunk → WebSocket client: ` +
      `median ${ms(deltas.median)}, p95 ${ms(deltas.p95)}, max ${ms(deltas.max)} over ${deltas.n} deltas (target p95 ≤ 5 ms)`,
  );

  const context = await benchContextSearch(50_000, 50_000);
  console.log(
    `hybrid search over ${context.memories} memories (FTS5 + vectors) and ${context.contacts} contacts (FTS5), ` +
      `query embedding given: median ${ms(context.search.median)}, p95 ${ms(context.search.p95)}, max ${ms(context.search.max)} ` +
      `over ${context.search.n} searches (target p95 ≤ 10 ms)`,
  );
  const step = (figures: typeof context.loadSteps): string =>
    `median ${ms(figures.median)}, p95 ${ms(figures.p95)}, max ${ms(figures.max)} over ${figures.n} steps`;
  console.log(
    `building the index, per step: loading ${context.memories} vectors ${step(context.loadSteps)}; ` +
      `merging ${context.contacts} contacts ${step(context.mergeSteps)} (target max ≤ 10 ms)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
