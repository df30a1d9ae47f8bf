import type { z } from 'zod';
import type { ActionKind, AlwaysAllowScope, ApprovalPreview } from '../../shared/contract';

export type ToolCategory = 'query' | 'compute' | 'draft' | 'create' | 'update' | 'delete' | 'external';
export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';
/** An outside account a tool needs; when it is not connected the tool says so and the run goes on. */
export type Integration = 'google' | 'slack';

export interface ToolContext {
  runId: string;
  threadId: string;
  actionId: string;
  /**
   * Derived from the run, the call and the fingerprint of its arguments: the same call always has the same
   * key. A side effect carries it (a Message-ID, a private event property, Slack metadata) so it can be found
   * again and is never made twice.
   */
  idempotencyKey: string;
  /**
   * Aborted when the run is cancelled or the call passes the registry's time limit: a tool passes it to its
   * requests and checks it before a side effect, so a stopped call never goes on to act.
   */
  signal: AbortSignal;
  now: () => Date;
}

/** One tool: what the model sees (name, description, schema) and what the policy needs (category, risk, side effects). */
export interface Tool<Input = unknown, Output extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  description: string;
  input: z.ZodType<Input>;
  /** The shape of what `execute` returns, published with the tool and checked in its tests. */
  output: z.ZodType<Output>;
  category: ToolCategory;
  risk: RiskLevel;
  hasSideEffects: boolean;
  /** The account the tool needs connected. */
  requires?: Integration;
  /** The autonomy setting that governs this tool's side effect. */
  actionKind?: ActionKind;
  /** Whether a call reaches an outside service (counted against the external-call rate limit). */
  isExternal?: boolean;
  /** Every address a call would reach, for allow-lists, rules and first contact. */
  recipients?(input: Input): string[];
  /** What a person sees before approving: a title, labelled fields, a body, a before/after. */
  preview?(input: Input): ApprovalPreview;
  /** The scoped rules "always allow" may create for this call (a recipient, a domain, a channel). */
  alwaysAllowScopes?(input: Input): AlwaysAllowScope[];
  execute(input: Input, context: ToolContext): Promise<Output> | Output;
  /**
   * After a crash, a side effect may have happened without its result being recorded. This finds the effect
   * this very call (its `context.idempotencyKey`) already made and returns the output `execute` would return
   * for it now, or null when there is no trace of it, so the engine commits what was done or asks the user
   * instead of sending again. It only looks: it must never create, change or send anything.
   */
  reconcile?(input: Input, context: ToolContext): Promise<Output | null>;
}

/** A tool's expected failure: it goes back to the model as the call's result, it does not end the run. */
export class ToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/**
 * Throws when the call has been stopped (the run was cancelled or the call ran out of time). A tool whose
 * client cannot take an AbortSignal calls this right before its side effect: a call the registry already gave
 * up on must not go on to act, or a retry with the same key could act a second time.
 */
export function assertNotStopped(signal: AbortSignal, what: string): void {
  if (signal.aborted)
    throw new ToolError('cancelled', `Stopped before ${what}: the call was cancelled or ran out of time.`);
}
