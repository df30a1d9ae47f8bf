import { afterEach, describe, expect, it } from 'vitest';
import type { ModelsListOutput, RunRecord, Settings, UsageDailyOutput } from '../../shared/contract';
import { startFakeGemini } from '../fakes/gemini/server';
import type { FakeGemini } from '../fakes/gemini/types';
import { DEFAULT_FAKE_MODELS } from '../fakes/gemini/models';
import { jsonOf, serveApi, type ApiServer } from '../support/api-server';
import { openHost, type HostFixture } from '../support/host-fixture';
import { say, ScriptedModel } from '../support/scripted-model';

let gemini: FakeGemini | null = null;
let fixture: HostFixture | null = null;
let served: ApiServer | null = null;
afterEach(async () => {
  await served?.server.close();
  await fixture?.close();
  await gemini?.close();
  served = fixture = gemini = null;
});

const NOW = new Date('2026-11-23T10:00:00.000Z');

async function open(env: Record<string, string> = {}, now = () => NOW) {
  gemini = await startFakeGemini();
  fixture = await openHost(new ScriptedModel(say('Done.'), say('Done again.'), say('And again.')), {
    env: { DEPUTY_GEMINI_BASE_URL: gemini.url, ...env },
    now,
  });
  served = await serveApi(fixture, 'token-models');
  return { host: fixture.host, json: jsonOf(served.api), gemini };
}

describe('the models the key can use (Settings → General)', () => {
  it('lists the chat models through the real client, page by page, and leaves embedding-only ones out', async () => {
    const [flashModel] = DEFAULT_FAKE_MODELS;
    if (!flashModel) throw new Error('the fake lists models');
    const many = Array.from({ length: 60 }, (_, n) => ({
      ...flashModel,
      name: `models/gemini-test-${n}`,
      displayName: `Test ${n}`,
    }));
    const { json, gemini: fake } = await open();
    fake.models.list = [...DEFAULT_FAKE_MODELS, ...many];
    const { status, body } = await json<ModelsListOutput>('/api/models');
    expect(status).toBe(200);
    expect(body.note).toBeNull();
    const ids = body.models.map((model) => model.id);
    expect(ids.slice(0, 4)).toEqual([
      'gemini-2.5-flash',
      'gemini-2.5-pro',
      'gemini-2.5-flash-lite',
      'gemini-2.0-flash',
    ]);
    expect(ids).toContain('gemini-test-59');
    expect(ids).not.toContain('gemini-embedding-001');
    expect(body.models[0]).toMatchObject({ displayName: 'Gemini 2.5 Flash', inputTokenLimit: 1_048_576 });
    // 65 models in pages of 50: two requests. Asked again soon, the list is not fetched again.
    expect(fake.models.requests).toBe(2);
    await json('/api/models');
    expect(fake.models.requests).toBe(2);
    await json('/api/models?refresh=true');
    expect(fake.models.requests).toBe(4);
  });

  it('refuses a model the list does not have, in words, and keeps the saved one', async () => {
    const { json } = await open();
    const typo = await json<{ error: { code: string; message: string } }>('/api/settings', {
      method: 'PUT',
      body: JSON.stringify({ model: 'gemini-2.5-flsh' }),
    });
    expect(typo.status).toBe(400);
    expect(typo.body.error.message).toContain(
      '“gemini-2.5-flsh” is not one of the models your Gemini key can use',
    );
    expect((await json<Settings>('/api/settings')).body.model).toBe('gemini-2.5-flash');
    const picked = await json<Settings>('/api/settings', {
      method: 'PUT',
      body: JSON.stringify({ model: 'gemini-2.5-pro' }),
    });
    expect(picked.status).toBe(200);
    expect(picked.body.model).toBe('gemini-2.5-pro');
  });

  it('with a key Gemini refuses, says the key was refused, not that Gemini could not be reached', async () => {
    const { json, gemini: fake } = await open();
    fake.models.isKeyRejected = true;
    const { body } = await json<ModelsListOutput>('/api/models');
    expect(body.models).toEqual([]);
    expect(body.note).toBe(
      'Gemini didn’t accept your API key, so the models it can use are not known. Check the key in Settings → Connections.',
    );
  });

  it('with Gemini unreachable, says so and still accepts the model the person keeps', async () => {
    const { json, gemini: fake } = await open();
    fake.models.isDown = true;
    const { body } = await json<ModelsListOutput>('/api/models');
    expect(body.models).toEqual([]);
    expect(body.note).toBe(
      'Gemini could not be reached to list the models your key can use. You can keep the model you have.',
    );
    const kept = await json<Settings>('/api/settings', {
      method: 'PUT',
      body: JSON.stringify({ model: 'gemini-2.5-pro' }),
    });
    expect(kept.status).toBe(200);
    // Offline, the next saves do not wait for the network again within the minute; Refresh asks again.
    const asked = fake.models.requests;
    await json('/api/models');
    expect(fake.models.requests).toBe(asked);
    fake.models.isDown = false;
    const refreshed = await json<ModelsListOutput>('/api/models?refresh=true');
    expect(refreshed.body.note).toBeNull();
    expect(fake.models.requests).toBe(asked + 1);
  });

  it('with no key, lists nothing and says where to add one', async () => {
    const { json } = await open({ GEMINI_API_KEY: '' });
    const { body } = await json<ModelsListOutput>('/api/models');
    expect(body).toEqual({
      models: [],
      note: 'Deputy needs a Gemini API key. Add one in Settings → Connections (or set GEMINI_API_KEY before starting Deputy).',
    });
  });
});

describe('usage and cost', () => {
  it('a stored run carries its tokens; the days add them up, priced by the table the person edits', async () => {
    let now = new Date('2026-11-22T22:30:00.000Z');
    const { host, json } = await open({}, () => now);
    await json('/api/settings', { method: 'PUT', body: JSON.stringify({ timezone: 'Europe/Paris' }) });
    // 23:30 in Paris on the 22nd, then 00:30 and 09:00 on the 23rd.
    const first = await host.runToEnd({ prompt: 'one' });
    now = new Date('2026-11-22T23:30:00.000Z');
    await host.runToEnd({ prompt: 'two', threadId: first.threadId });
    now = new Date('2026-11-23T08:00:00.000Z');
    await host.runToEnd({ prompt: 'three', threadId: first.threadId });

    const thread = await json<{ runs: RunRecord[] }>(`/api/threads/${first.threadId}`);
    const used = thread.body.runs.map((run) => run.usage);
    expect(used).toHaveLength(3);
    for (const usage of used) expect(usage?.inputTokens).toBeGreaterThan(0);

    const daily = await json<UsageDailyOutput>('/api/usage/daily?days=7');
    expect(daily.status).toBe(200);
    expect(daily.body.timezone).toBe('Europe/Paris');
    expect(daily.body.days.map((day) => day.day)).toEqual(['2026-11-23', '2026-11-22']);
    const tokens = (run?: { inputTokens: number; outputTokens: number }) => run?.inputTokens ?? 0;
    expect(daily.body.days[0]?.inputTokens).toBe(tokens(used[1]) + tokens(used[2]));
    expect(daily.body.total.inputTokens).toBe(used.reduce((sum, run) => sum + tokens(run), 0));
    const before = daily.body.total.cost ?? 0;
    expect(before).toBeGreaterThan(0);

    // Ten times the price of input and output: ten times the cost.
    const settings = (await json<Settings>('/api/settings')).body;
    const flash = settings.modelPrices['gemini-2.5-flash'] ?? { input: 0, output: 0 };
    await json('/api/settings', {
      method: 'PUT',
      body: JSON.stringify({
        modelPrices: {
          ...settings.modelPrices,
          'gemini-2.5-flash': { input: flash.input * 10, output: flash.output * 10 },
        },
      }),
    });
    const after = await json<UsageDailyOutput>('/api/usage/daily');
    expect(after.body.total.cost).toBeCloseTo(before * 10, 5);

    // A model the table does not price: its tokens count, its cost is said to be unknown.
    await json('/api/settings', { method: 'PUT', body: JSON.stringify({ modelPrices: {} }) });
    const unpriced = await json<UsageDailyOutput>('/api/usage/daily');
    expect(unpriced.body.total.cost).toBeNull();
    expect(unpriced.body.unpricedModels).toEqual(['gemini-2.5-flash']);
  });

  it('refuses a negative price or a bad day count with a 400 in words, and changes nothing', async () => {
    const { json } = await open();
    const negative = await json<{ error: { code: string; message: string } }>('/api/settings', {
      method: 'PUT',
      body: JSON.stringify({ modelPrices: { 'gemini-2.5-flash': { input: -1, output: 2 } } }),
    });
    expect(negative.status).toBe(400);
    expect(negative.body.error.message).toContain('a price cannot be negative');
    expect((await json<Settings>('/api/settings')).body.modelPrices['gemini-2.5-flash']).toEqual({
      input: 0.3,
      output: 2.5,
    });
    expect((await json('/api/usage/daily?days=0')).status).toBe(400);
    expect((await json('/api/usage/daily?days=abc')).status).toBe(400);
  });
});
