import type { z } from 'zod';

export type ToolCategory = 'query' | 'compute' | 'draft' | 'create' | 'update' | 'delete' | 'external';
export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';

export interface ToolContext {
  runId: string;
  threadId: string;
  actionId: string;
  signal: AbortSignal;
  now: () => Date;
}

/** One tool: what the model sees (name, description, schema) and what the policy needs (category, risk, side effects). */
export interface Tool<Input = unknown, Output extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  description: string;
  input: z.ZodType<Input>;
  category: ToolCategory;
  risk: RiskLevel;
  hasSideEffects: boolean;
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
