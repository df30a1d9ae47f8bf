import { importPeer } from './install';
import { STEPS, StepClock, TOOL_RESULT, toolArgs } from './workload';

type Ctor<T = object> = new (...args: never[]) => T;

/** The OpenAI Agents SDK for JS, in memory (it keeps no durable state): a scripted Model and one function tool. */
export async function benchOpenAiAgents(
  dir: string,
  runs: number,
  warmUp: number,
): Promise<{ samples: number[] }> {
  const core = await importPeer(dir, '@openai/agents-core');
  const Agent = core.Agent as Ctor;
  const Usage = core.Usage as Ctor;
  const run = core.run as (agent: unknown, input: string, options: unknown) => Promise<unknown>;
  const makeTool = core.tool as (options: unknown) => unknown;
  (core.setTracingDisabled as ((disabled: boolean) => void) | undefined)?.(true);

  const clock = new StepClock();
  let turn = 0;
  const model = {
    async getResponse(): Promise<unknown> {
      clock.tick();
      turn += 1;
      const usage = new Usage();
      if (turn > STEPS) {
        const text = { type: 'output_text', text: 'Done.' };
        return {
          usage,
          output: [{ type: 'message', role: 'assistant', status: 'completed', content: [text] }],
        };
      }
      const call = {
        type: 'function_call',
        callId: `c${turn}`,
        name: 'list_tasks',
        status: 'completed',
        arguments: JSON.stringify(toolArgs(turn)),
      };
      return { usage, output: [call] };
    },
    // eslint-disable-next-line require-yield -- the bench only calls the non-streaming path
    async *getStreamedResponse(): AsyncIterable<unknown> {
      throw new Error('not used');
    },
  };
  const listTasks = makeTool({
    name: 'list_tasks',
    description: "List the user's tasks, optionally filtered by words.",
    parameters: {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
      additionalProperties: false,
    },
    strict: true,
    execute: async () => TOOL_RESULT,
  });
  const agent = new Agent({
    name: 'bench',
    instructions: 'You are a careful assistant.',
    model,
    tools: [listTasks],
  } as never);
  for (let index = 0; index < runs + warmUp; index += 1) {
    turn = 0;
    await run(agent, 'Add the follow-up tasks.', { maxTurns: STEPS + 5 });
    clock.endRun(index >= warmUp);
  }
  return { samples: clock.samples };
}
