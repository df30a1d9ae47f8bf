/** Gemini's list prices in US dollars per million tokens (input, output); a model not listed is priced as Flash. */
const PRICES: ReadonlyArray<[prefix: string, input: number, output: number]> = [
  ['gemini-2.5-flash-lite', 0.1, 0.4],
  ['gemini-2.5-flash', 0.3, 2.5],
  ['gemini-2.5-pro', 1.25, 10],
  ['gemini-3-pro', 2, 12],
  ['gemini-2.0-flash', 0.1, 0.4],
];

/** What a run's tokens cost, as an estimate from list prices (never a bill). */
export function costOf(model: string, inputTokens: number, outputTokens: number): number {
  const [, input, output] = PRICES.find(([prefix]) => model.startsWith(prefix)) ?? ['', 0.3, 2.5];
  return Math.round(((inputTokens * input + outputTokens * output) / 1_000_000) * 1e6) / 1e6;
}
