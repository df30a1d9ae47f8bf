import { GoogleGenAI } from '@google/genai';

/** Turns texts into vectors; `query` and `document` ask the model for the matching side of a retrieval pair. */
export interface Embedder {
  readonly model: string;
  readonly dims: number;
  embed(texts: readonly string[], task: 'query' | 'document', signal?: AbortSignal): Promise<Float32Array[]>;
}

export const EMBEDDING_MODEL = 'gemini-embedding-001';
/** The model is trained so its first dimensions carry most of the meaning: 256 keep the index small and fast. */
export const EMBEDDING_DIMS = 256;

export function createGeminiEmbedder(options: { apiKey: string; baseUrl?: string }): Embedder {
  const ai = new GoogleGenAI({
    apiKey: options.apiKey,
    ...(options.baseUrl && { httpOptions: { baseUrl: options.baseUrl } }),
  });
  return {
    model: EMBEDDING_MODEL,
    dims: EMBEDDING_DIMS,
    embed: async (texts, task, signal) => {
      if (texts.length === 0) return [];
      const response = await ai.models.embedContent({
        model: EMBEDDING_MODEL,
        contents: [...texts],
        config: {
          taskType: task === 'query' ? 'RETRIEVAL_QUERY' : 'RETRIEVAL_DOCUMENT',
          outputDimensionality: EMBEDDING_DIMS,
          ...(signal && { abortSignal: signal }),
        },
      });
      const vectors = (response.embeddings ?? []).map(
        (embedding) => new Float32Array(embedding.values ?? []),
      );
      if (vectors.length !== texts.length || vectors.some((vector) => vector.length !== EMBEDDING_DIMS))
        throw new Error(
          `Gemini returned ${vectors.length} embeddings of the wrong size for ${texts.length} texts`,
        );
      return vectors;
    },
  };
}
