import { costOf, DEFAULT_MODEL_PRICES, type ModelPrice } from '../../../../shared/model-prices';

/** Tokens a run used, added up over its turns, and the model its result named. */
export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
  model?: string;
}

/** The run's estimated cost by the person's price table (Settings → Usage); null when its model has none. */
export function estimateCost(usage: RunUsage, prices: Readonly<Record<string, ModelPrice>>): number | null {
  return usage.model ? costOf(usage.model, usage.inputTokens, usage.outputTokens, prices) : null;
}

/** Dollars as a person reads an estimate: four decimals under a cent, two above, and no "$0.0000" for a little. */
export const dollars = (cost: number): string =>
  cost > 0 && cost < 0.0001 ? 'under $0.0001' : `$${cost < 0.01 ? cost.toFixed(4) : cost.toFixed(2)}`;

const tokens = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'token' : 'tokens'}`;

/**
 * "1,200 tokens in, 300 out · about $0.0011": the tokens and, when it is known, what they cost. One way to say it
 * wherever a run's use is shown (the run's footer, an agent's row in the chat).
 */
export function tokensAndCost(inputTokens: number, outputTokens: number, cost: number | null): string {
  const words = `${tokens(inputTokens)} in, ${outputTokens.toLocaleString('en')} out`;
  if (cost === null) return words;
  const amount = dollars(cost);
  // "about under $0.0001" says the same thing twice: an amount that is already a bound takes no "about".
  return `${words} · ${amount.startsWith('under') ? amount : `about ${amount}`}`;
}

/** "1,200 tokens in, 300 out · about $0.0011 (gemini-2.5-flash)". */
export function describeUsage(
  usage: RunUsage,
  prices: Readonly<Record<string, ModelPrice>> = DEFAULT_MODEL_PRICES,
): string {
  const words = tokensAndCost(usage.inputTokens, usage.outputTokens, estimateCost(usage, prices));
  return usage.model ? `${words} (${usage.model})` : words;
}
