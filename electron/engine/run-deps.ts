import type { Approval, RunEvent } from '../../shared/contract';
import type { ModelClient } from '../llm/model-client';
import type { PolicyDecision } from '../policy/types';
import type { Store } from '../store/store';
import type { ArgsCheck, ToolRegistry } from '../tools/registry';
import type { RunFailure } from './model-failure';

export type CheckedCall = Extract<ArgsCheck, { ok: true }>;

export interface RunLoopDeps {
  store: Store;
  registry: ToolRegistry;
  /** Null when no model is configured: the run fails with a message that says how to configure one. */
  model: ModelClient | null;
  /** Persists (all but text deltas) and publishes one run event. */
  emit: (event: RunEvent) => void;
  now: () => Date;
  newId: () => string;
  /** Where unexpected tool failures are reported (the model only hears that the tool failed). */
  logError: (message: string, error: unknown) => void;
  /** The policy's answer for a checked call, under the user's settings at this moment. */
  decide: (call: CheckedCall) => PolicyDecision;
  /** A refusal when the model-token budget is used up, checked before every model call. */
  checkModelBudget: () => RunFailure | null;
  approvalLifetimeMs: () => number;
  /** Told whenever an approval is created or leaves `pending`. */
  onApprovalsChanged: (changed: Approval | null) => void;
}

export interface RunSpec {
  runId: string;
  threadId: string;
  model: string;
  maxSteps: number;
  signal: AbortSignal;
}
