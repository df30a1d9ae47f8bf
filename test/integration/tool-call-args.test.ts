import { afterEach, describe, expect, it } from 'vitest';
import { createGeminiClient } from '../../electron/llm/gemini-client';
import type { RunEvent } from '../../shared/contract';
import { startFakeGemini } from '../fakes/gemini/server';
import { callsReply, textReply } from '../fakes/gemini/script';
import type { FakeGemini, GeminiPart } from '../fakes/gemini/types';
import { dataDirWithAgents } from '../support/agent-kit';
import { openHost, type HostFixture } from '../support/host-fixture';

let gemini: FakeGemini | undefined;
let fixture: HostFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  await gemini?.close();
  fixture = gemini = undefined;
});

/** What Gemini should never send as a call's args; the fake's types say object, so the test says otherwise. */
const notAnObject = (value: unknown) => value as Record<string, unknown>;

async function open(): Promise<{ gemini: FakeGemini; fixture: HostFixture }> {
  gemini = await startFakeGemini();
  fixture = await openHost(createGeminiClient({ apiKey: 'AIzaFAKEargsKey0123456789', baseUrl: gemini.url }), {
    dataDir: dataDirWithAgents({ name: 'task_scout', tools: ['list_tasks'] }),
  });
  return { gemini, fixture };
}

/** The parts of the history a request sent back, in order. */
function partsSent(gemini: FakeGemini, request: number): GeminiPart[] {
  return (gemini.requests[request]?.body.contents ?? []).flatMap((content) => content.parts ?? []);
}

describe('tool calls whose arguments are not an object', () => {
  it('are answered as invalid arguments, never run, and go back to Gemini with object arguments', async () => {
    const { gemini, fixture } = await open();
    gemini.script(
      callsReply([
        { name: 'add_task', args: notAnObject(['Buy milk', 'today']), id: 'c-array' },
        { name: 'list_tasks', args: notAnObject('all of them'), id: 'c-string' },
      ]),
      textReply('I will ask again properly.'),
    );
    const events: RunEvent[] = [];
    const done = await fixture.host.runToEnd({ prompt: 'Add a task: buy milk' }, (event) =>
      events.push(event),
    );
    expect(done).toMatchObject({ status: 'completed', summary: 'I will ask again properly.' });
    expect(gemini.requests).toHaveLength(2);

    const parts = partsSent(gemini, 1);
    const calls = parts.flatMap((part) => (part.functionCall ? [part.functionCall] : []));
    expect(calls).toEqual([
      { id: 'c-array', name: 'add_task', args: {} },
      { id: 'c-string', name: 'list_tasks', args: {} },
    ]);
    const answers = parts.flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
    expect(answers).toEqual([
      {
        id: 'c-array',
        name: 'add_task',
        response: {
          error: { code: 'invalid_arguments', message: expect.stringMatching(/must be an object.*array/) },
        },
      },
      {
        id: 'c-string',
        name: 'list_tasks',
        response: {
          error: { code: 'invalid_arguments', message: expect.stringMatching(/must be an object.*string/) },
        },
      },
    ]);
    // Refused like a known tool's invalid arguments: shown as failed, and nothing ran.
    expect(
      events.filter((event) => event.type === 'tool_result').map((event) => [event.tool, event.state]),
    ).toEqual([
      ['add_task', 'failed'],
      ['list_tasks', 'failed'],
    ]);
    expect((await fixture.host.invoke('tasks.list', { status: 'all' })).tasks).toEqual([]);
  });

  it("refuses an agent's complete_task sent with a string, and the agent finishes with its next try", async () => {
    const { gemini, fixture } = await open();
    gemini.script(
      callsReply([{ name: 'complete_task', args: notAnObject('done') }]),
      callsReply([{ name: 'complete_task', args: { result: { note: 'Nothing open.' } } }]),
    );
    const done = await fixture.host.runAgentToEnd({ name: 'task_scout', inputs: { task: 'check' } });
    expect(done).toMatchObject({ status: 'completed', summary: 'Note: Nothing open.' });
    const answer = partsSent(gemini, 1).find((part) => part.functionResponse)?.functionResponse;
    expect(answer?.response).toMatchObject({ error: { code: 'invalid_arguments' } });
    expect(partsSent(gemini, 1).find((part) => part.functionCall)?.functionCall?.args).toEqual({});
  });
});

describe('tool calls whose arguments are nested absurdly deep', () => {
  it('are refused as invalid arguments in plain words, never run, and the run goes on', async () => {
    const { gemini, fixture } = await open();
    // 3,000 levels (an object and an array each time): deeper than the engine's serializers could walk (the run failed as an internal error).
    const deep = JSON.parse(`${'{"a":['.repeat(1_500)}"x"${']}'.repeat(1_500)}`) as Record<string, unknown>;
    gemini.script(
      callsReply([{ name: 'add_task', args: { description: 'Buy milk', notes: deep }, id: 'c-deep' }]),
      textReply('I will send flat arguments.'),
    );
    const done = await fixture.host.runToEnd({ prompt: 'Add a task: buy milk' });
    expect(done).toMatchObject({ status: 'completed', summary: 'I will send flat arguments.' });
    const parts = partsSent(gemini, 1);
    expect(parts.find((part) => part.functionCall)?.functionCall?.args).toEqual({});
    expect(parts.find((part) => part.functionResponse)?.functionResponse?.response).toEqual({
      error: {
        code: 'invalid_arguments',
        message:
          "add_task's arguments must be an object of named fields, not one nested more than 32 levels deep.",
      },
    });
    expect((await fixture.host.invoke('tasks.list', { status: 'all' })).tasks).toEqual([]);
  });
});

describe('tool calls whose arguments do not fit the tool', () => {
  it('are answered to Gemini in plain words that name the tool and the argument', async () => {
    const { gemini, fixture } = await open();
    gemini.script(
      callsReply([{ name: 'add_task', args: { description: 42 }, id: 'c-number' }]),
      textReply('I will send text.'),
    );
    await fixture.host.runToEnd({ prompt: 'Add a task: buy milk' });
    const answer = partsSent(gemini, 1).find((part) => part.functionResponse)?.functionResponse;
    expect(answer?.response).toEqual({
      error: { code: 'invalid_arguments', message: "add_task's description must be text, not a number." },
    });
  });
});
