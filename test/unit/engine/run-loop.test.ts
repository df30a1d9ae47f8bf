import { afterEach, describe, expect, it } from 'vitest';
import { ModelError, type ModelStreamEvent } from '../../../electron/llm/model-client';
import { call, say, ScriptedModel } from '../../support/scripted-model';
import { collect, openHost, type HostFixture } from '../../support/host-fixture';

let fixture: HostFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function start(model: ScriptedModel, env: Record<string, string> = {}): Promise<HostFixture> {
  fixture = await openHost(model, { env });
  // The loop itself is under test here; the policy has its own tests, so side effects run without asking.
  await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });
  return fixture;
}

describe('run loop', () => {
  it('streams text as deltas and completes with the answer stored in the thread', async () => {
    const { host } = await start(new ScriptedModel(say('Hello ', 'there.')));
    const events = collect(host);
    const response = await host.runToEnd({ prompt: 'Say hello' });

    expect(response).toMatchObject({
      ok: true,
      status: 'completed',
      mode: 'assistant_text',
      summary: 'Hello there.',
    });
    expect(events.filter((e) => e.type === 'delta').map((e) => e.type === 'delta' && e.delta)).toEqual([
      'Hello ',
      'there.',
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'status',
      'status',
      'delta',
      'delta',
      'usage',
      'status',
      'result',
    ]);
    const thread = await host.invoke('thread.get', { threadId: response.threadId });
    expect(thread.messages.map((m) => [m.role, m.text])).toEqual([
      ['user', 'Say hello'],
      ['assistant', 'Hello there.'],
    ]);
    expect(thread.runs[0]).toMatchObject({ status: 'completed', summary: 'Hello there.' });
  });

  it('runs a task tool, feeds its result back, and reports the tool in the response', async () => {
    const model = new ScriptedModel(
      call('add_task', { description: 'Buy milk', due: '2026-11-22', intent: 'add a task', confidence: 0.9 }),
      say('Added it.'),
    );
    const { host } = await start(model);
    const events = collect(host);
    const response = await host.runToEnd({ prompt: 'Add a task to buy milk tomorrow' });

    expect(response).toMatchObject({
      status: 'completed',
      mode: 'tool_call',
      tool: 'add_task',
      summary: 'Added it.',
    });
    expect(response.toolArgs).toEqual({ description: 'Buy milk', due: '2026-11-22' });
    expect(response.output).toMatchObject({
      task: { description: 'Buy milk', due: '2026-11-22', status: 'open' },
    });
    const toolEvents = events.filter((e) => e.type === 'tool_call' || e.type === 'tool_result');
    expect(toolEvents.map((e) => `${e.type}:${'state' in e ? e.state : ''}`)).toEqual([
      'tool_call:executing',
      'tool_result:completed',
    ]);
    const second = model.requests[1];
    const fed = second?.messages.at(-1)?.parts[0];
    expect(fed).toMatchObject({ kind: 'result', callId: 'call-add_task', name: 'add_task' });
    const listed = await host.invoke('thread.get', { threadId: response.threadId });
    expect(listed.actions).toHaveLength(1);
    expect(listed.actions[0]).toMatchObject({ tool: 'add_task', state: 'completed', id: response.actionId });
  });

  it('runs a call whose id the model gave again, in its turn or after an earlier one, as a call of its own', async () => {
    const add = (description: string): ModelStreamEvent => ({
      type: 'function_call',
      callId: 'same',
      name: 'add_task',
      args: { description, intent: 'add tasks', confidence: 0.9 },
    });
    const finish: ModelStreamEvent = {
      type: 'finish',
      finishReason: 'STOP',
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    };
    const model = new ScriptedModel(
      [add('Buy milk'), add('Buy bread'), finish],
      [add('Buy eggs'), finish],
      say('Added them.'),
    );
    const { host } = await start(model);
    const response = await host.runToEnd({ prompt: 'Add milk, bread and eggs' });

    expect(response).toMatchObject({ status: 'completed', summary: 'Added them.' });
    const tasks = await host.invoke('tasks.list', { status: 'all' });
    expect(tasks.tasks.map((task) => task.description).sort()).toEqual(['Buy bread', 'Buy eggs', 'Buy milk']);
    // Each result goes back under its own call's id, with that call's own task.
    const fedBack = model.requests.slice(1).map((request) => request.messages.at(-1)?.parts ?? []);
    const results = fedBack.flat().flatMap((part) => (part.kind === 'result' ? [part] : []));
    expect(results.map((result) => JSON.stringify(result.result).match(/Buy \w+/)?.[0])).toEqual([
      'Buy milk',
      'Buy bread',
      'Buy eggs',
    ]);
    const calls = model.requests
      .at(-1)
      ?.messages.flatMap((message) => message.parts)
      .filter((part) => part.kind === 'call');
    expect(new Set(calls?.map((call) => call.callId)).size).toBe(3);
    expect(results.map((result) => result.callId)).toEqual(calls?.map((call) => call.callId));
  });

  it('returns invalid arguments and unknown tools to the model as errors, and the run goes on', async () => {
    const model = new ScriptedModel(
      call('add_task', { description: '' }, 'c1'),
      call('send_fax', { to: '123' }, 'c2'),
      say('I could not do that.'),
    );
    const { host } = await start(model);
    const response = await host.runToEnd({ prompt: 'Do odd things' });

    expect(response.status).toBe('completed');
    const errorFor = (index: number): unknown => {
      const part = model.requests[index]?.messages.at(-1)?.parts[0];
      return part?.kind === 'result' ? part.result : undefined;
    };
    expect(errorFor(1)).toMatchObject({ error: { code: 'invalid_arguments' } });
    expect(JSON.stringify(errorFor(1))).toContain('description');
    expect(errorFor(2)).toMatchObject({ error: { code: 'unknown_tool' } });
    expect(JSON.stringify(errorFor(2))).toContain('add_task');
    const thread = await host.invoke('thread.get', { threadId: response.threadId });
    expect(thread.actions.map((a) => a.state)).toEqual(['failed', 'failed']);
  });

  it('keeps the last two of AGENT_MAX_LOOP_STEPS for one final-warning turn without tools, and marks the run recovered', async () => {
    const model = new ScriptedModel(
      call('list_tasks', {}, 'a'),
      call('list_tasks', {}, 'b'),
      call('list_tasks', {}, 'c'),
      say('Here is where I got to.'),
    );
    const { host } = await start(model, { AGENT_MAX_LOOP_STEPS: '5' });
    const response = await host.runToEnd({ prompt: 'Loop' });

    expect(response).toMatchObject({ status: 'completed', recovered: true });
    expect(model.requests).toHaveLength(4);
    expect(model.requests[2]?.tools.length).toBeGreaterThan(0);
    expect(model.requests[3]?.tools).toEqual([]);
    expect(model.requests[3]?.systemInstruction).toContain('[FINAL TURN]');
    const thread = await host.invoke('thread.get', { threadId: response.threadId });
    expect(thread.runs[0]).toMatchObject({ status: 'completed', recovered: true });
  });

  it('fails with step_limit and the partial output when the final-warning turn still asks for tools', async () => {
    const model = new ScriptedModel(call('list_tasks', {}, 'a'), call('list_tasks', {}, 'b'));
    const { host } = await start(model, { AGENT_MAX_LOOP_STEPS: '1' });
    const response = await host.runToEnd({ prompt: 'Loop' });
    expect(response).toMatchObject({ ok: false, status: 'failed', output: { partial: true } });
    expect(response.summary).toContain('2 steps');
    expect(model.requests[1]?.tools).toEqual([]);
  });

  it.each([
    ['unreachable', new ModelError('unavailable', 'Deputy could not reach Gemini.'), 'model_unavailable'],
    ['429', new ModelError('rate_limited', 'Gemini is rate-limiting requests.', 30), 'model_rate_limited'],
    ['500', new ModelError('server_error', 'Gemini had a server error.'), 'model_server_error'],
    ['hang', new ModelError('timeout', 'Gemini did not answer in time.'), 'model_timeout'],
    [
      'malformed JSON',
      new ModelError('bad_response', 'Gemini sent something unreadable.'),
      'model_bad_response',
    ],
    ['a plain Error', new Error('boom'), 'model_bad_response'],
  ])('fails the run cleanly when the model call fails (%s)', async (_name, error, code) => {
    const model = new ScriptedModel(error, error, error);
    const { host } = await start(model);
    const events = collect(host);
    const response = await host.runToEnd({ prompt: 'Hello' });

    expect(response).toMatchObject({ ok: false, status: 'failed' });
    expect(events.find((e) => e.type === 'error')).toMatchObject({ code });
    const thread = await host.invoke('thread.get', { threadId: response.threadId });
    expect(thread.runs[0]).toMatchObject({ status: 'failed', errorCode: code });
    expect(thread.runs[0]?.errorMessage).toBe(response.summary);
    expect(thread.messages.map((m) => m.role)).toEqual(['user']);
    // A transient failure is tried once more; the same error signature a second time is not retried again.
    const isTransient = error instanceof ModelError && error.kind !== 'bad_response';
    expect(model.requests).toHaveLength(isTransient ? 2 : 1);
  });

  it('says while it waits to try again what went wrong in a person’s words, without Gemini’s own text or codes', async () => {
    const busy = new ModelError(
      'rate_limited',
      'Gemini is limiting requests (HTTP 429): fake gemini: scripted status 429.',
      1,
    );
    const { host } = await start(new ScriptedModel(busy, say('Hello.')));
    const events = collect(host);
    const before = Date.now();
    await host.runToEnd({ prompt: 'Hello' });
    const after = Date.now();
    const notices = events.flatMap((event) => (event.type === 'notice' ? [event] : []));
    expect(notices.map((notice) => notice.message)).toEqual([
      'Gemini is busy right now. Trying again in 1 s.',
    ]);
    // It says when the next try starts (the 1 s asked for after it), so a window can tell waiting from trying again.
    const retryAt = Date.parse(notices[0]?.retryAt ?? '');
    // (Give or take the host's clock, which is not read at the same instants as the test's.)
    expect(retryAt).toBeGreaterThanOrEqual(before + 1000 - 50);
    expect(retryAt).toBeLessThanOrEqual(after + 1000 + 50);
  });

  it('keeps nothing half-written when the stream is cut after some text', async () => {
    const cut = (): never => {
      throw new ModelError('unavailable', 'The connection to Gemini was cut mid-answer.');
    };
    const model = new ScriptedModel(() => [{ type: 'text', text: 'Partial ans' }, ...[cut()]]);
    const { host } = await start(model);
    const response = await host.runToEnd({ prompt: 'Hello' });
    const thread = await host.invoke('thread.get', { threadId: response.threadId });
    expect(response.status).toBe('failed');
    expect(thread.messages.map((m) => m.role)).toEqual(['user']);
  });

  it.each([
    ['SAFETY', 'model_blocked'],
    ['MAX_TOKENS', 'model_bad_response'],
    ['MISSING', 'model_bad_response'],
  ] as const)(
    'fails with a message when the model ends with %s and nothing to say',
    async (finishReason, code) => {
      const { host } = await start(new ScriptedModel([{ type: 'finish', finishReason, usage: null }]));
      const events = collect(host);
      const response = await host.runToEnd({ prompt: 'Hello' });
      expect(response.status).toBe('failed');
      expect(events.find((e) => e.type === 'error')).toMatchObject({ code });
    },
  );

  it('keeps an answer cut by MAX_TOKENS: the text is what the person gets', async () => {
    const { host } = await start(
      new ScriptedModel([
        { type: 'text', text: 'Long answ' },
        { type: 'finish', finishReason: 'MAX_TOKENS', usage: null },
      ]),
    );
    const response = await host.runToEnd({ prompt: 'Hello' });
    expect(response).toMatchObject({ status: 'completed', summary: 'Long answ' });
  });

  it('fails with a clear message when no model is configured', async () => {
    fixture = await openHost(null);
    const response = await fixture.host.runToEnd({ prompt: 'Hello' });
    expect(response).toMatchObject({ status: 'failed' });
    expect(response.summary).toContain('GEMINI_API_KEY');
  });

  it('cancels a run in flight', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = new ScriptedModel();
    model.stream = async function* (request) {
      yield { type: 'text', text: 'Thinking' };
      await gate;
      if (request.signal.aborted) throw new ModelError('cancelled', 'cancelled');
      yield { type: 'finish', finishReason: 'STOP', usage: null };
    };
    const { host } = await start(model);
    const events = collect(host);
    const started = host.startRun({ prompt: 'Slow' });
    // In flight: the model has begun to answer.
    await expect.poll(() => events.some((e) => e.type === 'delta')).toBe(true);
    expect(await host.invoke('run.cancel', { runId: started.runId })).toEqual({ cancelled: true });
    release();
    await expect
      .poll(() => events.find((e) => e.type === 'result'))
      .toMatchObject({
        result: { status: 'failed', summary: 'Stopped.' },
      });
    expect(await host.invoke('run.cancel', { runId: started.runId })).toEqual({ cancelled: false });
  });

  it('builds the system instruction with time zone and attached context, and carries the thread history', async () => {
    const model = new ScriptedModel(say('First.'), say('Second.'));
    const { host } = await start(model);
    await host.invoke('settings.set', { timezone: 'Europe/Paris', userName: 'Ada' });
    const first = await host.runToEnd({
      prompt: 'Summarise this',
      attachedContext: [{ type: 'email', id: 'm1', title: 'Quarterly plan', snippet: 'Numbers are up' }],
    });
    await host.runToEnd({ prompt: 'And now?', threadId: first.threadId });

    const instruction = model.requests[0]?.systemInstruction ?? '';
    expect(instruction).toContain('Europe/Paris');
    expect(instruction).toContain('[ATTACHED CONTEXT]');
    expect(instruction).toContain('Quarterly plan');
    expect(instruction).toContain('Name: Ada');
    expect(model.requests[1]?.systemInstruction).not.toContain('Quarterly plan');
    const texts = model.requests[1]?.messages.map(
      (m) => `${m.role}:${m.parts[0]?.kind === 'text' ? m.parts[0].text : ''}`,
    );
    expect(texts).toEqual(['user:Summarise this', 'model:First.', 'user:And now?']);
  });

  it('rejects a run on a thread that does not exist', async () => {
    const { host } = await start(new ScriptedModel());
    await expect(host.runToEnd({ prompt: 'Hi', threadId: 'nope' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
