import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { COMPLETE_TASK, DefaultTaskOutput } from '../../electron/engine/completion';
import type { RunSpec } from '../../electron/engine/run-deps';
import { driveRun, isRecoveryDue } from '../../electron/engine/run-loop';
import { initialState } from '../../electron/engine/run-state';
import type { Host } from '../../electron/host/create-host';
import type { ModelStreamEvent } from '../../electron/llm/model-client';
import { storeOf } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

let fixture: HostFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** Runs a task agent (the agent-definition work will start these; here the engine is driven directly). */
async function runTask(model: ScriptedModel, output: z.ZodType<Record<string, unknown>> = DefaultTaskOutput) {
  fixture = await openHost(model);
  const host: Host = fixture.host;
  const store = storeOf(host);
  const engine = host.internalsForTests();
  const run = { id: randomUUID(), threadId: randomUUID(), model: 'gemini-2.5-flash' };
  const now = new Date().toISOString();
  store.transaction(() => {
    store.threads.create(run.threadId, 'task', now);
    store.runs.create(
      { id: run.id, threadId: run.threadId, model: run.model, prompt: 'task', agentId: 'researcher' },
      now,
    );
  });
  const spec: RunSpec = {
    ...engine.specFor(run, new AbortController().signal),
    agentId: 'researcher',
    maxSteps: 5,
    completion: { output, description: 'Find the answer.' },
  };
  const state = initialState('You are a research agent.', [
    { role: 'user', parts: [{ kind: 'text', text: 'Find the answer.' }] },
  ]);
  const response = await driveRun(engine.runDeps(), spec, state);
  return { response, store, runId: run.id };
}

const complete = (args: Record<string, unknown>, callId = 'c-done'): ModelStreamEvent[] =>
  call(COMPLETE_TASK, args, callId);

describe('the completion contract', () => {
  it('ends a task agent through complete_task with output that passes its schema', async () => {
    const model = new ScriptedModel(complete({ summary: 'The answer is 42.', nextSteps: 'None.' }));
    const { response, store, runId } = await runTask(model);

    expect(response).toMatchObject({ status: 'completed', summary: 'The answer is 42.' });
    expect(response.output).toEqual({ summary: 'The answer is 42.', nextSteps: 'None.' });
    expect(response.recovered).toBeUndefined();
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toContain(COMPLETE_TASK);
    const log = store.events.runtimeByRun(runId);
    expect(log.at(-1)).toMatchObject({ type: 'completion', agentId: 'researcher' });
  });

  it('refuses complete_task next to other calls, runs none of them, and lets the model try again', async () => {
    const turn: ModelStreamEvent[] = [
      ...call('list_tasks', {}, 'c-list').slice(0, 1),
      ...complete({ summary: 'early' }),
    ];
    const model = new ScriptedModel(turn, complete({ summary: 'Now alone.' }));
    const { response, store, runId } = await runTask(model);

    expect(response).toMatchObject({ status: 'completed', summary: 'Now alone.' });
    const fed = model.requests[1]?.messages.at(-1)?.parts ?? [];
    expect(fed).toHaveLength(2);
    for (const part of fed)
      expect(part).toMatchObject({ result: { error: { code: 'completion_contract' } } });
    expect(store.actions.byThread(response.threadId)).toEqual([]);
    expect(store.events.runtimeByRun(runId).some((event) => event.type === 'tool_call_start')).toBe(false);
  });

  it('sends output that fails the schema back to the model', async () => {
    const schema = z.object({ summary: z.string(), score: z.number().min(0).max(1) });
    const model = new ScriptedModel(
      complete({ summary: 'x', score: 7 }),
      complete({ summary: 'Scored.', score: 0.5 }),
    );
    const { response } = await runTask(model, schema);
    expect(response.output).toEqual({ summary: 'Scored.', score: 0.5 });
    const fed = model.requests[1]?.messages.at(-1)?.parts[0];
    expect(JSON.stringify(fed)).toContain('score');
  });

  it('gives an agent that stops without complete_task one final warning, and records the ending as recovered', async () => {
    const model = new ScriptedModel(say('I think I am done.'), complete({ summary: 'Done, formally.' }));
    const { response, store, runId } = await runTask(model);

    expect(response).toMatchObject({ status: 'completed', recovered: true, summary: 'Done, formally.' });
    expect(model.requests[1]?.tools.map((tool) => tool.name)).toEqual([COMPLETE_TASK]);
    expect(model.requests[1]?.systemInstruction).toContain('[FINAL WARNING]');
    const run = store.runs.get(runId);
    expect(run).toMatchObject({ recovered: true });
    expect(
      store.events.runtimeByRun(runId).find((event) => event.type === 'recovery')?.payload,
    ).toMatchObject({
      reason: 'no_completion',
    });
  });

  it('ends as an error with the partial output when the final-warning turn fails too', async () => {
    const model = new ScriptedModel(
      call('list_tasks', {}, 'a'),
      call('list_tasks', {}, 'b'),
      call('list_tasks', {}, 'c'),
      say('Still not finished.'),
    );
    const { response } = await runTask(model);
    // maxSteps 5 less 2 grace turns: three working turns, then the final warning.
    expect(model.requests).toHaveLength(4);
    expect(model.requests[3]?.tools.map((tool) => tool.name)).toEqual([COMPLETE_TASK]);
    expect(response).toMatchObject({
      ok: false,
      status: 'failed',
      output: { partial: true, text: 'Still not finished.' },
    });
    expect(response.output).toHaveProperty('lastResult');
  });
});

describe('the time limit', () => {
  it('calls for the final-warning turn once the active time passes the limit, or the turns reach max − grace', () => {
    const spec = { maxSteps: 8, graceTurns: 2, timeLimitMs: 60_000 } as RunSpec;
    const state = initialState('', []);
    expect(isRecoveryDue(spec, state)).toBe(false);
    expect(isRecoveryDue(spec, { ...state, activeMs: 60_000 })).toBe(true);
    expect(isRecoveryDue(spec, { ...state, step: 5 })).toBe(false);
    expect(isRecoveryDue(spec, { ...state, step: 6 })).toBe(true);
    expect(isRecoveryDue({ ...spec, maxSteps: 1 }, { ...state, step: 0 })).toBe(false);
  });
});
