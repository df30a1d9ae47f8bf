import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGeminiClient } from '../../electron/llm/gemini-client';
import { MAX_ANSWER_CHARS } from '../../electron/llm/gemini-response';
import type { ModelClient, ModelMessage, ModelStreamEvent } from '../../electron/llm/model-client';
import { callReply, callsReply, textReply } from '../fakes/gemini/script';
import { startFakeGemini } from '../fakes/gemini/server';
import type { FakeGemini } from '../fakes/gemini/types';
import { API_KEY, MODEL, collect, modelRequest, textOf, userSays } from './gemini-test-kit';

let fake: FakeGemini;
let client: ModelClient;

beforeEach(async () => {
  fake = await startFakeGemini();
  client = createGeminiClient({ apiKey: API_KEY, baseUrl: fake.url, timeoutMs: 2_000, idleTimeoutMs: 2_000 });
});

afterEach(async () => {
  await fake.close();
});

function callsIn(events: ModelStreamEvent[]): Array<Extract<ModelStreamEvent, { type: 'function_call' }>> {
  return events.flatMap((event) => (event.type === 'function_call' ? [event] : []));
}

/** The conversation after the model made `call` and the tool answered it, as the engine stores it. */
function afterToolResult(call: {
  callId: string;
  name: string;
  args: Record<string, unknown>;
  signature?: string;
}): ModelMessage[] {
  const { callId, name, args, signature } = call;
  const stored = signature === undefined ? { callId, name, args } : { callId, name, args, signature };
  return [
    userSays('Add a task'),
    { role: 'model', parts: [{ kind: 'call', ...stored }] },
    { role: 'user', parts: [{ kind: 'result', callId: call.callId, name: call.name, result: { ok: true } }] },
  ];
}

describe('Gemini client: answers', () => {
  it('streams text as several events, then finish STOP with usage', async () => {
    const answer = 'Good morning! You have three meetings today.';
    fake.script(textReply(answer, { chunks: 3 }));

    const { events, error } = await collect(client);

    expect(error).toBeNull();
    const texts = events.filter((event) => event.type === 'text');
    expect(texts).toHaveLength(3);
    expect(textOf(events)).toBe(answer);
    const outputTokens = Math.ceil(answer.length / 4);
    expect(events.at(-1)).toEqual({
      type: 'finish',
      finishReason: 'STOP',
      usage: { inputTokens: 12, outputTokens, totalTokens: 12 + outputTokens },
    });
    expect(events.filter((event) => event.type === 'finish')).toHaveLength(1);
  });

  it('sends the model, the key, the system instruction and the tools with parametersJsonSchema', async () => {
    const parameters = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };
    fake.script(textReply('ok'));

    await collect(
      client,
      modelRequest({
        systemInstruction: 'Be brief.',
        tools: [{ name: 'add_task', description: 'Adds a task', parameters }],
      }),
    );

    const [sent] = fake.requests;
    expect(sent?.model).toBe(MODEL);
    expect(sent?.method).toBe('streamGenerateContent');
    expect(sent?.apiKey).toBe(API_KEY);
    expect(sent?.body.systemInstruction?.parts).toEqual([{ text: 'Be brief.' }]);
    expect(sent?.body.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'add_task', description: 'Adds a task', parametersJsonSchema: parameters },
        ],
      },
    ]);
    expect(sent?.body.contents).toEqual([{ role: 'user', parts: [{ text: 'Hello' }] }]);
  });

  it('sends no tools field when the agent has no tools', async () => {
    fake.script(textReply('ok'));
    await collect(client);
    expect(fake.requests[0]?.body.tools).toBeUndefined();
  });

  it('skips thought parts', async () => {
    fake.script({
      kind: 'reply',
      chunks: [{ thought: 'Let me think…', text: 'Answer.', finishReason: 'STOP' }],
    });
    const { events } = await collect(client);
    expect(events.filter((event) => event.type === 'text')).toEqual([{ type: 'text', text: 'Answer.' }]);
  });
});

describe('Gemini client: function calls', () => {
  it('keeps a model-given id and sends it back with the call and its result', async () => {
    fake.script(
      callReply('add_task', { title: 'Buy milk' }, { id: 'gemini-call-7', text: 'On it.' }),
      textReply('Done.'),
    );

    const first = await collect(client);
    const [call] = callsIn(first.events);
    expect(textOf(first.events)).toBe('On it.');
    expect(call).toEqual({
      type: 'function_call',
      callId: 'gemini-call-7',
      name: 'add_task',
      args: { title: 'Buy milk' },
    });
    expect(first.events.at(-1)).toMatchObject({ type: 'finish', finishReason: 'STOP' });

    await collect(client, modelRequest({ messages: afterToolResult(call ?? fail()) }));
    const parts = fake.requests[1]?.body.contents?.flatMap((content) => content.parts ?? []);
    expect(parts?.find((part) => part.functionCall)?.functionCall).toEqual({
      id: 'gemini-call-7',
      name: 'add_task',
      args: { title: 'Buy milk' },
    });
    expect(parts?.find((part) => part.functionResponse)?.functionResponse).toEqual({
      id: 'gemini-call-7',
      name: 'add_task',
      response: { ok: true },
    });
  });

  it('invents distinct ids for calls without one and never sends them to Gemini', async () => {
    fake.script(
      callsReply([
        { name: 'add_task', args: { title: 'A' } },
        { name: 'add_task', args: { title: 'B' } },
      ]),
      textReply('Done.'),
    );

    const calls = callsIn((await collect(client)).events);
    expect(calls).toHaveLength(2);
    const [first, second] = calls;
    expect(first?.callId).toMatch(/\S/);
    expect(first?.callId).not.toBe(second?.callId);

    await collect(client, modelRequest({ messages: afterToolResult(first ?? fail()) }));
    const contents = fake.requests[1]?.body.contents ?? [];
    expect(contents[1]?.parts).toEqual([{ functionCall: { name: 'add_task', args: { title: 'A' } } }]);
    expect(contents[2]?.parts).toEqual([{ functionResponse: { name: 'add_task', response: { ok: true } } }]);
  });

  it('puts a call thought signature on its event, and none on a call without one', async () => {
    fake.script(
      callsReply([
        { name: 'list_tasks', args: {}, id: 'c1', thoughtSignature: 'c2lnbmF0dXJl' },
        { name: 'add_task', args: { title: 'A' }, id: 'c2' },
      ]),
    );

    const [signed, unsigned] = callsIn((await collect(client)).events);
    expect(signed).toEqual({
      type: 'function_call',
      callId: 'c1',
      name: 'list_tasks',
      args: {},
      signature: 'c2lnbmF0dXJl',
    });
    expect(unsigned).not.toHaveProperty('signature');
  });

  it('sends the signature back from the stored call, even from a client that never saw it', async () => {
    fake.script(
      callsReply([{ name: 'list_tasks', args: {}, id: 'c1', thoughtSignature: 'c2lnbmF0dXJl' }]),
      textReply('Here they are.'),
    );
    const [call] = callsIn((await collect(client)).events);

    // A new client stands for Deputy after a restart: only the stored messages remember the signature.
    const restarted = createGeminiClient({ apiKey: API_KEY, baseUrl: fake.url, timeoutMs: 2_000 });
    await collect(restarted, modelRequest({ messages: afterToolResult(call ?? fail()) }));

    const modelTurn = fake.requests[1]?.body.contents?.[1];
    expect(modelTurn?.parts?.[0]).toEqual({
      functionCall: { id: 'c1', name: 'list_tasks', args: {} },
      thoughtSignature: 'c2lnbmF0dXJl',
    });
  });
});

describe('Gemini client: how an answer ends', () => {
  it.each([
    ['MAX_TOKENS', 'MAX_TOKENS'],
    ['SAFETY', 'SAFETY'],
    ['RECITATION', 'OTHER'],
    ['FINISH_REASON_UNSPECIFIED', 'MISSING'],
  ])('maps finishReason %s to %s', async (sent, expected) => {
    fake.script({
      kind: 'reply',
      chunks: [{ text: 'Partial', finishReason: sent, usage: { prompt: 5, output: 1 } }],
    });
    const { events, error } = await collect(client);
    expect(error).toBeNull();
    expect(events.at(-1)).toEqual({
      type: 'finish',
      finishReason: expected,
      usage: { inputTokens: 5, outputTokens: 1, totalTokens: 6 },
    });
  });

  it('reports SAFETY with no content as a plain finish', async () => {
    fake.script({ kind: 'reply', chunks: [{ finishReason: 'SAFETY' }] });
    const { events, error } = await collect(client);
    expect(error).toBeNull();
    expect(events).toEqual([{ type: 'finish', finishReason: 'SAFETY', usage: null }]);
  });

  it('finishes with MISSING and no content when Gemini sends empty candidates', async () => {
    fake.script({ kind: 'reply', chunks: [{ empty: true, usage: { prompt: 9, output: 0 } }] });
    const { events, error } = await collect(client);
    expect(error).toBeNull();
    expect(events).toEqual([
      { type: 'finish', finishReason: 'MISSING', usage: { inputTokens: 9, outputTokens: 0, totalTokens: 9 } },
    ]);
  });

  it('fails as unavailable when text arrives but the stream closes with no finishReason', async () => {
    fake.script({ kind: 'reply', chunks: [{ text: 'Half an ans' }] });
    const { events, error } = await collect(client);
    expect(textOf(events)).toBe('Half an ans');
    expect(events.some((event) => event.type === 'finish')).toBe(false);
    expect(error?.kind).toBe('unavailable');
    expect(error?.message).toMatch(/cut mid-answer/);
  });

  it('stops reading an answer past MAX_ANSWER_CHARS, ends it with a note, and lets the rest go unfetched', async () => {
    let sent = 0;
    const flood = await startFakeGemini({ onChunkSent: () => (sent += 1) });
    try {
      const reader = createGeminiClient({ apiKey: API_KEY, baseUrl: flood.url, timeoutMs: 2_000 });
      const piece = 'x'.repeat(100_000);
      flood.script({ kind: 'reply', gapMs: 20, chunks: Array.from({ length: 40 }, () => ({ text: piece })) });
      const { events, error } = await collect(reader);
      expect(error).toBeNull();
      const text = textOf(events);
      expect(text.slice(0, MAX_ANSWER_CHARS)).toBe('x'.repeat(MAX_ANSWER_CHARS));
      expect(text.slice(MAX_ANSWER_CHARS)).toBe(
        '\n\n[Deputy stopped reading this answer at 1,000,000 characters.]',
      );
      expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'MAX_TOKENS', usage: null });
      // 4 MB were on offer; the connection was let go after the eleventh piece, and the fake saw it close.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(sent).toBeGreaterThanOrEqual(11);
      expect(sent).toBeLessThan(20);
    } finally {
      await flood.close();
    }
  });

  it('fails as blocked when the prompt has a blockReason', async () => {
    fake.script({ kind: 'reply', chunks: [{ blockReason: 'PROHIBITED_CONTENT' }] });
    const { events, error } = await collect(client);
    expect(events).toEqual([]);
    expect(error?.kind).toBe('blocked');
    expect(error?.message).toContain('PROHIBITED_CONTENT');
  });
});

function fail(): never {
  throw new Error('expected a function call');
}
