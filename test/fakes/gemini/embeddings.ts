import { createHash } from 'node:crypto';

/**
 * Deterministic embeddings that behave like real ones where the tests need them to: every word lands on a
 * few hashed dimensions, and words of one concept (a flight, a trip, an aisle seat) share the concept's
 * dimensions, so "flights" is near "aisle seats on long trips" though they share no word. Real vectors,
 * unit length, of the size the client asks for.
 */
const CONCEPTS: Record<string, readonly string[]> = {
  travel: [
    'flight',
    'fly',
    'flying',
    'plane',
    'airport',
    'airline',
    'trip',
    'travel',
    'aisle',
    'seat',
    'window',
    'layover',
  ],
  food: ['lunch', 'dinner', 'breakfast', 'restaurant', 'vegetarian', 'meal', 'food', 'allergy'],
  meeting: ['meeting', 'call', 'sync', 'review', 'standup', 'agenda'],
  family: ['kid', 'child', 'daughter', 'son', 'school', 'wife', 'husband', 'partner'],
};
const CONCEPT_OF = new Map(
  Object.entries(CONCEPTS).flatMap(([concept, words]) => words.map((word) => [word, concept])),
);

const stem = (word: string): string => word.replace(/(ies|es|s)$/, (ending) => (ending === 'ies' ? 'y' : ''));

function slots(key: string, dims: number, count: number): { index: number; sign: number }[] {
  const digest = createHash('sha256').update(key).digest();
  return Array.from({ length: count }, (_, n) => ({
    index: digest.readUInt32BE((n * 4) % 28) % dims,
    sign: (digest[28 + (n % 4)] ?? 0) & 1 ? 1 : -1,
  }));
}

export function fakeEmbedding(text: string, dims: number): number[] {
  const vector = new Array<number>(dims).fill(0);
  const words = (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).map(stem);
  for (const word of words) {
    for (const { index, sign } of slots(`word:${word}`, dims, 4)) vector[index] = (vector[index] ?? 0) + sign;
    const concept = CONCEPT_OF.get(word);
    if (concept)
      for (const { index, sign } of slots(`concept:${concept}`, dims, 8))
        vector[index] = (vector[index] ?? 0) + 3 * sign;
  }
  // An empty text still gets a (fixed) direction, as a real model gives one.
  if (words.length === 0) vector[0] = 1;
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return vector.map((value) => value / norm);
}

const DEFAULT_DIMS = 768;

interface EmbedRequest {
  content?: { parts?: { text?: string }[] };
  outputDimensionality?: number;
}

const textOf = (request: EmbedRequest): string =>
  (request.content?.parts ?? []).map((part) => part.text ?? '').join(' ');
const dimsOf = (request: EmbedRequest): number => request.outputDimensionality ?? DEFAULT_DIMS;

/** The answer to `:embedContent` (one text) or `:batchEmbedContents` (many), as the Gemini API shapes them. */
export function answerEmbedding(method: 'embedContent' | 'batchEmbedContents', body: unknown): unknown {
  const record = (typeof body === 'object' && body !== null ? body : {}) as EmbedRequest & {
    requests?: EmbedRequest[];
  };
  if (method === 'embedContent')
    return { embedding: { values: fakeEmbedding(textOf(record), dimsOf(record)) } };
  return {
    embeddings: (record.requests ?? []).map((request) => ({
      values: fakeEmbedding(textOf(request), dimsOf(request)),
    })),
  };
}

const EMBED_ROUTE = /^\/[^/]+\/models\/[^/:]+:(embedContent|batchEmbedContents)$/;

export function embeddingMethod(rawUrl: string): 'embedContent' | 'batchEmbedContents' | null {
  const match = EMBED_ROUTE.exec(new URL(rawUrl, 'http://fake').pathname);
  return (match?.[1] as 'embedContent' | 'batchEmbedContents' | undefined) ?? null;
}
