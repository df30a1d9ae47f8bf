import { z } from 'zod';
import type { ModelStreamEvent } from '../../electron/llm/model-client';
import type { Tool } from '../../electron/tools/tool';
import type { Host } from '../../electron/host/create-host';
import type { Plan, RunEvent } from '../../shared/contract';
import { syntheticMailTools } from './synthetic-tools';

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

/** One model turn with several calls (ids must differ). */
export function calls(
  ...list: [name: string, args: Record<string, unknown>, callId: string][]
): ModelStreamEvent[] {
  return [
    ...list.map(([name, args, callId]): ModelStreamEvent => ({ type: 'function_call', callId, name, args })),
    { type: 'finish', finishReason: 'STOP', usage },
  ];
}

/** The tools of the plan tests: the synthetic mail pair, a lookup, and a fetch that fails as often as told. */
export function planTools(sent: { to: string[]; body: string }[], failures: { fetch: number }): Tool[] {
  const lookup: Tool<{ q: string }> = {
    name: 'lookup',
    description: 'Look something up.',
    input: z.object({ q: z.string() }).strict(),
    output: z.object({ answer: z.string() }),
    category: 'query',
    risk: 'low',
    hasSideEffects: false,
    execute: (input) => ({ answer: `found ${input.q}` }),
  };
  const fetchThing: Tool<{ q: string }> = {
    name: 'fetch_thing',
    description: 'Fetch something; may fail.',
    input: z.object({ q: z.string() }).strict(),
    output: z.object({ answer: z.string() }),
    category: 'query',
    risk: 'low',
    hasSideEffects: false,
    execute: (input) => {
      if (failures.fetch > 0) {
        failures.fetch -= 1;
        throw new Error('the service is down');
      }
      return { answer: `fetched ${input.q}` };
    },
  };
  return [...syntheticMailTools(sent), lookup, fetchThing];
}

/** A plan over planTools: look the budget up, then mail Alice what was found (the send asks first). */
export const MAIL_PLAN = {
  goal: 'Tell Alice what the lookup found',
  steps: [
    { id: 'find', title: 'Look it up', tool: 'lookup', args: { q: 'budget' } },
    {
      id: 'send',
      title: 'Mail Alice',
      tool: 'send_message',
      args: { to: ['alice@example.com'], body: '${find}' },
      dependsOn: ['find'],
    },
  ],
};

/** The plan of a run, from the events it streamed. */
export function planOf(host: Host, events: readonly RunEvent[]): Promise<Plan> {
  const made = events.find(
    (event): event is Extract<RunEvent, { type: 'plan' }> => event.type === 'plan' && !!event.plan,
  );
  if (!made?.plan) throw new Error('the run made no plan');
  return host.invoke('plan.get', { planId: made.plan.id }).then((out) => out.plan);
}

export const stepStatus = (plan: Plan): Record<string, string> =>
  Object.fromEntries(plan.steps.map((step) => [step.id, step.status]));
