import type { Rng } from '../chaos/prng';
import type { FakeStep } from '../fakes/gemini/types';
import { pick, randomJson } from './values';

const TOOLS = [
  'add_task',
  'list_tasks',
  'save_memory',
  'search_memory',
  'gmail_send',
  'no_such_tool',
  'complete_task',
];

/**
 * The model's side of the fuzz: Gemini answers with text, with tool calls whose arguments are noise, or
 * with failures (5xx, 429, a malformed stream, a blocked prompt). Model output is outside input too.
 */
export function fuzzModelStep(rng: Rng): FakeStep {
  const usage = { prompt: 20, output: 5 };
  const roll = rng.next();
  if (roll < 0.5) return { kind: 'reply', chunks: [{ text: 'Done.', finishReason: 'STOP', usage }] };
  if (roll < 0.8) {
    const args = rng.chance(0.5) ? { description: 'Buy milk', confidence: 0.95 } : randomJson(rng);
    return {
      kind: 'reply',
      chunks: [
        {
          calls: [{ name: pick(rng, TOOLS), args: args as Record<string, unknown> }],
          finishReason: 'STOP',
          usage,
        },
      ],
    };
  }
  if (roll < 0.85) return { kind: 'malformed' };
  if (roll < 0.9) return { kind: 'status', status: pick(rng, [429, 500, 503, 400]) };
  if (roll < 0.95) return { kind: 'reply', chunks: [{ blockReason: 'SAFETY' }] };
  return { kind: 'cut', chunks: [{ text: 'Half an ans' }] };
}
