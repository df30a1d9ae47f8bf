import { costOf as listCost, DEFAULT_MODEL_PRICES, type ModelPrice } from '../../shared/model-prices';

/**
 * What a run's tokens cost, as an estimate from the price table (the person's, Settings → Usage, or the list
 * prices); a model the table does not price is priced as Gemini 2.5 Flash, so a budget never reads as free.
 */
export function costOf(
  model: string,
  inputTokens: number,
  outputTokens: number,
  prices: Readonly<Record<string, ModelPrice>> = DEFAULT_MODEL_PRICES,
): number {
  return (
    listCost(model, inputTokens, outputTokens, prices) ??
    listCost('gemini-2.5-flash', inputTokens, outputTokens, DEFAULT_MODEL_PRICES) ??
    0
  );
}
