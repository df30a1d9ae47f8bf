import type { RunningHost } from '../e2e/support/host';
import { apiOf, putSettings } from '../e2e/support/api';
import { callReply, textReply } from '../fakes/gemini/script';
import type { FakeGemini, FakeStep } from '../fakes/gemini/types';
import type { ThreadDetail } from '../../shared/contract';

const STATED = { confidence: 0.95, intent: 'add task', reasoning: 'asked', assumptions: [] };
const ACTIVE = new Set(['queued', 'planning', 'executing']);

/** What a turn of the conversation is: a question and how Deputy went about its answer. */
type TurnKind = 'answer' | 'look' | 'approved' | 'rejected' | 'plan';

/** Ten turns as a month of use has them: mostly answers, some looking things up, some asking first, a plan. */
const CYCLE: readonly TurnKind[] = [
  'answer',
  'look',
  'approved',
  'answer',
  'rejected',
  'answer',
  'look',
  'approved',
  'answer',
  'plan',
];

const answer = (turn: number) =>
  `Answer number ${turn}. You have **three** things:\n\n- buy milk\n- call Sam about item ${turn}\n` +
  `- send the report\n\n| when | what |\n|---|---|\n| 9:00 | stand-up |\n| 14:00 | review |\n\nAnything else?`;

function scriptOf(kind: TurnKind, turn: number): FakeStep[] {
  const add = { description: `Buy milk ${turn}`, ...STATED };
  const said = textReply(answer(turn));
  switch (kind) {
    case 'answer':
      return [said];
    case 'look':
      return [callReply('list_tasks', {}), said];
    case 'approved':
    case 'rejected':
      return [callReply('add_task', add), said];
    case 'plan':
      return [
        callReply('propose_plan', {
          goal: `Tidy my tasks ${turn}`,
          steps: [
            { id: 'list', title: 'Look at my tasks', tool: 'list_tasks', args: {} },
            {
              id: 'add',
              title: `Add “Buy milk ${turn}”`,
              tool: 'add_task',
              args: { description: `Buy milk ${turn}` },
              dependsOn: ['list'],
            },
          ],
        }),
        callReply('list_tasks', {}),
        callReply('add_task', add),
        said,
      ];
  }
}

/**
 * Grows a conversation of `turns` turns over a running host's HTTP API, as a person would over months: questions
 * answered, tasks looked up, calls approved and rejected from their cards, plans approved. Every run is a real
 * run of the host on the fake Gemini, so what `thread.get` reads is what a real conversation stores. Answers
 * the thread's id.
 */
export async function seedRunThread(host: RunningHost, gemini: FakeGemini, turns: number): Promise<string> {
  const api = apiOf(host);
  const json = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const response = await api(path, init);
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  };
  const settled = async (threadId: string): Promise<ThreadDetail> => {
    for (;;) {
      const detail = await json<ThreadDetail>(`/api/threads/${threadId}`);
      if (!detail.runs.some((run) => ACTIVE.has(run.status))) return detail;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  // Months of turns are asked here in seconds: the rate limits would stop them, not a person's pace.
  await putSettings(host, {
    rateLimits: { actionsPerMinute: 10_000, externalCallsPerHour: 100_000, modelTokensPerHour: 100_000_000 },
  });
  let threadId: string | undefined;
  for (let turn = 0; turn < turns; turn += 1) {
    const kind = CYCLE[turn % CYCLE.length] ?? 'answer';
    gemini.script(...scriptOf(kind, turn));
    const started = await json<{ threadId: string }>('/api/agent/run', {
      method: 'POST',
      body: JSON.stringify({
        prompt: `Question number ${turn}: what is on my list for day ${turn}?`,
        ...(threadId !== undefined && { threadId }),
      }),
    });
    threadId = started.threadId;
    let detail = await settled(threadId);
    const waiting = detail.approvals?.find((approval) => approval.status === 'pending');
    if (kind === 'plan') {
      const plan = detail.plans?.at(-1);
      if (!plan) throw new Error(`turn ${turn}: no plan was proposed`);
      await json(`/api/plans/${plan.id}/approve`, { method: 'POST' });
    } else if (waiting) {
      const decision = kind === 'rejected' ? 'reject' : 'approve';
      await json(`/api/actions/${waiting.id}/${decision}`, {
        method: 'POST',
        body: JSON.stringify(kind === 'rejected' ? { reason: 'Not this one.' } : {}),
      });
    }
    detail = await settled(threadId);
    const last = detail.runs.at(-1);
    if (gemini.pending() !== 0 || last?.status !== 'completed')
      throw new Error(`turn ${turn} (${kind}) ended ${last?.status} with ${gemini.pending()} replies unused`);
  }
  if (threadId === undefined) throw new Error('no turns were asked for');
  return threadId;
}
