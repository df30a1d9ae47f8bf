import { afterEach, describe, expect, it } from 'vitest';
import { createGeminiClient } from '../../electron/llm/gemini-client';
import type { RunEvent } from '../../shared/contract';
import { startFakeGemini } from '../fakes/gemini/server';
import type { FakeGemini } from '../fakes/gemini/types';
import { openHost, type HostFixture } from '../support/host-fixture';

let gemini: FakeGemini;
let fixture: HostFixture;
afterEach(async () => {
  await fixture.close();
  await gemini.close();
});

const thoughtfulReply = () =>
  gemini.script({
    kind: 'reply',
    chunks: [
      { thought: 'The person wants a greeting; no tool is needed.' },
      { text: 'Hello!', finishReason: 'STOP', usage: { prompt: 5, output: 3 } },
    ],
  });

describe('thinking events (spec 004: thought summaries, a setting off by default)', () => {
  it('are neither asked for nor sent while the setting is off, and never become answer text', async () => {
    gemini = await startFakeGemini();
    fixture = await openHost(createGeminiClient({ apiKey: 'k', baseUrl: gemini.url }));
    expect((await fixture.host.invoke('settings.get', {})).showThinking).toBe(false);
    thoughtfulReply();
    const events: RunEvent[] = [];
    const done = await fixture.host.runToEnd({ prompt: 'Say hello' }, (event) => events.push(event));
    expect(done.summary).toBe('Hello!');
    expect(events.some((event) => event.type === 'thinking')).toBe(false);
    expect(JSON.stringify(gemini.requests[0]?.body)).not.toContain('includeThoughts');
  });

  it('are asked for and streamed once the person switches them on', async () => {
    gemini = await startFakeGemini();
    fixture = await openHost(createGeminiClient({ apiKey: 'k', baseUrl: gemini.url }));
    await fixture.host.invoke('settings.set', { showThinking: true });
    thoughtfulReply();
    const events: RunEvent[] = [];
    const done = await fixture.host.runToEnd({ prompt: 'Say hello' }, (event) => events.push(event));
    expect(done.summary).toBe('Hello!');
    expect(events.filter((event) => event.type === 'thinking')).toEqual([
      expect.objectContaining({ text: 'The person wants a greeting; no tool is needed.' }),
    ]);
    expect(JSON.stringify(gemini.requests[0]?.body)).toContain('"includeThoughts":true');
  });
});
