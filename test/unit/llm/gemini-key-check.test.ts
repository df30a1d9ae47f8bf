import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkGeminiKey, listGeminiModels } from '../../../electron/llm/gemini-models';
import { startFakeGemini } from '../../fakes/gemini/server';
import type { FakeGemini } from '../../fakes/gemini/types';

describe('checkGeminiKey', () => {
  let gemini: FakeGemini;
  let silent: Server;
  let silentUrl: string;

  beforeAll(async () => {
    gemini = await startFakeGemini();
    // Takes the request and never answers, as a Gemini that hangs would.
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
    await gemini.close();
  });

  it('asks for one page of the models list: a key Gemini takes is accepted, one it refuses is rejected', async () => {
    const before = gemini.models.requests;
    expect(await checkGeminiKey({ apiKey: 'AIza-good', baseUrl: gemini.url })).toBe('accepted');
    expect(gemini.models.requests).toBe(before + 1);
    gemini.models.isKeyRejected = true;
    try {
      expect(await checkGeminiKey({ apiKey: 'not a key', baseUrl: gemini.url })).toBe('rejected');
    } finally {
      gemini.models.isKeyRejected = false;
    }
  });

  it('cannot check a key while Gemini is down, refuses the connection, or does not answer in time', async () => {
    gemini.models.isDown = true;
    try {
      expect(await checkGeminiKey({ apiKey: 'AIza-good', baseUrl: gemini.url })).toBe('unchecked');
    } finally {
      gemini.models.isDown = false;
    }
    expect(await checkGeminiKey({ apiKey: 'AIza-good', baseUrl: 'http://127.0.0.1:9' })).toBe('unchecked');
    const started = Date.now();
    expect(await checkGeminiKey({ apiKey: 'AIza-good', baseUrl: silentUrl }, 300)).toBe('unchecked');
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('a key with a character no header can carry', () => {
  let gemini: FakeGemini;
  beforeAll(async () => {
    gemini = await startFakeGemini();
  });
  afterAll(async () => {
    await gemini.close();
  });

  it('is said to be the key, not an unreachable Gemini, and is rejected rather than left unchecked', async () => {
    for (const apiKey of ['AIza한-key-with-a-Korean-letter', 'AIza😀-emoji-key', 'AIza\u2028line']) {
      const before = gemini.models.requests;
      expect(await checkGeminiKey({ apiKey, baseUrl: gemini.url })).toBe('rejected');
      const failure = await listGeminiModels({ apiKey, baseUrl: gemini.url }).catch(
        (error: unknown) => error,
      );
      expect(failure).toMatchObject({ kind: 'key_rejected' });
      expect((failure as Error).message).toMatch(/^The Gemini key has a character no key has/);
      expect((failure as Error).message).not.toContain(apiKey);
      expect(gemini.models.requests).toBe(before);
    }
  });
});
