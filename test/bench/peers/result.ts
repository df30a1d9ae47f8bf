import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ms, type summarize } from '../stats';

type Figures = ReturnType<typeof summarize>;

/** Where `npm run bench:peers` leaves its last result, for `npm run bench` to compare against offline. */
export const PEER_RESULT_FILE = join(process.cwd(), '.bench-peers', 'last-result.json');

export interface PeerResult {
  measuredAt: string;
  node: string;
  versions: Record<string, string>;
  stepsPerRun: number;
  deputy: { step: Figures; bytesPerRun: number };
  langgraph: { step: Figures; bytesPerRun: number };
  openaiAgents: { step: Figures };
}

/** The last peer result, or null when `npm run bench:peers` has not run on this machine. */
export function readPeerResult(): PeerResult | null {
  if (!existsSync(PEER_RESULT_FILE)) return null;
  try {
    return JSON.parse(readFileSync(PEER_RESULT_FILE, 'utf8')) as PeerResult;
  } catch {
    return null;
  }
}

const times = (value: number): string => `${value.toFixed(2)}×`;

/** Prints the issue's step and storage ratios of `deputy` against the peers' figures in `peers`. */
export function printRatios(peers: PeerResult, deputy: { step: Figures; bytesPerRun: number }): void {
  const { langgraph, openaiAgents } = peers;
  console.log(
    `step median: Deputy ${ms(deputy.step.median)} (p95 ${ms(deputy.step.p95)}), ` +
      `LangGraph+SqliteSaver ${ms(langgraph.step.median)} (p95 ${ms(langgraph.step.p95)}), ` +
      `OpenAI Agents in memory ${ms(openaiAgents.step.median)} (p95 ${ms(openaiAgents.step.p95)})`,
  );
  console.log(
    `  Deputy step ÷ OpenAI Agents step: ${times(deputy.step.median / openaiAgents.step.median)} (goal ≤ 1.00×); ` +
      `LangGraph step ÷ Deputy step: ${times(langgraph.step.median / deputy.step.median)} (goal ≥ 3.00×)`,
  );
  console.log(
    `bytes per ${peers.stepsPerRun}-step run: Deputy ${Math.round(deputy.bytesPerRun)}, LangGraph ${Math.round(langgraph.bytesPerRun)}; ` +
      `Deputy ÷ LangGraph ${(deputy.bytesPerRun / langgraph.bytesPerRun).toFixed(3)} (goal ≤ 0.100)`,
  );
}
