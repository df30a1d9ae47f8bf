import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DEFAULT_CONTEXT,
  estimateMessagesTokens,
  SUMMARY_HEADER,
} from '../../electron/engine/context-window';
import { parseRunState } from '../../electron/engine/run-state';
import { contextWindowOf } from '../../electron/llm/model-config';
import type { Tool } from '../../electron/tools/tool';
import type { ModelRequest, ModelStreamEvent } from '../../electron/llm/model-client';
import { storeOf } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

let fixture: HostFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const PAGE_CHARS = 120_000;
const fetchPage: Tool<{ n: number }, { text: string }> = {
  name: 'fetch_page',
  description: 'Fetch a long page.',
  input: z.object({ n: z.number().int() }).strict(),
  output: z.object({ text: z.string() }),
  category: 'query',
  risk: 'low',
  hasSideEffects: false,
  execute: (input) => ({ text: `page ${input.n} `.padEnd(PAGE_CHARS, 'lorem ipsum ') }),
};

// Like Gemini, the model reports the prompt it was sent (usage-based counting relies on it).
const honest =
  (events: ModelStreamEvent[]) =>
  (request: ModelRequest): ModelStreamEvent[] =>
    events.map((event) =>
      event.type === 'finish'
        ? {
            ...event,
            usage: {
              inputTokens: estimateMessagesTokens(request.messages),
              outputTokens: 5,
              totalTokens: estimateMessagesTokens(request.messages) + 5,
            },
          }
        : event,
    );

describe('context compression', () => {
  it('keeps a long tool loop under 80% of the window, keeping the prompt and the current turn, and checkpoints the summary', async () => {
    const pages = 7;
    const model = new ScriptedModel(
      ...Array.from({ length: pages }, (_, n) => honest(call('fetch_page', { n }, `c${n}`))),
      honest(say('Read them all.')),
    );
    fixture = await openHost(model, { tools: [fetchPage as Tool] });
    // An unknown model gets the conservative window, so a few long pages reach the threshold.
    await fixture.host.invoke('settings.set', {
      model: 'house-model',
      maxLoopSteps: 15,
      rateLimits: { modelTokensPerHour: 10_000_000 },
    });
    const response = await fixture.host.runToEnd({ prompt: 'Read the seven pages' });
    expect(response).toMatchObject({ status: 'completed', summary: 'Read them all.' });

    const limit = DEFAULT_CONTEXT.threshold * contextWindowOf('house-model');
    for (const request of model.requests) {
      expect(estimateMessagesTokens(request.messages)).toBeLessThan(limit);
    }
    const compressed = model.requests.filter((request) => {
      const first = request.messages[0]?.parts[0];
      return first?.kind === 'text' && first.text.startsWith(SUMMARY_HEADER);
    });
    expect(compressed.length).toBeGreaterThan(0);
    const last = model.requests.at(-1);
    // The prompt survives word for word; the current turn (the last call and its result) is kept verbatim.
    expect(JSON.stringify(last?.messages[0])).toContain('Read the seven pages');
    expect(last?.messages.at(-2)?.parts[0]).toMatchObject({ kind: 'call', callId: `c${pages - 1}` });
    expect(last?.messages.at(-1)?.parts[0]).toMatchObject({ kind: 'result', callId: `c${pages - 1}` });

    const store = storeOf(fixture.host);
    const events = store.events.runtimeByRun(response.runId).filter((event) => event.type === 'compression');
    expect(events.length).toBeGreaterThan(0);
    const state = parseRunState(store.checkpoints.load(response.runId)?.state);
    expect(state?.compaction?.summary).toContain('fetch_page');
    expect(state?.compaction?.droppedMessages).toBeGreaterThan(0);
  });

  it('keeps the knowledge block (tasks due soon, next events, people) in every request after a compression', async () => {
    const now = new Date('2026-11-23T07:00:00.000Z');
    const model = new ScriptedModel(
      ...Array.from({ length: 7 }, (_, n) => honest(call('fetch_page', { n }, `c${n}`))),
      honest(say('Done.')),
    );
    fixture = await openHost(model, { tools: [fetchPage as Tool], now: () => now });
    storeOf(fixture.host).tasks.add(
      { id: 't1', description: 'Send the Q4 numbers to Ana', due: '2026-11-25', notes: null },
      now.toISOString(),
    );
    await fixture.host.invoke('settings.set', {
      model: 'house-model',
      maxLoopSteps: 15,
      rateLimits: { modelTokensPerHour: 10_000_000 },
    });

    const response = await fixture.host.runToEnd({ prompt: 'Read the seven pages' });
    expect(response.status).toBe('completed');

    const compressed = model.requests.filter((request) => {
      const first = request.messages[0]?.parts[0];
      return first?.kind === 'text' && first.text.startsWith(SUMMARY_HEADER);
    });
    expect(compressed.length).toBeGreaterThan(0);
    const block = /\[YOUR OPEN TASKS DUE SOON\]\n- “Send the Q4 numbers to Ana” due 2026-11-25/;
    expect(model.requests[0]?.systemInstruction).toMatch(block);
    for (const request of compressed) expect(request.systemInstruction).toMatch(block);
  });
});
