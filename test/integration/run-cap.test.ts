import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_QUEUED_RUNS, type RunEvent } from '../../shared/contract';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../../electron/llm/model-client';
import { serveApi } from '../support/api-server';
import { GatedModel, lastPrompt, until } from '../support/gated-model';
import { collect, openHost, type HostFixture } from '../support/host-fixture';
import { planOf, stepStatus } from '../support/plan-kit';
import { call, say, ScriptedModel } from '../support/scripted-model';

const fixtures: HostFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.close();
});

async function hostWithCap(model: ModelClient, cap: number, dataDir?: string) {
  const fixture = await openHost(model, dataDir ? { dataDir } : {});
  fixtures.push(fixture);
  await fixture.host.invoke('settings.set', { maxConcurrentRuns: cap });
  return fixture;
}

const TOKEN = 'run-cap-token';

/** The NDJSON body's events, one at a time, as the server writes them. */
async function* ndjsonLines(response: Response): AsyncGenerator<unknown> {
  const reader = response.body?.getReader();
  if (!reader) return;
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffered += decoder.decode(value, { stream: true });
    let end = buffered.indexOf('\n');
    while (end !== -1) {
      yield JSON.parse(buffered.slice(0, end)) as unknown;
      buffered = buffered.slice(end + 1);
      end = buffered.indexOf('\n');
    }
  }
}

const isStatus = (event: unknown): event is { type: 'status'; status: string } =>
  typeof event === 'object' && event !== null && (event as { type?: unknown }).type === 'status';

const lastStatus = (events: RunEvent[], runId: string) =>
  events.findLast((event) => event.type === 'status' && event.runId === runId);

describe('the cap on runs at once', () => {
  it('runs two of five at once, queues three in order, and drops a cancelled one from the line', async () => {
    const model = new GatedModel();
    const { host, dataDir } = await hostWithCap(model, 2);
    const events = collect(host);
    const prompts = ['one', 'two', 'three', 'four', 'five'];
    const runs = await Promise.all(prompts.map((prompt) => host.invoke('run.start', { prompt })));
    const ids = runs.map((run) => run.runId);
    const [, , , fourth = '', fifth = ''] = ids;
    await until(() => model.held.length === 2);

    expect(model.prompts()).toEqual(['one', 'two']);
    const statuses = runs.map((run) => host.invoke('thread.get', { threadId: run.threadId }));
    expect((await Promise.all(statuses)).map((detail) => detail.runs[0]?.status)).toEqual([
      'planning',
      'planning',
      'queued',
      'queued',
      'queued',
    ]);
    expect(ids.slice(2).map((id) => lastStatus(events, id))).toMatchObject([
      { status: 'queued', queuePosition: 1 },
      { status: 'queued', queuePosition: 2 },
      { status: 'queued', queuePosition: 3 },
    ]);

    // Cancelling a queued run ends it at once, cleanly, and the runs behind it move up.
    expect(await host.invoke('run.cancel', { runId: fourth })).toEqual({ cancelled: true });
    await until(() => events.some((event) => event.type === 'result' && event.runId === fourth));
    const cancelled = events.find((event) => event.type === 'result' && event.runId === fourth);
    expect(cancelled).toMatchObject({ result: { status: 'failed', summary: 'Stopped before it started.' } });
    expect(lastStatus(events, fifth)).toMatchObject({ status: 'queued', queuePosition: 2 });

    model.answer('one');
    await until(() => model.held.length === 2 && model.prompts().includes('three'));
    model.answer('two');
    await until(() => model.prompts().includes('five'));
    model.answer('three');
    model.answer('five');
    await until(() => ids.every((id) => events.some((e) => e.type === 'result' && e.runId === id)));

    expect(model.asked).toEqual(['one', 'two', 'three', 'five']);
    expect(model.maxAtOnce).toBe(2);
    // The line moved for the fifth run twice (fourth cancelled, then one done), but its log keeps the place it
    // got when it joined: moves are told, not logged, or the log would grow with the square of the line.
    const told = events.flatMap((event) =>
      event.type === 'status' && event.runId === fifth ? [[event.status, event.queuePosition]] : [],
    );
    expect(told).toEqual([
      ['queued', undefined],
      ['queued', 3],
      ['queued', 2],
      ['queued', 1],
      ['planning', undefined],
      ['completed', undefined],
    ]);
    const db = new Database(join(dataDir, 'deputy.db'), { readonly: true });
    try {
      const logged = db
        .prepare<[string], string>(
          "SELECT body FROM journal_events WHERE run_id = ? AND event_type = 'status' ORDER BY seq",
        )
        .pluck()
        .all(fifth)
        .map((body) => JSON.parse(body) as { status: string; queuePosition?: number });
      expect(logged.map((status) => [status.status, status.queuePosition])).toEqual([
        ['queued', undefined],
        ['queued', 3],
        ['planning', undefined],
        ['completed', undefined],
      ]);
    } finally {
      db.close();
    }
  });

  it('keeps the NDJSON stream of a waiting request at queued until a slot frees; POST /api/agent/run just waits', async () => {
    const model = new GatedModel();
    const fixture = await hostWithCap(model, 1);
    const { server, api } = await serveApi(fixture, TOKEN);
    try {
      const post = (path: string, prompt: string) =>
        api(path, { method: 'POST', body: JSON.stringify({ prompt }) });
      const busy = post('/api/agent/run', 'busy');
      await until(() => model.held.length === 1);
      const stream = await post('/api/agent/run/stream', 'waits');
      const lines = ndjsonLines(stream);
      const first = await lines.next();
      const second = await lines.next();
      expect([first.value, second.value]).toMatchObject([
        { type: 'status', status: 'queued' },
        { type: 'status', status: 'queued', queuePosition: 1 },
      ]);
      expect(model.prompts()).toEqual(['busy']);

      model.answer('busy');
      expect(await (await busy).json()).toMatchObject({ status: 'completed', summary: 'Answered busy' });
      await until(() => model.held.length === 1);
      model.answer('waits');
      const rest: unknown[] = [];
      for await (const line of lines) rest.push(line);
      expect(rest.filter(isStatus).map((event) => event.status)).toEqual(['planning', 'completed']);
      expect(rest.at(-1)).toMatchObject({ type: 'result', result: { summary: 'Answered waits' } });
    } finally {
      await server.close();
    }
  });

  it('queues an approval continuation behind a busy slot and runs it once the slot frees', async () => {
    const gated = new GatedModel();
    const scripted = new ScriptedModel(
      call('add_task', { description: 'Renew passport', intent: 'add a task', confidence: 0.95 }),
    );
    // "Keep busy" holds the only slot inside its model call; everything else is scripted.
    const model: ModelClient = {
      stream: (request) =>
        lastPrompt(request) === 'Keep busy' ? gated.stream(request) : scripted.stream(request),
    };
    const { host } = await hostWithCap(model, 1);
    const paused = await host.runToEnd({ prompt: 'Add a passport task' });
    expect(paused.status).toBe('awaiting_confirmation');
    const busy = host.runToEnd({ prompt: 'Keep busy' });
    await until(() => gated.held.length === 1);

    const events = collect(host, paused.runId);
    scripted.script(say('Added the task.'));
    const decided = host.invoke('approval.decide', {
      approvalId: paused.approval?.id ?? '',
      decision: 'approve',
    });
    await until(() => lastStatus(events, paused.runId)?.type === 'status');
    expect(lastStatus(events, paused.runId)).toMatchObject({ status: 'queued', queuePosition: 1 });
    expect(scripted.remaining).toBe(1);

    gated.answer('Keep busy', 'Busy done.');
    expect(await busy).toMatchObject({ status: 'completed', summary: 'Busy done.' });
    expect(await decided).toMatchObject({ status: 'completed', summary: 'Added the task.' });
  });

  it(`refuses a new run with too_many (429 over HTTP) while ${MAX_QUEUED_RUNS} wait in line, storing nothing of it`, async () => {
    const model = new GatedModel();
    const fixture = await hostWithCap(model, 1);
    const { host } = fixture;
    const started: string[] = [];
    // One works and the rest wait: a script starting runs in a loop, faster than they end.
    for (let index = 0; index <= MAX_QUEUED_RUNS; index += 1)
      started.push((await host.invoke('run.start', { prompt: `run ${index}` })).runId);
    await until(() => model.held.length === 1);

    await expect(host.invoke('run.start', { prompt: 'one too many' })).rejects.toMatchObject({
      code: 'too_many',
      message: expect.stringContaining(`${MAX_QUEUED_RUNS} runs are already waiting`),
    });
    const { server, api } = await serveApi(fixture, TOKEN);
    try {
      const answer = await api('/api/agent/run', {
        method: 'POST',
        body: JSON.stringify({ prompt: 'over HTTP' }),
      });
      expect(answer.status).toBe(429);
      expect(await answer.json()).toMatchObject({ ok: false, error: { code: 'too_many' } });
    } finally {
      await server.close();
    }
    const db = new Database(join(fixture.dataDir, 'deputy.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) FROM runs').pluck().get()).toBe(MAX_QUEUED_RUNS + 1);
    } finally {
      db.close();
    }
    // Each one turned away is still a decision, with why, and nothing of what was asked.
    const { decisions } = await host.invoke('audit.decisions', { limit: 2 });
    expect(decisions.map((d) => [d.decision, d.outcome, d.runId, d.intent])).toEqual([
      ['REFUSE', 'REFUSAL:TOO_MANY', null, null],
      ['REFUSE', 'REFUSAL:TOO_MANY', null, null],
    ]);
    expect(decisions[0]?.summary).toContain(`${MAX_QUEUED_RUNS} runs are already waiting`);

    // A waiting run cancelled leaves a place in line at once.
    expect(await host.invoke('run.cancel', { runId: started.at(-1) ?? '' })).toEqual({ cancelled: true });
    expect(await host.invoke('run.start', { prompt: 'in its place' })).toMatchObject({
      runId: expect.any(String),
    });
  });

  it('counts runs picked up at start-up, one at a time under a cap of one', async () => {
    const first = new GatedModel();
    const fixture = await hostWithCap(first, 1);
    await fixture.host.invoke('run.start', { prompt: 'alpha' });
    await fixture.host.invoke('run.start', { prompt: 'beta' });
    await until(() => first.held.length === 1);
    await fixture.stop();
    fixtures.splice(fixtures.indexOf(fixture), 1);

    const second = new GatedModel();
    const reopened = await hostWithCap(second, 1, fixture.dataDir);
    await until(() => second.held.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(second.prompts()).toEqual(['alpha']);
    second.answer('alpha');
    await until(() => second.prompts().includes('beta'));
    second.answer('beta');
    const threads = await reopened.host.invoke('threads.list', {});
    await until(() => second.asked.length === 2);
    expect(second.maxAtOnce).toBe(1);
    expect(threads.threads).toHaveLength(2);
  });

  it('refuses the answer to a plan’s question while the line is full, and leaves the question to be answered again', async () => {
    const scripted = new ScriptedModel(
      call('propose_plan', {
        goal: 'Pick a day',
        steps: [
          { id: 'day', title: 'Ask the day', ask: 'Which day?' },
          { id: 'note', title: 'Note it', dependsOn: ['day'] },
        ],
      }),
      call('request_clarification', { question: 'Which day?' }),
    );
    const gated = new GatedModel();
    // The plan's run is answered by the script; the runs that fill the line wait on the gated model.
    const model: ModelClient = {
      stream: (request: ModelRequest): AsyncIterable<ModelStreamEvent> =>
        (lastPrompt(request).startsWith('run ') ? gated : scripted).stream(request),
    };
    const { host } = await hostWithCap(model, 1);
    const events: RunEvent[] = [];
    await host.runToEnd({ prompt: 'Plan my day' }, (event) => events.push(event));
    const plan = await planOf(host, events);
    expect(stepStatus(plan)).toEqual({ day: 'awaiting_user', note: 'pending' });
    const started: string[] = [];
    for (let index = 0; index <= MAX_QUEUED_RUNS; index += 1)
      started.push((await host.invoke('run.start', { prompt: `run ${index}` })).runId);
    await until(() => gated.held.length === 1);

    await expect(host.invoke('plan.continue', { planId: plan.id, answer: 'Tuesday' })).rejects.toMatchObject({
      code: 'too_many',
    });
    const refused = (await host.invoke('plan.get', { planId: plan.id })).plan;
    expect(refused.status).toBe('paused');
    expect(stepStatus(refused)).toEqual({ day: 'awaiting_user', note: 'pending' });

    // Once there is room, the same answer takes the plan up.
    await host.invoke('run.cancel', { runId: started.at(-1) ?? '' });
    const continued = await host.invoke('plan.continue', { planId: plan.id, answer: 'Tuesday' });
    expect(continued.plan.steps.find((step) => step.id === 'day')).toMatchObject({
      status: 'done',
      answer: 'Tuesday',
    });
  });
});
