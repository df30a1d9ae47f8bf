import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../electron/server/http-server';
import { startFakeGemini } from '../fakes/gemini/server';
import type { FakeGemini } from '../fakes/gemini/types';
import { serveApi } from '../support/api-server';
import { openHost, type HostFixture } from '../support/host-fixture';
import { ScriptedModel } from '../support/scripted-model';

const TOKEN = 'gemini-key-check-token';
const KEY = 'AIzaSyC-gemini-key-check-0000000000000000';

describe('PUT /api/connections/gemini checks the key with Gemini before keeping it', () => {
  let gemini: FakeGemini;
  const opened: { fixture: HostFixture; server: RunningServer }[] = [];

  beforeAll(async () => {
    gemini = await startFakeGemini();
  });
  afterEach(async () => {
    gemini.models.isKeyRejected = false;
    for (const { fixture, server } of opened.splice(0)) {
      await server.close();
      await fixture.close();
    }
  });
  afterAll(async () => {
    await gemini.close();
  });

  async function putKey(baseUrl: string): Promise<{ response: Response; fixture: HostFixture }> {
    const fixture = await openHost(new ScriptedModel(), {
      env: { GEMINI_API_KEY: '', DEPUTY_GEMINI_BASE_URL: baseUrl },
    });
    const { server, api } = await serveApi(fixture, TOKEN);
    opened.push({ fixture, server });
    const response = await api('/api/connections/gemini', {
      method: 'PUT',
      body: JSON.stringify({ apiKey: KEY }),
    });
    return { response, fixture };
  }

  it('keeps a key Gemini takes, with nothing more to say', async () => {
    const { response, fixture } = await putKey(gemini.url);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: { name: 'gemini', state: 'connected' } });
    expect(body).not.toHaveProperty('notice');
    expect(fixture.host.vault.get('gemini.apiKey')).toBe(KEY);
  });

  it('answers 400 for a key Gemini refuses, keeps nothing, and never says the key back', async () => {
    gemini.models.isKeyRejected = true;
    const { response, fixture } = await putKey(gemini.url);
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toContain('Gemini did not accept this key, so it was not saved.');
    expect(text).not.toContain(KEY);
    expect(fixture.host.vault.has('gemini.apiKey')).toBe(false);
    expect(fixture.errors).toEqual([]);
  });

  it('keeps a key it could not check (Gemini unreachable) and says so', async () => {
    const { response, fixture } = await putKey('http://127.0.0.1:9');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { notice?: string };
    expect(body.notice).toContain('Gemini could not be reached to check it');
    expect(fixture.host.vault.get('gemini.apiKey')).toBe(KEY);
  });
});
