import type { Host } from '../../electron/host/create-host';
import type { PlanStatus } from '../../shared/contract';
import { callsReply, textReply } from '../fakes/gemini/script';
import type { FakeStep } from '../fakes/gemini/types';

/**
 * Scripted multi-step scenarios for the planner, played through the real Gemini client against the fake
 * Gemini server. Each says what its plan must end as: completed, or failed with exactly the steps skipped that
 * the plan says a failure skips. Some inject tool failures (fetch_thing fails as often as told).
 */
export interface Scenario {
  name: string;
  prompt: string;
  trust: 'autonomous' | 'supervised';
  /** How often fetch_thing fails before it works. */
  failures: number;
  /** The run's turn limit when the default (8) is too few for the plan's length. */
  maxLoopSteps?: number;
  turns: FakeStep[];
  /** What the person does after the first run stops (approve the plan, answer, cancel). */
  then?: (host: Host, planId: string) => Promise<void>;
  /** Turns of the run that goes on after the person's answer. */
  more?: FakeStep[];
  expect: { plan: PlanStatus; steps: Record<string, string>; sent: number };
}

type Step = {
  id: string;
  title: string;
  tool?: string;
  args?: Record<string, unknown>;
  dependsOn?: string[];
  ask?: string;
  maxAttempts?: number;
};
const turn = (...calls: [string, Record<string, unknown>, string][]): FakeStep =>
  callsReply(calls.map(([name, args, id]) => ({ name, args, id })));
const propose = (goal: string, steps: Step[]): FakeStep => turn(['propose_plan', { goal, steps }, 'propose']);
const done = (text = 'Done.'): FakeStep => textReply(text);
const lookup = (id: string, deps: string[] = []): Step => ({
  id,
  title: `Look up ${id}`,
  tool: 'lookup',
  args: { q: id },
  dependsOn: deps,
});
const doneSteps = (ids: string[]): Record<string, string> =>
  Object.fromEntries(ids.map((id) => [id, 'done']));

function chain(n: number): Scenario {
  const ids = Array.from({ length: n }, (_, i) => `s${i + 1}`);
  return {
    name: `a chain of ${n} look-ups`,
    prompt: `Look up ${ids.join(', ')} in order`,
    trust: 'autonomous',
    failures: 0,
    // Each step is a turn here, plus the proposal, the answer and the two turns kept for the final warning.
    ...(n + 4 > 8 && { maxLoopSteps: n + 4 }),
    turns: [
      propose(
        `chain of ${n}`,
        ids.map((id, i) => lookup(id, i > 0 ? [ids[i - 1] as string] : [])),
      ),
      ...ids.map((id) => turn(['lookup', { q: id }, `c-${id}`])),
      done(),
    ],
    expect: { plan: 'completed', steps: doneSteps(ids), sent: 0 },
  };
}

function fanIn(k: number): Scenario {
  const ids = Array.from({ length: k }, (_, i) => `p${i + 1}`);
  return {
    name: `${k} look-ups in parallel, then a reasoning step`,
    prompt: `Look up ${ids.join(', ')} and put them together`,
    trust: 'autonomous',
    failures: 0,
    turns: [
      propose(`fan-in of ${k}`, [
        ...ids.map((id) => lookup(id)),
        { id: 'sum', title: 'Put them together', dependsOn: ids },
      ]),
      turn(...ids.map((id): [string, Record<string, unknown>, string] => ['lookup', { q: id }, `c-${id}`])),
      turn(['update_plan', { steps: [{ id: 'sum', status: 'done', result: 'all found' }] }, 'u-sum']),
      done(),
    ],
    expect: { plan: 'completed', steps: doneSteps([...ids, 'sum']), sent: 0 },
  };
}

function retried(failures: number): Scenario {
  const attempts = Array.from({ length: failures + 1 }, (_, i) => turn(['fetch_thing', { q: 'x' }, `f${i}`]));
  return {
    name: `fetch fails ${failures}× and is retried as the plan allows`,
    prompt: 'Fetch x, then look it up',
    trust: 'autonomous',
    failures,
    turns: [
      propose('retry', [
        { id: 'fetch', title: 'Fetch x', tool: 'fetch_thing', args: { q: 'x' }, maxAttempts: failures + 1 },
        lookup('use', ['fetch']),
      ]),
      ...attempts,
      turn(['lookup', { q: 'use' }, 'c-use']),
      done(),
    ],
    expect: { plan: 'completed', steps: doneSteps(['fetch', 'use']), sent: 0 },
  };
}

function skippedAfterFailure(dependents: number): Scenario {
  const ids = Array.from({ length: dependents }, (_, i) => `d${i + 1}`);
  return {
    name: `fetch fails for good: its ${dependents} dependent step(s) are skipped, the independent one runs`,
    prompt: 'Fetch x, use it, and look up y anyway',
    trust: 'autonomous',
    failures: 10,
    turns: [
      propose('skip', [
        { id: 'fetch', title: 'Fetch x', tool: 'fetch_thing', args: { q: 'x' } },
        ...ids.map((id, i) => lookup(id, [i === 0 ? 'fetch' : (ids[i - 1] as string)])),
        lookup('y'),
      ]),
      turn(['fetch_thing', { q: 'x' }, 'f0'], ['lookup', { q: 'y' }, 'c-y']),
      done('x could not be fetched; y was found.'),
    ],
    expect: {
      plan: 'failed',
      steps: { fetch: 'failed', y: 'done', ...Object.fromEntries(ids.map((id) => [id, 'skipped'])) },
      sent: 0,
    },
  };
}

function mailUnderPlanApproval(to: string): Scenario {
  return {
    name: `mail ${to} after a look-up, under the plan's approval`,
    prompt: `Look up the budget and mail ${to} what you find`,
    trust: 'supervised',
    failures: 0,
    turns: [
      propose('mail', [
        lookup('budget'),
        {
          id: 'send',
          title: `Mail ${to}`,
          tool: 'send_message',
          args: { to: [to], body: '${budget}' },
          dependsOn: ['budget'],
        },
      ]),
      turn(['lookup', { q: 'budget' }, 'c-budget']),
      turn(['send_message', { to: [to], body: 'found budget', confidence: 0.95 }, 'c-send']),
      done('Sent.'),
    ],
    then: async (host, planId) => {
      await host.invoke('plan.approve', { planId });
    },
    expect: { plan: 'completed', steps: doneSteps(['budget', 'send']), sent: 1 },
  };
}

const askAndAnswer: Scenario = {
  name: 'a question step: the plan pauses, the person answers, a new run finishes it',
  prompt: 'Find two options for lunch, ask me which, then look it up',
  trust: 'autonomous',
  failures: 0,
  turns: [
    propose('ask', [
      lookup('options'),
      { id: 'pick', title: 'Ask which', ask: 'Which one?', dependsOn: ['options'] },
      lookup('chosen', ['pick']),
    ]),
    turn(['lookup', { q: 'options' }, 'c-options']),
    turn(['request_clarification', { question: 'Pizza or sushi?' }, 'q']),
  ],
  then: async (host, planId) => {
    await host.invoke('plan.continue', { planId, answer: 'Sushi' });
  },
  more: [turn(['lookup', { q: 'chosen' }, 'c-chosen']), done('Sushi it is.')],
  expect: { plan: 'completed', steps: doneSteps(['options', 'pick', 'chosen']), sent: 0 },
};

const cancelWhileWaiting: Scenario = {
  name: 'cancelled while a mail waits for approval: nothing is sent',
  prompt: 'Look up the budget and mail ann@example.com',
  trust: 'supervised',
  failures: 0,
  turns: [
    propose('cancel', [
      lookup('budget'),
      {
        id: 'send',
        title: 'Mail Ann',
        tool: 'send_message',
        args: { to: ['ann@example.com'], body: 'x' },
        dependsOn: ['budget'],
      },
    ]),
    turn(['lookup', { q: 'budget' }, 'c-budget']),
    turn(['send_message', { to: ['ann@example.com'], body: 'x', confidence: 0.95 }, 'c-send']),
  ],
  then: async (host, planId) => {
    await host.invoke('plan.cancel', { planId });
  },
  expect: { plan: 'cancelled', steps: { budget: 'done', send: 'failed' }, sent: 0 },
};

const addedStep: Scenario = {
  name: 'the model adds a step with update_plan when it learns it needs one',
  prompt: 'Look up a, and whatever it points to',
  trust: 'autonomous',
  failures: 0,
  turns: [
    propose('grow', [lookup('a'), { id: 'think', title: 'See what a points to', dependsOn: ['a'] }]),
    turn(['lookup', { q: 'a' }, 'c-a']),
    turn([
      'update_plan',
      {
        steps: [
          { id: 'think', status: 'done', result: 'a points to b' },
          { id: 'b', title: 'Look up b', tool: 'lookup', args: { q: 'b' }, dependsOn: ['think'] },
        ],
      },
      'u1',
    ]),
    turn(['lookup', { q: 'b' }, 'c-b']),
    done(),
  ],
  expect: { plan: 'completed', steps: doneSteps(['a', 'think', 'b']), sent: 0 },
};

const skippedByModel: Scenario = {
  name: 'the model skips a step it no longer needs',
  prompt: 'Look up a, and b if a is not enough',
  trust: 'autonomous',
  failures: 0,
  turns: [
    propose('skip one', [lookup('a'), lookup('b', ['a'])]),
    turn(['lookup', { q: 'a' }, 'c-a']),
    turn(['update_plan', { steps: [{ id: 'b', status: 'skipped' }] }, 'u1']),
    done('a was enough.'),
  ],
  expect: { plan: 'completed', steps: { a: 'done', b: 'skipped' }, sent: 0 },
};

export const SCENARIOS: readonly Scenario[] = [
  chain(2),
  chain(3),
  chain(4),
  chain(5),
  chain(6),
  fanIn(2),
  fanIn(3),
  fanIn(4),
  retried(1),
  retried(2),
  skippedAfterFailure(1),
  skippedAfterFailure(2),
  skippedAfterFailure(3),
  mailUnderPlanApproval('alice@example.com'),
  mailUnderPlanApproval('bob@example.com'),
  mailUnderPlanApproval('carol@example.com'),
  askAndAnswer,
  cancelWhileWaiting,
  addedStep,
  skippedByModel,
  { ...fanIn(5), name: '5 look-ups in parallel, then a reasoning step' },
  { ...retried(1), name: 'a retried fetch in a longer plan', turns: retried(1).turns },
];
