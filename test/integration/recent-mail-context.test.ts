import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/gemini/server';
import type { FakeGemini } from '../fakes/gemini/types';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { connectGoogle, googleEnv } from '../support/connect';
import { openHost, type HostFixture } from '../support/host-fixture';
import { intentAnalysis } from '../support/intent-analysis';
import { lastToolResult } from '../support/memory-kit';
import { call, say, ScriptedModel } from '../support/scripted-model';

const NOW = new Date('2026-11-23T07:00:00.000Z');
let gemini: FakeGemini;
let google: FakeGoogle;
let fixture: HostFixture;

afterEach(async () => {
  await fixture.close();
  await google.close();
  await gemini.close();
});

async function start(model: ScriptedModel): Promise<void> {
  gemini = await startFakeGemini();
  google = await startFakeGoogle();
  fixture = await openHost(model, {
    env: { ...googleEnv(google), DEPUTY_GEMINI_BASE_URL: gemini.url },
    now: () => NOW,
  });
  google.gmail.addMessage({
    from: 'Air Example <noreply@air.example>',
    to: 'me@example.com',
    subject: 'Your boarding pass',
    text: 'Gate 42, seat 14C. Boarding at 09:10.',
  });
  await connectGoogle(fixture.host);
}

interface ContextResult {
  results: { source: string; title: string; label: string }[];
}

const askAboutFlights = () =>
  call('query_context', {
    type: 'mail',
    query: 'flights',
    analysis: intentAnalysis({ intent: 'find_mail' }),
  });

describe('recent mail found by meaning (opt-in, Settings → Data)', () => {
  it('is off by default: no mail is kept or embedded, and a search by meaning finds none', async () => {
    const model = new ScriptedModel(askAboutFlights(), say('Nothing.'));
    await start(model);

    expect((await fixture.host.invoke('settings.get', {})).embedRecentMail).toBe(false);
    await fixture.host.context.refresh();
    expect(await fixture.host.invoke('context.stats', {})).toMatchObject({ recentMail: 0, vectors: 0 });

    await fixture.host.runToEnd({ prompt: 'Anything in my mail about flights?' });
    const result = lastToolResult<ContextResult>(model.requests[1]);
    expect(result.results.map((item) => item.title)).not.toContain('Your boarding pass');
  });

  it('turned on, the subject and snippet are embedded and found by meaning, labelled as the mail they are', async () => {
    const model = new ScriptedModel(askAboutFlights(), say('Your boarding pass is there.'));
    await start(model);
    await fixture.host.invoke('settings.set', { embedRecentMail: true });

    await fixture.host.context.refresh();
    expect(await fixture.host.invoke('context.stats', {})).toMatchObject({ recentMail: 1, vectors: 1 });

    await fixture.host.runToEnd({ prompt: 'Anything in my mail about flights?' });
    const result = lastToolResult<ContextResult>(model.requests[1]);
    expect(result.results).toContainEqual(
      expect.objectContaining({
        source: 'gmail',
        title: 'Your boarding pass',
        label: 'a mail from Air Example <noreply@air.example> (“Your boarding pass”)',
      }),
    );
  });

  it('turned off again, the kept mail and its vectors are deleted at once', async () => {
    await start(new ScriptedModel());
    await fixture.host.invoke('settings.set', { embedRecentMail: true });
    await fixture.host.context.refresh();
    expect(await fixture.host.invoke('context.stats', {})).toMatchObject({ recentMail: 1, vectors: 1 });

    await fixture.host.invoke('settings.set', { embedRecentMail: false });

    expect(await fixture.host.invoke('context.stats', {})).toMatchObject({ recentMail: 0, vectors: 0 });
  });
});
