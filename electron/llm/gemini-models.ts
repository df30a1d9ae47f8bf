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
