import { afterEach, describe, expect, it } from 'vitest';
import type { ModelStreamEvent } from '../../electron/llm/model-client';
import type { IntentAnalysis } from '../../shared/contract';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { connectGoogle, googleEnv } from '../support/connect';
import { openHost, type HostFixture } from '../support/host-fixture';
import { summarize } from '../../electron/context/contacts-index';
import { intentAnalysis } from '../support/intent-analysis';
import { say, ScriptedModel } from '../support/scripted-model';

const NOW = new Date('2026-11-23T07:00:00.000Z');
const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

let google: FakeGoogle;
let fixture: HostFixture;

afterEach(async () => {
  await fixture.close();
  await google.close();
});

async function start(model: ScriptedModel): Promise<HostFixture> {
  google = await startFakeGoogle();
  fixture = await openHost(model, { env: googleEnv(google), now: () => NOW });
  await fixture.host.invoke('settings.set', { userEmail: 'me@example.com', trustLevel: 'autonomous' });
  return fixture;
}

/** One model turn with several calls, as Gemini sends parallel function calls. */
function turn(...calls: [string, Record<string, unknown>][]): ModelStreamEvent[] {
  return [
    ...calls.map(([name, args], index): ModelStreamEvent => ({
      type: 'function_call',
      callId: `c${index}`,
      name,
      args,
    })),
    { type: 'finish', finishReason: 'STOP', usage },
  ];
}

const stated = (overrides: Partial<IntentAnalysis> = {}): [string, Record<string, unknown>] => [
  'state_intent',
  intentAnalysis({
    intent: 'add_task',
    confidence: 0.92,
    entities: [{ type: 'datetime', value: 'Friday' }],
    impliedNeeds: ['a due date on Friday'],
    assumptions: [{ statement: 'Friday is the 27th', evidence: ['“by Friday”, said on Monday the 23rd'] }],
    ...overrides,
  }),
];

const addTask: [string, Record<string, unknown>] = [
  'add_task',
  { description: 'Renew the passport', due: '2026-11-27', intent: 'add a task', confidence: 0.92 },
];

const draftTo = (to: string): [string, Record<string, unknown>] => [
  'gmail_draft_create',
  { to: [to], subject: 'Numbers', body: 'Here they are.', intent: 'draft', confidence: 0.95 },
];

async function runOf(threadId: string) {
  const thread = await fixture.host.invoke('thread.get', { threadId });
  return thread.runs[0];
}

/** The tools whose calls completed in the thread. */
async function toolsRun(threadId: string): Promise<string[]> {
  const thread = await fixture.host.invoke('thread.get', { threadId });
  return thread.actions.filter((action) => action.state === 'completed').map((action) => action.tool);
}

function seedPerson(name: string, address: string, subject: string): void {
  google.gmail.addMessage({
    from: 'Me <me@example.com>',
    to: `${name} <${address}>`,
    subject,
    text: '…',
    labelIds: ['SENT'],
  });
}

/** Ana Lima, a member of the person's Slack workspace, with no mail address in the index. */
function anaOnSlackOnly(): void {
  fixture.host.context.contacts.merge(
    summarize([
      {
        address: 'slack:@U0ANA',
        name: 'Ana Lima',
        kind: 'slack_member',
        at: NOW.toISOString(),
        evidence: 'a member of your Slack workspace',
      },
    ]),
  );
}

describe('the intent of every run (spec 004, Intent Analysis Output)', () => {
  it('is stated beside the first action, at no extra model call, and kept on the run, its decision and the policy log', async () => {
    const model = new ScriptedModel(turn(stated(), addTask), say('Added “Renew the passport” for Friday.'));
    await start(model);

    const done = await fixture.host.runToEnd({ prompt: 'Remind me to renew the passport by Friday' });

    expect(done.status).toBe('completed');
    // Two model calls: the one that stated the intent and acted, and the answer. No round trip of its own.
    expect(model.requests).toHaveLength(2);
    const run = await runOf(done.threadId);
    expect(run?.intent).toMatchObject({
      stated: true,
      source: 'state_intent',
      turn: 1,
      question: null,
      analysis: { intent: 'add_task', confidence: 0.92, impliedNeeds: ['a due date on Friday'] },
    });
    // The model heard that its statement was recorded, beside the task's result.
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('"recorded":true');
    const { entries } = await fixture.host.invoke('audit.list', { runId: done.runId });
    const decision = entries.find((entry) => entry.kind === 'decision');
    expect(decision).toMatchObject({ intent: 'add_task', confidence: 0.92 });
    expect(decision?.assumptions).toEqual([
      expect.objectContaining({
        statement: 'Friday is the 27th',
        category: 'intent',
        evidence: ['“by Friday”, said on Monday the 23rd'],
      }),
    ]);
    expect(decision?.input).toMatchObject({ intent: { stated: true, analysis: { intent: 'add_task' } } });
  });

  it('a run whose model gives no account records that it gave none', async () => {
    const model = new ScriptedModel(say('Hello!'));
    await start(model);

    const done = await fixture.host.runToEnd({ prompt: 'Hi' });

    expect(done.status).toBe('completed');
    expect((await runOf(done.threadId))?.intent).toEqual({ stated: false, turn: 1 });
    const { entries } = await fixture.host.invoke('audit.list', { runId: done.runId });
    expect(entries.find((entry) => entry.kind === 'decision')?.input).toMatchObject({
      intent: { stated: false },
    });
  });

  it('stated alone, the run goes on to act in its next turn', async () => {
    const model = new ScriptedModel(turn(stated()), turn(addTask), say('Added.'));
    await start(model);

    const done = await fixture.host.runToEnd({ prompt: 'Remind me to renew the passport by Friday' });

    expect(done.status).toBe('completed');
    expect(model.requests).toHaveLength(3);
    expect(await toolsRun(done.threadId)).toEqual(['add_task']);
  });

  it('low confidence asks instead of acting: nothing of the turn runs', async () => {
    const model = new ScriptedModel(
      turn(
        stated({ confidence: 0.35, clarificationQuestions: ['Which passport: yours or Léa’s?'] }),
        addTask,
      ),
    );
    await start(model);

    const done = await fixture.host.runToEnd({ prompt: 'passport thing' });

    expect(done).toMatchObject({
      status: 'completed',
      summary: 'Which passport: yours or Léa’s?',
      decision: 'REQUEST_CLARIFICATION',
      outcome: 'AMBIGUITY:UNCLEAR_INTENT',
    });
    expect(await toolsRun(done.threadId)).toEqual([]);
    expect(model.requests).toHaveLength(1);
    expect((await runOf(done.threadId))?.intent).toMatchObject({
      stated: true,
      question: 'Which passport: yours or Léa’s?',
    });
  });

  it('two people by the name it gives: asks which, naming both, and drafts nothing', async () => {
    const model = new ScriptedModel(
      turn(
        stated({ intent: 'draft_email', entities: [{ type: 'person', value: 'Sarah' }] }),
        draftTo('sarah@example.com'),
      ),
    );
    await start(model);
    seedPerson('Sarah Chen', 'sarah@example.com', 'Q1 planning');
    seedPerson('Sarah Park', 'sarah.park@corp.example', 'Contract');
    await connectGoogle(fixture.host);
    await fixture.host.context.refresh();

    const done = await fixture.host.runToEnd({ prompt: 'Draft the numbers to Sarah' });

    expect(done.decision).toBe('REQUEST_CLARIFICATION');
    expect(done.summary).toMatch(/^Which Sarah do you mean: /);
    expect(done.summary).toContain('sarah.park@corp.example');
    expect(google.gmail.drafts).toHaveLength(0);
  });

  it('a name no one in the index has: asks before writing to them, but not before remembering something of them', async () => {
    const model = new ScriptedModel(
      turn(
        stated({ intent: 'draft_email', entities: [{ type: 'person', value: 'Zoltan' }] }),
        draftTo('zoltan@example.org'),
      ),
      turn(stated({ intent: 'remember', entities: [{ type: 'person', value: 'Zoltan' }] }), [
        'save_memory',
        { text: 'Zoltan likes tulips', intent: 'remember', confidence: 0.9 },
      ]),
      say('Noted.'),
    );
    await start(model);
    await connectGoogle(fixture.host);

    const asked = await fixture.host.runToEnd({ prompt: 'Draft the numbers to Zoltan' });
    expect(asked.decision).toBe('REQUEST_CLARIFICATION');
    expect(asked.summary).toMatch(/^Who is Zoltan\?/);
    expect(google.gmail.drafts).toHaveLength(0);

    const remembered = await fixture.host.runToEnd({ prompt: 'Remember that Zoltan likes tulips' });
    expect(remembered.status).toBe('completed');
    expect(remembered.decision).not.toBe('REQUEST_CLARIFICATION');
  });
  it('a mail to someone known only from Slack asks for her email address, and drafts nothing', async () => {
    const model = new ScriptedModel(
      turn(
        stated({ intent: 'draft_email', entities: [{ type: 'person', value: 'Ana' }] }),
        draftTo('ana@example.com'),
      ),
    );
    await start(model);
    await connectGoogle(fixture.host);
    anaOnSlackOnly();

    const done = await fixture.host.runToEnd({ prompt: 'Email the numbers to Ana' });

    expect(done.decision).toBe('REQUEST_CLARIFICATION');
    expect(done.summary).toBe(
      'I know Ana Lima only from Slack, so I have no email address for them. What is Ana’s email address?',
    );
    expect(google.gmail.drafts).toHaveLength(0);
  });

  describe('a later turn that mails without stating its intent again', () => {
    const sendTo = (to: string): [string, Record<string, unknown>] => [
      'gmail_send',
      { to: [to], subject: 'Numbers', body: 'Here they are.', intent: 'send', confidence: 0.95 },
    ];
    const namingAna = stated({
      intent: 'send_email',
      entities: [
        { type: 'person', value: 'Ana' },
        { type: 'person', value: 'Bob Stone' },
      ],
    });
    // The first turn only reads (nothing reaches anyone, so nothing is asked); the second sends.
    const listTasks: [string, Record<string, unknown>] = ['list_tasks', {}];

    async function withAnaOnSlackAndBob(model: ScriptedModel): Promise<void> {
      await start(model);
      // The person may send without asking: only the intent check stands between the model and the mail.
      await fixture.host.invoke('settings.set', {
        autonomy: { ...(await fixture.host.invoke('settings.get', {})).autonomy, 'email.send': 'auto' },
        requireApprovalForFirstContact: false,
      });
      seedPerson('Bob Stone', 'bob@example.com', 'Q1 planning');
      await connectGoogle(fixture.host);
      await fixture.host.context.refresh();
      anaOnSlackOnly();
    }

    it('to an address it made up for someone named earlier and known only from Slack: asks for it, sends nothing', async () => {
      const model = new ScriptedModel(turn(namingAna, listTasks), turn(sendTo('ana.lima@example.com')));
      await withAnaOnSlackAndBob(model);

      const done = await fixture.host.runToEnd({ prompt: 'Check my tasks, then email the numbers to Ana' });

      expect(done).toMatchObject({ decision: 'REQUEST_CLARIFICATION', outcome: 'AMBIGUITY:UNCLEAR_INTENT' });
      expect(done.summary).toBe(
        'I know Ana Lima only from Slack, so I have no email address for them. What is Ana’s email address?',
      );
      expect(google.gmail.sent).toHaveLength(0);
      expect(await toolsRun(done.threadId)).toEqual(['list_tasks']);
      expect((await runOf(done.threadId))?.intent).toMatchObject({ stated: true, turn: 2 });
    });

    it('to someone the person dealt with: sends, though the earlier turn named Ana too', async () => {
      const model = new ScriptedModel(
        turn(namingAna, listTasks),
        turn(sendTo('bob@example.com')),
        say('Sent.'),
      );
      await withAnaOnSlackAndBob(model);

      const done = await fixture.host.runToEnd({ prompt: 'Tell Bob what Ana said' });

      expect(done.decision).not.toBe('REQUEST_CLARIFICATION');
      expect(await toolsRun(done.threadId)).toEqual(['list_tasks', 'gmail_send']);
      expect(google.gmail.sent).toHaveLength(1);
    });
  });
});
