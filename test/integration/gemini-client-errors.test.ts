import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGeminiClient } from '../../electron/llm/gemini-client';
import type { ModelClient } from '../../electron/llm/model-client';
import { statusReply, textReply } from '../fakes/gemini/script';
import { startFakeGemini } from '../fakes/gemini/server';
import type { FakeGemini } from '../fakes/gemini/types';
import { API_KEY, closedPort, collect, modelRequest, textOf } from './gemini-test-kit';

let fake: FakeGemini;
let client: ModelClient;

beforeEach(async () => {
  fake = await startFakeGemini();
  client = createGeminiClient({
    apiKey: API_KEY,
    baseUrl: fake.url,
    timeoutMs: 10_000,
    idleTimeoutMs: 10_000,
  });
});

/**
 * A client that gives up after 300 ms, for the cases about Gemini's silence. The others keep the patient one: on a
 * loaded machine even an immediate answer can take longer than 300 ms to arrive.
 */
const impatient = (): ModelClient =>
  createGeminiClient({ apiKey: API_KEY, baseUrl: fake.url, timeoutMs: 300, idleTimeoutMs: 300 });

/** Impatient between chunks only, for the cases about a silence after the first: that one may come late. */
const impatientBetweenChunks = (): ModelClient =>
  createGeminiClient({ apiKey: API_KEY, baseUrl: fake.url, timeoutMs: 10_000, idleTimeoutMs: 300 });

afterEach(async () => {
  await fake.close();
});

describe('Gemini client: HTTP errors', () => {
  it('maps 429 to rate_limited with Retry-After, without retrying', async () => {
    fake.script(statusReply(429, { headers: { 'retry-after': '17' } }), textReply('should not be reached'));
    const { error } = await collect(client);
    expect(error?.kind).toBe('rate_limited');
    expect(error?.retryAfterSeconds).toBe(17);
    expect(fake.requests).toHaveLength(1);
  });

  it("takes retryAfterSeconds from the error's RetryInfo when there is no Retry-After", async () => {
    const retryInfo = { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '22.4s' };
    fake.script(statusReply(429, { message: 'Quota exceeded.', details: [retryInfo] }));
    const { error } = await collect(client);
    expect(error?.kind).toBe('rate_limited');
    expect(error?.retryAfterSeconds).toBe(23);
    expect(error?.message).toContain('Quota exceeded.');
  });

  it('maps 500 to server_error, without retrying', async () => {
    fake.script(
      statusReply(500, { message: 'Internal error encountered.' }),
      textReply('should not be reached'),
    );
    const { error } = await collect(client);
    expect(error?.kind).toBe('server_error');
    expect(error?.message).toContain('HTTP 500');
    expect(fake.requests).toHaveLength(1);
  });

  it.each([401, 403])('maps %i to a rejected API key', async (status) => {
    fake.script(statusReply(status));
    const { error } = await collect(client);
    expect(error?.kind).toBe('key_rejected');
    expect(error?.message).toContain('Gemini rejected the API key');
    expect(error?.message).toContain(`HTTP ${status}`);
    // Google's own sentence and ours stay two sentences, whatever Google's ends with.
    expect(error?.message).toMatch(/[.!?…] Check the key in Settings → Connections/);
  });

  it('treats a 400 with reason API_KEY_INVALID, as Google sends it, as a rejected key', async () => {
    const reason = { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' };
    fake.script(
      statusReply(400, { message: 'API key not valid. Please pass a valid API key.', details: [reason] }),
    );
    const { error } = await collect(client);
    expect(error?.kind).toBe('key_rejected');
    expect(error?.message).toContain('Gemini rejected the API key');
  });

  it('maps 404 to bad_response naming the model', async () => {
    fake.script(statusReply(404));
    const { error } = await collect(client, modelRequest({ model: 'gemini-0-nope' }));
    expect(error?.kind).toBe('bad_response');
    expect(error?.message).toContain('“gemini-0-nope”');
    expect(error?.message).toContain('HTTP 404');
  });

  it('maps another 400 to bad_response with the status and what Gemini said', async () => {
    fake.script(statusReply(400, { message: 'Invalid JSON payload received.' }));
    const { error } = await collect(client);
    expect(error?.kind).toBe('bad_response');
    expect(error?.message).toBe('Gemini rejected the request (HTTP 400): Invalid JSON payload received.');
  });

  it('never repeats the API key, even when the server echoes it', async () => {
    fake.script(statusReply(400, { message: `Bad key ${API_KEY} in request` }));
    const { error } = await collect(client);
    expect(error?.kind).toBe('bad_response');
    expect(error?.message).not.toContain(API_KEY);
    expect(error?.message).toContain('[redacted]');
  });
});

describe('Gemini client: broken connections', () => {
  it('times out when Gemini accepts the request and never answers', async () => {
    fake.script({ kind: 'hang' });
    const started = Date.now();
    const { error } = await collect(impatient());
    expect(error?.kind).toBe('timeout');
    expect(error?.message).toMatch(/did not start answering within 300 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('times out when Gemini goes silent between chunks', async () => {
    fake.script({ kind: 'stall', chunks: [{ text: 'Let me check' }] });
    const { events, error } = await collect(impatientBetweenChunks());
    expect(textOf(events)).toBe('Let me check');
    expect(error?.kind).toBe('timeout');
    expect(error?.message).toMatch(/stopped answering/);
  });

  it('does not count the time the caller spends on an event against Gemini', async () => {
    fake.script(textReply('One two three four', { chunks: 2 }));
    const slowReader = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 500));
    const { events, error } = await collect(impatientBetweenChunks(), modelRequest(), slowReader);
    expect(error).toBeNull();
    expect(textOf(events)).toBe('One two three four');
  });

  it('reports a cut stream as unavailable, after the text that did arrive', async () => {
    fake.script({ kind: 'cut', chunks: [{ text: 'The first half' }] }, textReply('should not be reached'));
    const { events, error } = await collect(client);
    expect(textOf(events)).toBe('The first half');
    expect(error?.kind).toBe('unavailable');
    expect(error?.message).toBe('The connection to Gemini was cut mid-answer. Try again.');
    expect(fake.requests).toHaveLength(1);
  });

  it('does not let the SDK reconnect on its own after a cut', async () => {
    fake.script(
      { kind: 'cut', chunks: [{ text: 'Part one', continuationToken: 'resume-1' }] },
      textReply('Part two'),
    );
    const { events, error } = await collect(client);
    expect(textOf(events)).toBe('Part one');
    expect(error?.kind).toBe('unavailable');
    expect(fake.requests).toHaveLength(1);
    expect(fake.pending()).toBe(1);
  });

  it('reports malformed JSON as bad_response', async () => {
    fake.script({ kind: 'malformed' });
    const { error } = await collect(client);
    expect(error?.kind).toBe('bad_response');
    expect(error?.message).toMatch(/not valid JSON/);
  });

  it('reports a refused connection as unavailable', async () => {
    const port = await closedPort();
    const offline = createGeminiClient({ apiKey: API_KEY, baseUrl: `http://127.0.0.1:${port}` });
    const { error } = await collect(offline);
    expect(error?.kind).toBe('unavailable');
    expect(error?.message).toBe(
      `Could not connect to Gemini at 127.0.0.1:${port}: the connection was refused.`,
    );
  });
});

describe('Gemini client: the caller', () => {
  it('reports cancelled when the signal aborts mid-request', async () => {
    fake.script({ kind: 'stall', chunks: [{ text: 'Working' }] });
    const controller = new AbortController();
    const patient = createGeminiClient({
      apiKey: API_KEY,
      baseUrl: fake.url,
      timeoutMs: 5_000,
      idleTimeoutMs: 5_000,
    });
    const { events, error } = await collect(patient, modelRequest({ signal: controller.signal }), () => {
      controller.abort();
    });
    expect(events).toEqual([{ type: 'text', text: 'Working' }]);
    expect(error?.kind).toBe('cancelled');
  });

  it('closes the connection when the caller stops reading early', async () => {
    const patient = createGeminiClient({
      apiKey: API_KEY,
      baseUrl: fake.url,
      timeoutMs: 5_000,
      idleTimeoutMs: 5_000,
    });
    fake.script({ kind: 'stall', chunks: [{ text: 'First' }] });
    const seen: string[] = [];
    for await (const event of patient.stream(modelRequest())) {
      if (event.type === 'text') seen.push(event.text);
      break;
    }
    expect(seen).toEqual(['First']);
    await expect.poll(() => fake.inFlight(), { timeout: 1_000 }).toBe(0);
  });

  it('reports cancelled without a request when the signal is already aborted', async () => {
    const { error } = await collect(client, modelRequest({ signal: AbortSignal.abort() }));
    expect(error?.kind).toBe('cancelled');
    expect(fake.requests).toHaveLength(0);
  });

  it('reports not_configured without a request when there is no API key', async () => {
    const unconfigured = createGeminiClient({ apiKey: '  ', baseUrl: fake.url });
    const { error } = await collect(unconfigured);
    expect(error?.kind).toBe('not_configured');
    expect(error?.message).toContain('GEMINI_API_KEY');
    expect(fake.requests).toHaveLength(0);
  });
});

describe('Gemini client: secrets', () => {
  it('keeps the API key out of every error message', async () => {
    fake.script(
      statusReply(429),
      statusReply(500),
      statusReply(401),
      statusReply(404),
      { kind: 'hang' },
      { kind: 'cut', chunks: [{ text: 'x' }] },
      { kind: 'malformed' },
      { kind: 'reply', chunks: [{ blockReason: 'SAFETY' }] },
    );
    const messages: string[] = [];
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const { error } = await collect(client);
      messages.push(error?.message ?? 'no error');
    }
    expect(messages).not.toContain('no error');
    for (const message of messages) expect(message).not.toContain(API_KEY);
    expect(fake.pending()).toBe(0);
  });
});
