import { GeminiModelId } from '../../shared/contract/settings';
import { quoted } from '../../shared/quote-words';

/** Which Gemini model Deputy talks to, and how, read from the environment. */
export interface ModelConfig {
  /** null when GEMINI_API_KEY is unset or blank: the client then fails every call with `not_configured`. */
  apiKey: string | null;
  model: string;
  /** null means Google's own endpoint; tests and demos point this at a local fake. */
  baseUrl: string | null;
}

export const DEFAULT_MODEL = 'gemini-2.5-flash';

/** Throws on a DEPUTY_MODEL that is not a model id: the host checks it as it starts, so it refuses to start. */
export function readModelConfig(env: Record<string, string | undefined>): ModelConfig {
  return {
    apiKey: nonBlank(env.GEMINI_API_KEY),
    model: modelFromEnv(env.DEPUTY_MODEL),
    baseUrl: nonBlank(env.DEPUTY_GEMINI_BASE_URL),
  };
}

/**
 * DEPUTY_MODEL, or the default when it is unset or blank. A name that is not a model id ("gemini pro!") is refused
 * in words naming the variable, as Settings and agent files refuse it: Gemini's client would send it to an
 * address Gemini does not have, and every run would fail as if Gemini could not be reached.
 */
function modelFromEnv(value: string | undefined): string {
  const model = nonBlank(value);
  if (model === null) return DEFAULT_MODEL;
  if (!GeminiModelId.safeParse(model).success)
    throw new Error(
      `DEPUTY_MODEL must be a Gemini model id, such as ${DEFAULT_MODEL} or models/gemini-2.5-pro, not ${quoted(model)}.`,
    );
  return model;
}

function nonBlank(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** Within a family, lite is the cheapest and fastest, pro the strongest. */
export type ModelTier = 'lite' | 'flash' | 'pro';

/** What routing and context management need to know about a model. */
export interface ModelProfile {
  /** Models of one family share a tool-calling format and may stand in for each other within a run. */
  family: string;
  tier: ModelTier;
  /** Input tokens the model accepts. */
  contextWindow: number;
}

/** The Gemini models Deputy knows; any other name is still used as asked, with cautious defaults. */
export const MODEL_PROFILES: Readonly<Record<string, ModelProfile>> = {
  'gemini-2.5-pro': { family: 'gemini-2.5', tier: 'pro', contextWindow: 1_048_576 },
  'gemini-2.5-flash': { family: 'gemini-2.5', tier: 'flash', contextWindow: 1_048_576 },
  'gemini-2.5-flash-lite': { family: 'gemini-2.5', tier: 'lite', contextWindow: 1_048_576 },
  'gemini-3-pro-preview': { family: 'gemini-3', tier: 'pro', contextWindow: 1_048_576 },
  'gemini-3-flash-preview': { family: 'gemini-3', tier: 'flash', contextWindow: 1_048_576 },
};

/** Small enough for any model Deputy is likely to be pointed at, so compression starts in time. */
export const UNKNOWN_CONTEXT_WINDOW = 128_000;

/** The catalogue entry of a model, accepting the API's `models/` prefix; null when unknown. */
export function profileOf(model: string): ModelProfile | null {
  const name = model.trim().replace(/^models\//, '');
  return Object.hasOwn(MODEL_PROFILES, name) ? (MODEL_PROFILES[name] ?? null) : null;
}

/** The context window to plan for: the catalogue's, or a conservative 128 000 for an unknown model. */
export function contextWindowOf(model: string): number {
  return profileOf(model)?.contextWindow ?? UNKNOWN_CONTEXT_WINDOW;
}
