/** Which Gemini model Deputy talks to, and how, read from the environment. */
export interface ModelConfig {
  /** null when GEMINI_API_KEY is unset or blank: the client then fails every call with `not_configured`. */
  apiKey: string | null;
  model: string;
  /** null means Google's own endpoint; tests and demos point this at a local fake. */
  baseUrl: string | null;
}

export const DEFAULT_MODEL = 'gemini-2.5-flash';

export function readModelConfig(env: Record<string, string | undefined>): ModelConfig {
  return {
    apiKey: nonBlank(env.GEMINI_API_KEY),
    model: nonBlank(env.DEPUTY_MODEL) ?? DEFAULT_MODEL,
    baseUrl: nonBlank(env.DEPUTY_GEMINI_BASE_URL),
  };
}

function nonBlank(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}
