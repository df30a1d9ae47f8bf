import type { RunEvent, RunResponse } from '../../shared/contract';
import type { AgentCatalog } from '../agents/catalog';
import type { RunLoopDeps, RunSpec } from '../engine/run-deps';
import type { Store } from '../store/store';
import type { ToolRegistry } from '../tools/registry';
import type { ChildStop } from './agent-children';

/** What the agents domain needs from the host: the store, the catalog, and the runs' own machinery. */
export interface AgentsDeskDeps {
  store: Store;
  registry: ToolRegistry;
  catalog: AgentCatalog;
  /** Delegation depth allowed below a chat run (Keep-Up §5.4: 3 at most; it may be set lower). */
  maxDepth: number;
  now: () => Date;
  newId: () => string;
  defaultModel: () => string;
  runDeps: () => RunLoopDeps;
  /** The chat spec of a run under the settings of this moment; an agent's spec starts from it. */
  baseSpec: (run: { id: string; threadId: string; model: string }, signal: AbortSignal) => RunSpec;
  /** Deputy's own instruction (rules, the person, the time) for a prompt; an agent's persona goes before it. */
  baseInstruction: (prompt: string) => string;
  /** Starts the run's work; a child run holds no slot of the cap. */
  track: (
    run: { id: string; threadId: string },
    work: (signal: AbortSignal) => Promise<RunResponse>,
  ) => Promise<RunResponse>;
  isActive: (runId: string) => boolean;
  /** Throws `too_many` when the line of runs waiting to start is full. */
  checkRoomInLine: () => void;
  cancel: (runId: string, why: ChildStop) => boolean;
  subscribe: (runId: string, listener: (event: RunEvent) => void) => () => void;
  emit: (event: RunEvent) => void;
}
