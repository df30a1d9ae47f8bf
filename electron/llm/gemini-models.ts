import { GoogleGenAI } from '@google/genai';
import type { ModelInfo } from '../../shared/contract';
import { hostOf, toModelError, withoutSecret } from './gemini-errors';

/** Pages of the models list read at most: Gemini lists a few dozen models, a page of 50 at a time. */
const MAX_PAGES = 10;
const PAGE_SIZE = 50;

/**
 * The models a Gemini key can chat with (they support generateContent), through the real client and its
 * paging. Embedding-only and other models are left out; the order is Gemini's. A failure is a ModelError, as
 * the chat client's are (a refused key is `key_rejected`).
 */
export async function listGeminiModels(
  options: { apiKey: string; baseUrl?: string },
  signal?: AbortSignal,
): Promise<ModelInfo[]> {
  try {
    return await listPages(options, signal);
  } catch (error) {
    const context = { model: '', host: hostOf(options.baseUrl), hasResponse: false, retryAfterHeader: null };
    throw withoutSecret(toModelError(error, context), options.apiKey);
  }
}

/** How long a key check may take before the key is saved unchecked. */
export const KEY_CHECK_MS = 5_000;

/** What Gemini said about a key: it took it, it refused it, or it could not be asked (network, timeout, outage). */
export type GeminiKeyCheck = 'accepted' | 'rejected' | 'unchecked';

/**
 * Asks Gemini for one page of one model with the key: the cheapest call that needs a valid key. Only a refusal
 * says the key is wrong; any other failure means it could not be checked now. The key is never in what it returns.
 */
export async function checkGeminiKey(
  options: { apiKey: string; baseUrl?: string },
  timeoutMs = KEY_CHECK_MS,
): Promise<GeminiKeyCheck> {
  const ai = new GoogleGenAI({
    apiKey: options.apiKey,
    httpOptions: { timeout: timeoutMs, ...(options.baseUrl && { baseUrl: options.baseUrl }) },
  });
  try {
    await ai.models.list({ config: { pageSize: 1, abortSignal: AbortSignal.timeout(timeoutMs) } });
    return 'accepted';
  } catch (error) {
    const context = { model: '', host: hostOf(options.baseUrl), hasResponse: false, retryAfterHeader: null };
    return toModelError(error, context).kind === 'key_rejected' ? 'rejected' : 'unchecked';
  }
}

async function listPages(
  options: { apiKey: string; baseUrl?: string },
  signal?: AbortSignal,
): Promise<ModelInfo[]> {
  const ai = new GoogleGenAI({
    apiKey: options.apiKey,
    ...(options.baseUrl && { httpOptions: { baseUrl: options.baseUrl } }),
  });
  const pager = await ai.models.list({
    config: { pageSize: PAGE_SIZE, ...(signal && { abortSignal: signal }) },
  });
  const models: ModelInfo[] = [];
  let pages = 1;
  for (;;) {
    for (const model of pager.page) {
      const id = (model.name ?? '').replace(/^models\//, '');
      if (!id || !(model.supportedActions ?? []).includes('generateContent')) continue;
      models.push({
        id,
        displayName: model.displayName?.trim() || id,
        description: model.description?.trim() ?? '',
        inputTokenLimit: model.inputTokenLimit ?? null,
      });
    }
    if (!pager.hasNextPage() || pages >= MAX_PAGES) return models;
    await pager.nextPage();
    pages += 1;
  }
}
