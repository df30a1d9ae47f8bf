/** Tokens a run used, added up over its turns, and the model its result named. */
export interface RunUsage {
  inputTokens: number;
  outputTokens: number;
  model?: string;
}

/**
 * Google's list prices in US dollars per million tokens (paid tier, prompts up to 200k tokens), used for an
 * estimate only: the bill is Google's. A model not listed gets no cost, only tokens.
 */
export const DEFAULT_PRICES: Record<string, { input: number; output: number }> = {
  'gemini-2.5-pro': { input: 1.25, output: 10 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4 },
};

export function estimateCost(usage: RunUsage, prices = DEFAULT_PRICES): number | null {
  const price = usage.model ? prices[usage.model] : undefined;
  if (!price) return null;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}

const tokens = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'token' : 'tokens'}`;

/** "1,200 tokens in, 300 out · about $0.0011 (gemini-2.5-flash)". */
export function describeUsage(usage: RunUsage): string {
  const words = `${tokens(usage.inputTokens)} in, ${usage.outputTokens.toLocaleString('en')} out`;
  const cost = estimateCost(usage);
  if (cost === null) return usage.model ? `${words} (${usage.model})` : words;
  const dollars = cost < 0.01 ? cost.toFixed(4) : cost.toFixed(2);
  return `${words} · about $${dollars} (${usage.model})`;
}
