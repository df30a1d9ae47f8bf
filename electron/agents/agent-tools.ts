import { z } from 'zod';
import { quoteId } from '../../shared/contract';
import { ToolError, type Tool, type ToolContext } from '../tools/tool';
import type { AgentCatalog } from './catalog';
import { inputParameters, inputSchema } from './agent-inputs';
import type { AgentDefinition } from './definition';

export const DELEGATE_TO_AGENT = 'delegate_to_agent';

/** How a parent's call reaches a child run: the agent, its inputs, and the call's context (run, key, signal). */
export type StartChild = (
  agent: string,
  inputs: Record<string, unknown>,
  context: ToolContext,
) => Promise<Record<string, unknown>>;

/** An agent's own limits end it (time, turns, approval expiry); the call only must not hang forever. */
const AGENT_CALL_LIMIT_MS = 24 * 60 * 60_000;

const ChildResult = z.record(z.string(), z.unknown());

/** The agent as a tool named after it, with its inputConfig as parameters (spec 001 §1). */
export function agentTool(
  definition: AgentDefinition,
  startChild: StartChild,
): Tool<Record<string, unknown>> {
  return {
    name: definition.name,
    description: `${definition.description.trim()} It is an agent: it works on its own with its own tools and returns its ${definition.outputConfig.outputName}.`,
    input: inputSchema(definition),
    parameters: inputParameters(definition),
    output: ChildResult,
    category: 'compute',
    risk: 'low',
    // The child's own calls go through the policy one by one; starting it changes nothing by itself.
    hasSideEffects: false,
    agent: definition.name,
    callTimeoutMs: AGENT_CALL_LIMIT_MS,
    execute: (input, context) => startChild(definition.name, input, context),
  };
}

/** How many agent names the model is told of when it names one that is not there (the rest are counted). */
const MAX_CHOICES = 20;

/** An agent the model named that is not there (a typo, or turned off), with the ones it may use instead. */
export function unknownAgent(name: string, choices: readonly string[]): ToolError {
  const shown = choices.slice(0, MAX_CHOICES).join(', ');
  const more = choices.length > MAX_CHOICES ? ` (and ${choices.length - MAX_CHOICES} more)` : '';
  const instead =
    choices.length === 0
      ? 'There are no agents you can hand work to: do this yourself.'
      : `The agents you can hand work to: ${shown}${more}.`;
  return new ToolError(
    'unknown_agent',
    `There is no agent named ${quoteId(name)} that is turned on. ${instead}`,
  );
}

const DelegateInput = z.strictObject({
  agent: z.string().min(1).max(100),
  task: z.string().trim().min(1).max(20_000),
  inputs: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Keep-Up §5.4's generic form: name the agent and the task. The task fills the agent's first required text input
 * unless `inputs` give them all.
 */
export function delegateTool(
  catalog: AgentCatalog,
  startChild: StartChild,
  choices: (context: ToolContext) => string[],
): Tool<z.infer<typeof DelegateInput>> {
  return {
    name: DELEGATE_TO_AGENT,
    description:
      'Hand a task to one of the agents (each is also offered as its own tool). Give the agent name and the task in full.',
    input: DelegateInput,
    output: ChildResult,
    category: 'compute',
    risk: 'low',
    hasSideEffects: false,
    agent: DELEGATE_TO_AGENT,
    callTimeoutMs: AGENT_CALL_LIMIT_MS,
    execute: (input, context) => {
      const loaded = catalog.usable(input.agent);
      if (!loaded) throw unknownAgent(input.agent, choices(context));
      const inputs = { ...input.inputs };
      const [first] = Object.entries(loaded.definition.inputConfig.inputs).filter(
        ([name, spec]) => spec.required && spec.type === 'string' && inputs[name] === undefined,
      );
      if (first) inputs[first[0]] = input.task;
      return startChild(input.agent, inputs, context);
    },
  };
}
