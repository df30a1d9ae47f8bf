import { z } from 'zod';
import type { ToolDeclaration } from '../llm/model-client';
import type { CallPart } from './run-state';

export const COMPLETE_TASK = 'complete_task';

/** The Keep-Up completion input (§5.1): what a task agent hands back when it is done. */
export const DefaultTaskOutput = z.object({
  summary: z.string().min(1).describe('The final answer or summary of what was done.'),
  artifacts: z.array(z.string()).optional().describe('What was created, if anything.'),
  nextSteps: z.string().optional().describe('What the person may want to do next.'),
});

/**
 * A task agent's way out: `complete_task` is its only valid ending, alone in its turn, with output that passes
 * the agent's schema. Chat runs have no contract (their final text is the answer).
 */
export interface CompletionContract {
  output: z.ZodType<Record<string, unknown>>;
  /** What the agent is for, in the tool description the model reads. */
  description?: string;
  /** The JSON Schema the model reads, when `output` checks one (an agent's outputConfig) rather than being it. */
  parameters?: Record<string, unknown>;
  /** The run's summary from its output (an agent's processOutput); else the output's `summary`. */
  summarize?: (output: Record<string, unknown>) => string;
}

export function completeTaskDeclaration(contract: CompletionContract): ToolDeclaration {
  const parameters =
    contract.parameters ??
    (z.toJSONSchema(contract.output, {
      target: 'draft-2020-12',
      io: 'input',
      unrepresentable: 'any',
    }) as Record<string, unknown>);
  delete parameters.$schema;
  return {
    name: COMPLETE_TASK,
    description: `Finish the task and hand back its result. Call it alone, as the only call of its turn, once the work is done.${
      contract.description ? ` The task: ${contract.description}` : ''
    }`,
    parameters,
  };
}

export type CompletionCheck =
  | { kind: 'none' }
  | { kind: 'complete'; output: Record<string, unknown> }
  | { kind: 'violation'; message: string };

/** Reads a turn's calls against the contract: no `complete_task`, a valid completion, or a violation to report. */
export function checkCompletion(contract: CompletionContract, calls: readonly CallPart[]): CompletionCheck {
  const completions = calls.filter((call) => call.name === COMPLETE_TASK);
  if (completions.length === 0) return { kind: 'none' };
  if (calls.length > 1) {
    return {
      kind: 'violation',
      message: `${COMPLETE_TASK} must be the only call of its turn; nothing from this turn was run. Finish the other work first, then call ${COMPLETE_TASK} alone.`,
    };
  }
  const parsed = contract.output.safeParse(completions[0]?.args ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || '(output)'}: ${issue.message}`)
      .join('; ');
    return {
      kind: 'violation',
      message: `The output of ${COMPLETE_TASK} does not fit the required schema (${issues}). Call it again with output that fits.`,
    };
  }
  return { kind: 'complete', output: parsed.data };
}
