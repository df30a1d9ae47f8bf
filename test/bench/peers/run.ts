import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { benchEngineStep } from '../engine-step';
import { LIST_TASKS } from '../durability';
import { summarize } from '../stats';
import { installPeers, versionOf } from './install';
import { benchLangGraph } from './langgraph';
import { benchOpenAiAgents } from './openai-agents';
import { PEER_RESULT_FILE, printRatios, type PeerResult } from './result';
import { STEPS } from './workload';

const RUNS = Number(process.env.DEPUTY_BENCH_PEER_RUNS ?? 40);
/** Short rounds, many of them, each engine first in turn: a slow minute of a shared machine falls on all three. */
const ROUNDS = 5;
const WARM_UP = 5;
const SCRATCH = process.env.DEPUTY_BENCH_PEERS_DIR ?? join(process.cwd(), '.bench-peers');

/**
 * `npm run bench:peers`: the same workload in Deputy, LangGraph JS with SqliteSaver and the OpenAI Agents SDK,
 * in one process, in short interleaved rounds (see ROUNDS).
 * The peers are installed into a scratch folder; the figures and versions go to a file `npm run bench` reads.
 */
async function main(): Promise<void> {
  installPeers(SCRATCH, process.argv.includes('--fresh'));
  const versions = {
    '@langchain/langgraph': versionOf(SCRATCH, '@langchain/langgraph'),
    '@langchain/langgraph-checkpoint-sqlite': versionOf(SCRATCH, '@langchain/langgraph-checkpoint-sqlite'),
    '@langchain/core': versionOf(SCRATCH, '@langchain/core'),
    '@openai/agents-core': versionOf(SCRATCH, '@openai/agents-core'),
  };
  console.log(
    `peer bench — node ${process.version}; ${STEPS} read-only tool steps per run, ${ROUNDS} rounds of ${RUNS} runs`,
  );
  console.log(
    `measured: ${Object.entries(versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}`,
  );

  const dataDir = mkdtempSync(join(tmpdir(), 'deputy-peers-'));
  const samples = { deputy: [] as number[], langgraph: [] as number[], openai: [] as number[] };
  const bytes = { deputy: [] as number[], langgraph: [] as number[] };
  // Each round's medians: the engines of one round ran minutes apart at most, so their ratio leaves out the
  // machine's slow and fast phases, which the pooled samples mix.
  const roundMedians = { deputy: [] as number[], langgraph: [] as number[], openai: [] as number[] };
  const engines: (() => Promise<void>)[] = [
    async () => {
      // The same warm-up as the peers get.
      const deputy = await benchEngineStep(RUNS * STEPS, LIST_TASKS, WARM_UP);
      samples.deputy.push(...deputy.samples);
      roundMedians.deputy.push(deputy.median);
      bytes.deputy.push(deputy.bytesPerRun);
    },
    async () => {
      const roundDir = mkdtempSync(join(dataDir, 'langgraph-'));
      const langgraph = await benchLangGraph(SCRATCH, roundDir, RUNS, WARM_UP);
      samples.langgraph.push(...langgraph.samples);
      roundMedians.langgraph.push(summarize(langgraph.samples).median);
      bytes.langgraph.push(langgraph.bytesPerRun);
    },
    async () => {
      const openai = await benchOpenAiAgents(SCRATCH, RUNS, WARM_UP);
      samples.openai.push(...openai.samples);
      roundMedians.openai.push(summarize(openai.samples).median);
    },
  ];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let turn = 0; turn < engines.length; turn += 1) await engines[(round + turn) % engines.length]?.();
  }
  rmSync(dataDir, { recursive: true, force: true });

  const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
  const result: PeerResult = {
    measuredAt: new Date().toISOString(),
    node: process.version,
    versions,
    stepsPerRun: STEPS,
    deputy: { step: summarize(samples.deputy), bytesPerRun: mean(bytes.deputy) },
    langgraph: { step: summarize(samples.langgraph), bytesPerRun: mean(bytes.langgraph) },
    openaiAgents: { step: summarize(samples.openai) },
  };
  mkdirSync(dirname(PEER_RESULT_FILE), { recursive: true });
  writeFileSync(PEER_RESULT_FILE, `${JSON.stringify(result, null, 2)}\n`);
  printRatios(result, result.deputy);
  const perRound = (ratio: (round: number) => number): string => {
    const ratios = Array.from({ length: ROUNDS }, (_, round) => ratio(round));
    return `${ratios.map((value) => value.toFixed(2)).join(', ')} (median ${summarize(ratios).median.toFixed(2)}×)`;
  };
  const { deputy, langgraph, openai } = roundMedians;
  console.log(
    `  round by round: Deputy ÷ OpenAI Agents ${perRound((round) => (deputy[round] ?? NaN) / (openai[round] ?? NaN))}; ` +
      `LangGraph ÷ Deputy ${perRound((round) => (langgraph[round] ?? NaN) / (deputy[round] ?? NaN))}`,
  );
  console.log(`written to ${PEER_RESULT_FILE}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
