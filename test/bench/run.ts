import { benchAuditQueries } from './audit-query';
import { benchContextSearch, printContextFigures } from './context-search';
import { benchDeltaLatency } from './delta-latency';
import { benchCheckpointBytes, benchDurability, LIST_TASKS } from './durability';
import { benchEngineStep } from './engine-step';
import { benchEventLoop } from './event-loop';
import { benchLargeStore } from './large-store';
import { printRatios, readPeerResult } from './peers/result';
import { benchPlanningOverhead } from './planning';
import { benchRefusedRuns } from './refused-runs';
import { benchFirstResponse, benchResume } from './start-up';
import { ms, percentile } from './stats';

/** `npm run bench`: prints the figures the issues ask for. Not a test: figures vary with the machine. */
async function main(): Promise<void> {
  console.log(`Deputy bench — node ${process.version}, ${process.platform}/${process.arch}`);

  const reads = await benchEngineStep(2_000, LIST_TASKS);
  console.log(
    `durable step, one read-only tool per turn (the peer workload): median ${ms(reads.median)}, p95 ${ms(reads.p95)} ` +
      `(p95 ÷ median ${(reads.p95 / reads.median).toFixed(2)}, goal ≤ 2.00), ` +
      `p99 ${ms(
        percentile(
          [...reads.samples].sort((a, b) => a - b),
          99,
        ),
      )}, max ${ms(reads.max)} over ${reads.n} steps; ` +
      `${Math.round(reads.bytesPerRun)} bytes per 10-step run`,
  );
  // The peers are not dependencies: their figures come from the last `npm run bench:peers` on this machine.
  const peers = readPeerResult();
  if (peers) {
    console.log(
      `against the peers measured by npm run bench:peers at ${peers.measuredAt} ` +
        `(${Object.entries(peers.versions)
          .map(([name, version]) => `${name} ${version}`)
          .join(', ')}), with this run's Deputy figures:`,
    );
    printRatios(peers, { step: reads, bytesPerRun: reads.bytesPerRun });
    console.log(
      '  (bench:peers itself measures all three in one process: its own ratios are the ones to quote)',
    );
  } else {
    console.log(
      'no peer figures: run `npm run bench:peers` (it installs LangGraph JS and the OpenAI Agents SDK) for the ratios',
    );
  }

  const loop = await benchEventLoop(20);
  console.log(
    `main-process event-loop delay, ${loop.runs} streaming runs + audit pages every 20 ms + a connected WebSocket client: ` +
      `p50 ${ms(loop.p50)}, p99 ${ms(loop.p99)} (goal ≤ 10 ms), max ${ms(loop.max)}`,
  );
  const start = await benchFirstResponse();
  console.log(
    `headless host, createHost to its first HTTP answer: ${ms(start.firstResponseMs)} (goal ≤ 1 s)`,
  );
  const resume = await benchResume(100);
  console.log(
    `${resume.runs} unfinished runs at start, createHost until all are resumed and finished: ${ms(resume.resumeMs)} (goal ≤ 2 s)`,
  );

  const steps = await benchEngineStep(2_000);
  console.log(
    `engine overhead per tool-loop step, add_task (a write: started before, committed after): ` +
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
      `ratio ${(steps200.bytes / steps200.finalStateBytes).toFixed(2)}× (goal ≤ 2×)`,
  );
  const reads200 = await benchCheckpointBytes(200, LIST_TASKS);
  console.log(
    `checkpoints of a 200-step read-only run: ${reads200.checkpoints} checkpoints (${reads200.snapshots} snapshots), ` +
      `${reads200.bytes} bytes; final state ${reads200.finalStateBytes} bytes; ` +
      `ratio ${(reads200.bytes / reads200.finalStateBytes).toFixed(2)}× (goal ≤ 2×)`,
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
  for (const [name, figures] of Object.entries(audit.logs))
    console.log(`  ${name}: p95 ${ms(figures.p95)}, median ${ms(figures.median)}, max ${ms(figures.max)}`);

  const large = await benchLargeStore(auditEntries, 1_000);
  const [newBefore, newAfter] = large.newStoreMedians;
  console.log(
    `durable step (the peer workload) on a store already holding ${large.entries.toLocaleString('en')} audit entries ` +
      `(seeded in ${(large.seedMs / 1000).toFixed(1)} s): median ${ms(large.step.median)}, p95 ${ms(large.step.p95)}; ` +
      `÷ the mean of a new store's medians just before and after it (${ms(newBefore)}, ${ms(newAfter)}): ` +
      `${large.ratioToNewStore.toFixed(2)}×; the background batches on the main thread (about 55 new entries ` +
      `between two): filing up to 20 held entries median ${ms(large.fileBatch.median)}, p95 ${ms(large.fileBatch.p95)}, ` +
      `max ${ms(large.fileBatch.max)}; indexing what was filed median ${ms(large.indexBatch.median)}, ` +
      `p95 ${ms(large.indexBatch.p95)}, max ${ms(large.indexBatch.max)} (each within the 10 ms event-loop budget)`,
  );

  const deltas = await benchDeltaLatency(20);
  console.log(
    `delta latency, fake Gemini chunk → WebSocket client: ` +
      `median ${ms(deltas.median)}, p95 ${ms(deltas.p95)}, max ${ms(deltas.max)} over ${deltas.n} deltas (target p95 ≤ 5 ms)`,
  );

  printContextFigures(await benchContextSearch(50_000, 50_000));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
