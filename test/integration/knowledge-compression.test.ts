import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { estimateMessagesTokens, SUMMARY_HEADER } from '../../electron/engine/context-window';
import type { ModelRequest, ModelStreamEvent } from '../../electron/llm/model-client';
import type { Tool } from '../../electron/tools/tool';
import { storeOf } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

const NOW = new Date('2026-11-23T07:00:00.000Z');
let fixture: HostFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const fetchPage: Tool<{ n: number }, { text: string }> = {
  name: 'fetch_page',
  description: 'Fetch a long page.',
  input: z.object({ n: z.number().int() }).strict(),
  output: z.object({ text: z.string() }),
  category: 'query',
  risk: 'low',
  hasSideEffects: false,
  execute: (input) => ({ text: `page ${input.n} `.padEnd(120_000, 'lorem ipsum ') }),
};

/** Like Gemini, the model reports the size of the prompt it was sent. */
const honest =
  (events: ModelStreamEvent[]) =>
  (request: ModelRequest): ModelStreamEvent[] =>
    events.map((event) =>
      event.type === 'finish'
        ? {
            ...event,
            usage: { inputTokens: estimateMessagesTokens(request.messages), outputTokens: 5, totalTokens: 0 },
          }
        : event,
    );

describe('knowledge injection', () => {
  it('is in the first request and in every request after the conversation was compressed', async () => {
    const model = new ScriptedModel(
      ...Array.from({ length: 7 }, (_, n) => honest(call('fetch_page', { n }, `c${n}`))),
      honest(say('Done.')),
    );
    fixture = await openHost(model, { tools: [fetchPage as Tool], now: () => NOW });
    storeOf(fixture.host).tasks.add(
      { id: 't1', description: 'Send the Q4 numbers to Ana', due: '2026-11-25', notes: null },
      NOW.toISOString(),
    );
    await fixture.host.invoke('settings.set', {
      model: 'house-model',
      maxLoopSteps: 15,
      rateLimits: { modelTokensPerHour: 10_000_000 },
    });

    const response = await fixture.host.runToEnd({ prompt: 'Read the seven pages' });
    expect(response.status).toBe('completed');

    const isCompressed = (request: ModelRequest): boolean => {
      const first = request.messages[0]?.parts[0];
      return first?.kind === 'text' && first.text.startsWith(SUMMARY_HEADER);
    };
    const compressed = model.requests.filter(isCompressed);
    expect(compressed.length).toBeGreaterThan(0);
    const block =
      /\[KNOWN CONTEXT\][\s\S]*“Send the Q4 numbers to Ana” due 2026-11-25[\s\S]*\[END KNOWN CONTEXT\]/;
    expect(model.requests[0]?.systemInstruction).toMatch(block);
    for (const request of compressed) expect(request.systemInstruction).toMatch(block);
  });
});
