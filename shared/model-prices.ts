/** What a model's tokens cost, in US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

/**
 * Gemini's list prices (paid tier, prompts up to 200k tokens) as Google published them at
 * https://ai.google.dev/gemini-api/docs/pricing when this table was written (2025). They are the defaults
 * of the price table the person can edit in Settings → Usage: an estimate, never the bill.
 */
export const DEFAULT_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gemini-3-pro-preview': { input: 2, output: 12 },
  'gemini-2.5-pro': { input: 1.25, output: 10 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4 },
  'gemini-2.0-flash': { input: 0.1, output: 0.4 },
  'gemini-2.0-flash-lite': { input: 0.075, output: 0.3 },
};

/**
 * The price of `model` in `prices`: its own row, else the row of the longest model id it starts with (a dated
 * version such as gemini-2.5-flash-001 is priced as gemini-2.5-flash); null when none fits.
 */
export function priceOf(model: string, prices: Readonly<Record<string, ModelPrice>>): ModelPrice | null {
  const exact = prices[model];
  if (exact) return exact;
  const prefix = Object.keys(prices)
    .filter((id) => model.startsWith(`${id}-`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? (prices[prefix] ?? null) : null;
}

/** Dollars for the tokens, or null when the model has no price. Rounded to a millionth of a dollar. */
export function costOf(
  model: string,
  inputTokens: number,
  outputTokens: number,
  prices: Readonly<Record<string, ModelPrice>> = DEFAULT_MODEL_PRICES,
): number | null {
  const price = priceOf(model, prices);
  if (!price) return null;
  return Math.round(inputTokens * price.input + outputTokens * price.output) / 1_000_000;
}
