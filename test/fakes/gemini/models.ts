import type { ServerResponse } from 'node:http';

/** One entry of Gemini's `models` resource (v1beta), in its REST field names. */
export interface FakeModel {
  name: string;
  displayName: string;
  description: string;
  inputTokenLimit: number;
  outputTokenLimit: number;
  supportedGenerationMethods: string[];
}

const chat = (id: string, displayName: string, inputTokenLimit = 1_048_576): FakeModel => ({
  name: `models/${id}`,
  displayName,
  description: `${displayName}, as the fake lists it.`,
  inputTokenLimit,
  outputTokenLimit: 65_536,
  supportedGenerationMethods: [
    'generateContent',
    'countTokens',
    'createCachedContent',
    'batchGenerateContent',
  ],
});

/** What the fake lists when a test gives no list: chat models, and an embedding model that cannot chat. */
export const DEFAULT_FAKE_MODELS: readonly FakeModel[] = [
  chat('gemini-2.5-flash', 'Gemini 2.5 Flash'),
  chat('gemini-2.5-pro', 'Gemini 2.5 Pro'),
  chat('gemini-2.5-flash-lite', 'Gemini 2.5 Flash-Lite'),
  {
    name: 'models/gemini-embedding-001',
    displayName: 'Gemini Embedding 001',
    description: 'Embeddings only.',
    inputTokenLimit: 2_048,
    outputTokenLimit: 1,
    supportedGenerationMethods: ['embedContent', 'countTextTokens', 'countTokens'],
  },
  chat('gemini-2.0-flash', 'Gemini 2.0 Flash'),
];

const LIST_ROUTE = /^\/[^/]+\/models$/;

export const isModelsList = (method: string | undefined, rawUrl: string): boolean =>
  method === 'GET' && LIST_ROUTE.test(new URL(rawUrl, 'http://fake').pathname);

/** `GET /v1beta/models`: a page of `pageSize` (default 50), and `nextPageToken` while more follow. */
export function answerModelsList(res: ServerResponse, rawUrl: string, models: readonly FakeModel[]): void {
  const query = new URL(rawUrl, 'http://fake').searchParams;
  const size = Math.max(1, Math.min(1_000, Number(query.get('pageSize')) || 50));
  const start = Number(query.get('pageToken') ?? '0') || 0;
  const page = models.slice(start, start + size);
  const next = start + size < models.length ? String(start + size) : undefined;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ models: page, ...(next && { nextPageToken: next }) }));
}
