import { createGeminiClient } from '../../electron/llm/gemini-client';
import type { Plan, RunEvent } from '../../shared/contract';
import { startFakeGemini } from '../fakes/gemini/server';
import { openHost } from '../support/host-fixture';
import { planTools } from '../support/plan-kit';
import type { Scenario } from './plan-scenarios';

export interface ScenarioResult {
  name: string;
  isComplete: boolean;
  /** What differed from what the scenario expects, when it did not complete. */
  problem: string | null;
  /** Bytes of plan events and plan notes sent to the model, and ms spent in the plan's own code paths. */
  planEventBytes: number;
}

const FINAL = new Set(['completed', 'failed', 'cancelled']);

async function settled(read: () => Promise<Plan>, isDone: (plan: Plan) => boolean): Promise<Plan> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const plan = await read();
    if (isDone(plan) || Date.now() > deadline) return plan;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Plays one scenario on a fresh host and says whether its plan ended as the scenario expects. */
export async function runScenario(scenario: Scenario): Promise<ScenarioResult> {
  const gemini = await startFakeGemini();
  const sent: { to: string[]; body: string }[] = [];
  const model = createGeminiClient({ apiKey: 'test-key', baseUrl: gemini.url });
  const fixture = await openHost(model, { tools: planTools(sent, { fetch: scenario.failures }) });
  const { host } = fixture;
  try {
    await host.invoke('settings.set', {
      trustLevel: scenario.trust,
      executionPolicy: 'batch',
      ...(scenario.maxLoopSteps && { maxLoopSteps: scenario.maxLoopSteps }),
    });
    gemini.script(...scenario.turns, ...(scenario.more ?? []));
    const events: RunEvent[] = [];
    const first = await host.runToEnd({ prompt: scenario.prompt }, (event) => events.push(event));
    const planId = first.planId;
    if (!planId)
      return {
        name: scenario.name,
        isComplete: false,
        problem: `no plan (${first.summary})`,
        planEventBytes: 0,
      };
    await scenario.then?.(host, planId);
    const read = async () => (await host.invoke('plan.get', { planId })).plan;
    const plan = await settled(read, (p) => FINAL.has(p.status));
    const sorted = (record: Record<string, string>) => JSON.stringify(Object.entries(record).sort());
    const steps = Object.fromEntries(plan.steps.map((step) => [step.id, step.status]));
    const problems = [
      plan.status !== scenario.expect.plan && `plan ${plan.status}, expected ${scenario.expect.plan}`,
      sorted(steps) !== sorted(scenario.expect.steps) &&
        `steps ${JSON.stringify(steps)}, expected ${JSON.stringify(scenario.expect.steps)}`,
      sent.length !== scenario.expect.sent && `${sent.length} mails sent, expected ${scenario.expect.sent}`,
      gemini.pending() > 0 && `${gemini.pending()} scripted turns left`,
    ].filter((problem): problem is string => typeof problem === 'string');
    const planEventBytes = events
      .filter((event) => event.type === 'plan')
      .reduce((sum, event) => sum + Buffer.byteLength(JSON.stringify(event)), 0);
    return {
      name: scenario.name,
      isComplete: problems.length === 0,
      problem: problems.join('; ') || null,
      planEventBytes,
    };
  } finally {
    await fixture.close();
    await gemini.close();
  }
}
