import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  countUncommittedEffects,
  duplicateCount,
  findDuplicates,
  findMissingEffects,
  findStuckRuns,
} from './checks';
import { writeChaosAgent } from './chaos-agent';
import { SIDE_EFFECT_TOOLS } from './chaos-model';
import { planCycle, runCycle } from './cycle';
import { startChaosFakes, type ChaosFakes } from './fakes';
import { LedgerHistory, type LostCommit } from './history';
import { readLedger, readReaskedTurns, type LedgerSnapshot, type ReaskedTurn } from './ledger';
import { ChaosUsageError, parseChaosOptions, type ChaosOptions } from './options';
import { createRng, seedFrom } from './prng';
import { countDistinct, formatReport, type ChaosReport } from './report';
import { settle, type SettleOutcome } from './settle';
import { setUpHost } from './setup';

/**
 * `npm run test:chaos`: kills the headless host with SIGKILL at random points while its runs send mail,
 * create events and post to Slack (all against in-process fakes), restarts it, and repeats; then lets a last
 * life finish what it can. It fails on any duplicate side effect, committed action lost, run left neither
 * finished nor waiting for an approval, or model turn asked again after its answer was logged — or when the
 * harness itself could not do its job.
 */

const PROGRESS_EVERY = 10;
const FINAL_IDLE_MS = 10_000;
/** The fakes hold a write for up to 300 ms; let the last ones land before counting. */
const FAKE_SETTLE_MS = 400;

interface Tally {
  cyclesDone: number;
  runIds: Set<string>;
  killTimesMs: number[];
  killsAfterApproval: number;
  approvalsPosted: number;
  approveErrors: string[];
  hostErrors: string[];
  lost: LostCommit[];
}

async function main(): Promise<number> {
  let options: ChaosOptions;
  try {
    options = parseChaosOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof ChaosUsageError)) throw error;
    console.error(error.message);
    return 2;
  }
  const startedAt = performance.now();
  const rng = createRng(seedFrom(options.seed));
  const dataDir = await mkdtemp(join(tmpdir(), 'deputy-chaos-'));
  const token = `chaos-${randomBytes(18).toString('base64url')}`;
  const fakes = await startChaosFakes(createRng(seedFrom(`${options.seed}/latency`)));
  writeChaosAgent(dataDir);
  const env = { ...fakes.env, DEPUTY_DATA_DIR: dataDir, DEPUTY_API_TOKEN: token };
  const history = new LedgerHistory();
  const tally: Tally = {
    cyclesDone: 0,
    runIds: new Set(),
    killTimesMs: [],
    killsAfterApproval: 0,
    approvalsPosted: 0,
    approveErrors: [],
    hostErrors: [],
    lost: [],
  };
  let harnessError: string | null = null;
  let final: SettleOutcome | null = null;
  console.log(`chaos: ${options.cycles} cycles, seed ${options.seed}, data folder ${dataDir}`);

  try {
    const { runMs } = await setUpHost(fakes, env, token);
    // Past the end of a run that started late in the cycle, so some kills land after the last post.
    const windowMs = Math.round(runMs * 1.5) + 150;
    console.log(
      `chaos: calibration run took ${Math.round(runMs)} ms; kills land 0–${windowMs} ms after ready`,
    );
    let nextRun = 1;
    for (let cycle = 1; cycle <= options.cycles; cycle += 1) {
      const plan = planCycle(rng, nextRun, windowMs);
      nextRun += plan.newRuns.length;
      const outcome = await runCycle(plan, env, token);
      tally.cyclesDone = cycle;
      outcome.runIds.forEach((runId) => tally.runIds.add(runId));
      tally.killTimesMs.push(outcome.killedAtMs);
      if (plan.killMode === 'after_approval' && outcome.approvalsPosted > 0) tally.killsAfterApproval += 1;
      tally.approvalsPosted += outcome.approvalsPosted;
      tally.approveErrors.push(...outcome.approveErrors);
      tally.hostErrors.push(...outcome.hostErrors);
      tally.lost.push(...history.observe(readLedger(dataDir, SIDE_EFFECT_TOOLS), cycle));
      fakes.forgetRequests();
      if (cycle % PROGRESS_EVERY === 0 || cycle === options.cycles)
        progress(cycle, options, fakes, dataDir, history, tally);
    }
    const runs = readLedger(dataDir, SIDE_EFFECT_TOOLS).runs.length;
    final = await settle(env, token, dataDir, {
      budgetMs: Math.min(300_000, 60_000 + runs * 200),
      idleMs: FINAL_IDLE_MS,
    });
    tally.approvalsPosted += final.approvalsPosted;
    tally.approveErrors.push(...final.approveErrors);
    tally.hostErrors.push(...final.hostErrors);
  } catch (error) {
    harnessError = error instanceof Error ? error.message : String(error);
  }

  await new Promise((resolve) => setTimeout(resolve, FAKE_SETTLE_MS));
  let snapshot: LedgerSnapshot | null = null;
  let reasked: ReaskedTurn[] = [];
  try {
    snapshot = readLedger(dataDir, SIDE_EFFECT_TOOLS);
    reasked = readReaskedTurns(dataDir);
    tally.lost.push(...history.observe(snapshot, tally.cyclesDone + 1));
  } catch (error) {
    harnessError ??= `reading the final ledger failed: ${(error as Error).message}`;
  }
  const report = buildReport(
    options,
    fakes,
    history,
    tally,
    snapshot,
    reasked,
    final,
    harnessError,
    startedAt,
  );
  await fakes.close();
  const shouldKeep = options.shouldKeepData || !report.ok;
  report.dataDir = shouldKeep ? dataDir : null;
  if (!shouldKeep) await rm(dataDir, { recursive: true, force: true });
  console.log(formatReport(report));
  if (options.reportPath) await writeFile(options.reportPath, `${JSON.stringify(report, null, 2)}\n`);
  return report.ok ? 0 : 1;
}

function buildReport(
  options: ChaosOptions,
  fakes: ChaosFakes,
  history: LedgerHistory,
  tally: Tally,
  snapshot: LedgerSnapshot | null,
  reasked: ReaskedTurn[],
  final: SettleOutcome | null,
  harnessError: string | null,
  startedAt: number,
): ChaosReport {
  const effects = fakes.effects();
  const duplicates = snapshot ? findDuplicates(effects, snapshot, history) : [];
  const lost = [...tally.lost, ...(snapshot ? findMissingEffects(effects, snapshot, history) : [])];
  const stuck = snapshot ? findStuckRuns(snapshot) : [];
  const byStatus: Record<string, number> = {};
  for (const run of snapshot?.runs ?? []) byStatus[run.status] = (byStatus[run.status] ?? 0) + 1;
  const duplicatesFound = duplicateCount(duplicates);
  return {
    ok:
      harnessError === null &&
      duplicatesFound === 0 &&
      lost.length === 0 &&
      stuck.length === 0 &&
      reasked.length === 0,
    seed: options.seed,
    cyclesAsked: options.cycles,
    cyclesDone: tally.cyclesDone,
    elapsedSeconds: (performance.now() - startedAt) / 1000,
    schemaVersion: snapshot?.schemaVersion ?? null,
    runs: { started: snapshot?.runs.length ?? tally.runIds.size, byStatus },
    failures: countDistinct(
      (snapshot?.runs ?? [])
        .filter((run) => run.status === 'failed')
        .map((run) => `${run.errorCode ?? '?'}: ${run.errorMessage ?? ''}`),
    ),
    hostErrors: countDistinct(tally.hostErrors),
    sideEffects: { mail: effects.mail.length, events: effects.events.length, posts: effects.posts.length },
    kills: {
      total: tally.killTimesMs.length,
      afterApproval: tally.killsAfterApproval,
      medianAfterReadyMs: median(tally.killTimesMs),
    },
    approvalsPosted: tally.approvalsPosted,
    approveErrors: tally.approveErrors,
    turnsAskedAgain: fakes.turnsAskedAgain(),
    uncommittedEffects: snapshot ? countUncommittedEffects(effects, snapshot) : 0,
    duplicates: { count: duplicatesFound, details: duplicates },
    lost: { count: lost.length, details: lost },
    stuck: { count: stuck.length, details: stuck },
    reaskedAfterLogged: { count: reasked.length, details: reasked },
    final: final && {
      ending: final.ending,
      seconds: final.elapsedMs / 1000,
      didStopCleanly: final.didStopCleanly,
    },
    harnessError,
    dataDir: null,
  };
}

function progress(
  cycle: number,
  options: ChaosOptions,
  fakes: ChaosFakes,
  dataDir: string,
  history: LedgerHistory,
  tally: Tally,
): void {
  const snapshot = readLedger(dataDir, SIDE_EFFECT_TOOLS);
  const effects = fakes.effects();
  const open = snapshot.runs.filter((run) => run.status !== 'completed' && run.status !== 'failed').length;
  console.log(
    `chaos: cycle ${cycle}/${options.cycles}: ${snapshot.runs.length} runs (${open} unfinished), ` +
      `${effects.mail.length + effects.events.length + effects.posts.length} effects, ` +
      `${duplicateCount(findDuplicates(effects, snapshot, history))} duplicates, ${tally.lost.length} lost`,
  );
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('chaos: the harness crashed:', error);
    process.exit(1);
  },
);
