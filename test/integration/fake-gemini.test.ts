import { GoogleGenAI } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { echoStep } from '../fakes/gemini/echo';
import { splitInto, textReply } from '../fakes/gemini/script';
import { startFakeGemini } from '../fakes/gemini/server';
import type { ChunkSentInfo, FakeGemini } from '../fakes/gemini/types';

/** The fake itself: what other tests rely on it to do. */

let fake: FakeGemini | null = null;

afterEach(async () => {
  await fake?.close();
  fake = null;
});

function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = { 'x-goog-api-key': 'k' },
): Promise<Response> {
  return fetch(`${url}/v1beta/models/m:streamGenerateContent?alt=sse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('fake Gemini', () => {
  it('answers 500 "no scripted response" when the script runs out', async () => {
    fake = await startFakeGemini();
    const response = await post(fake.url, { contents: [] });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: { code: 500, message: 'fake gemini: no scripted response', status: 'INTERNAL' },
    });
  });

  it('refuses a request without x-goog-api-key and keeps the script for the next one', async () => {
    fake = await startFakeGemini();
    fake.script(textReply('hi'));
    const response = await post(fake.url, { contents: [] }, {});
    expect(response.status).toBe(403);
    expect(fake.requests[0]?.apiKey).toBeNull();
    expect(fake.pending()).toBe(1);
  });

  it('folds the chunks into one body for generateContent', async () => {
    fake = await startFakeGemini();
    fake.script(textReply('Hello from the fake', { chunks: 4 }));
    const ai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: fake.url } });
    const response = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' });
    expect(response.text).toBe('Hello from the fake');
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(fake.requests[0]).toMatchObject({ method: 'generateContent', model: 'gemini-2.5-flash' });
  });

  it('reports each chunk as it leaves, in order', async () => {
    const sent: ChunkSentInfo[] = [];
    fake = await startFakeGemini({ onChunkSent: (info) => sent.push(info) });
    fake.script(textReply('one two three', { chunks: 3 }));
    const text = await (await post(fake.url, { contents: [] })).text();
    expect(text.match(/^data: /gm)).toHaveLength(3);
    expect(sent.map((info) => info.index)).toEqual([0, 1, 2]);
    expect(sent[1]?.sentAt).toBeGreaterThanOrEqual(sent[0]?.sentAt ?? 0n);
  });

  it('waits before a delayed step', async () => {
    fake = await startFakeGemini();
    fake.script({ kind: 'delay', ms: 150, step: textReply('late') });
    const started = Date.now();
    await (await post(fake.url, { contents: [] })).text();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('tears down a hanging request on close', async () => {
    fake = await startFakeGemini();
    fake.script({ kind: 'hang' });
    const answer = post(fake.url, { contents: [] }).then(
      () => 'answered',
      () => 'failed',
    );
    await expect.poll(() => fake?.inFlight()).toBe(1);
    await fake.close();
    fake = null;
    expect(await answer).toBe('failed');
  });

  it('echoes the last user text when started with the echo fallback', async () => {
    fake = await startFakeGemini({ fallback: echoStep });
    const ai = new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: fake.url } });
    const stream = await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Ping' });
    let text = '';
    for await (const chunk of stream) text += chunk.text ?? '';
    expect(text).toBe('You said: Ping');
  });
});

describe('splitInto', () => {
  it('splits on characters into at most the asked number of pieces', () => {
    expect(splitInto('abcdef', 3)).toEqual(['ab', 'cd', 'ef']);
    expect(splitInto('ab', 5)).toEqual(['a', 'b']);
    expect(splitInto('😀😀', 2)).toEqual(['😀', '😀']);
    expect(splitInto('', 3)).toEqual(['']);
  });
});
