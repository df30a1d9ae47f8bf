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
