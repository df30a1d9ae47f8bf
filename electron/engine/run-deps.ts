import type { Approval, ExecutionPolicy, RoutingPolicy, RunEvent } from '../../shared/contract';
import type { ModelClient } from '../llm/model-client';
import type { PolicyDecision, Reach, RunProvenance } from '../policy/types';
import type { Store } from '../store/store';
import type { ArgsCheck, ToolRegistry } from '../tools/registry';
import type { CompletionContract } from './completion';
import type { IntentCheck } from './intent-statement';
import type { CheckpointSink } from './journal';
import type { RunFailure } from './model-failure';
import type { GenerationConfig } from '../llm/model-client';
import type { RunSop } from './sop';

export type CheckedCall = Extract<ArgsCheck, { ok: true }>;

/** What the policy learns about a call besides its arguments: whom it reaches, and where the run's words came from. */
export interface CallFacts {
  reach: Reach;
  provenance: RunProvenance;
}

export interface RunLoopDeps {
  store: Store;
  registry: ToolRegistry;
  /** Null when no model is configured: the run fails with a message that says how to configure one. */
  model: ModelClient | null;
  /** Persists (all but text deltas) and publishes one run event. */
  emit: (event: RunEvent) => void;
  /** Where the run's state is kept after every tool result and turn boundary. */
  checkpoints: CheckpointSink;
  now: () => Date;
  newId: () => string;
  /** Waits between retries; rejects when the run is cancelled. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** [0, 1): the jitter of retry backoff. */
  random: () => number;
  /** Where unexpected tool failures are reported (the model only hears that the tool failed). */
  logError: (message: string, error: unknown) => void;
  /** The policy's answer for a checked call, under the user's settings at this moment. */
  decide: (call: CheckedCall, facts: CallFacts) => PolicyDecision;
  /** A refusal when the model-token budget is used up, checked before every model call. */
  checkModelBudget: () => RunFailure | null;
  approvalLifetimeMs: () => number;
  /** Told whenever an approval is created or leaves `pending`. */
  onApprovalsChanged: (changed: Approval | null) => void;
  /** An entity of the model's intent analysis that cannot be resolved (two Sarahs): the question to ask instead. */
  checkIntent?: IntentCheck;
  /** True while the person has paused all side effects: an approved call not yet run is then not run. */
  areSideEffectsPaused?: () => boolean;
}

export interface RunSpec {
  runId: string;
  threadId: string;
  /** Who runs: 'deputy' for chat runs, the agent definition's id for task agents. */
  agentId: string;
  /** A task agent's name as the person reads it (its display name), for the words that name it. */
  agentName?: string;
  /** The model the user chose; routing may pick a sibling per turn. */
  model: string;
  maxSteps: number;
  /** The last turns before `maxSteps` that are kept for the final-warning turn. */
  graceTurns: number;
  /** Active time after which the run gets its final-warning turn. */
  timeLimitMs: number;
  execution: { policy: ExecutionPolicy; maxParallel: number };
  routingPolicy: RoutingPolicy;
  /** Task agents end only through `complete_task` with output that passes their schema; chat runs end with text. */
  completion: CompletionContract | null;
  /** Pass the model's thought summaries on as `thinking` events (the person's setting, off by default). */
  showThinking?: boolean;
  signal: AbortSignal;
  /** The tools this run may see and call (an agent's grant); absent: every tool of the registry. */
  tools?: ReadonlySet<string>;
  /** The agent's role SOP: phases that gate its tools. */
  sop?: RunSop | null;
  /** The agent's modelConfig: temperature, top_p, thinking budget. */
  generation?: GenerationConfig;
  /** The agents from the top-level agent down to this one, shown with its approvals ("researcher → reviewer"). */
  lineage?: readonly string[];
}
