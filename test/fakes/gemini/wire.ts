import type { FakeChunk, GeminiPart } from './types';

/** The JSON shapes the real Gemini REST API sends back. */

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function errorBody(
  code: number,
  message: string,
): { error: { code: number; message: string; status: string } } {
  return { error: { code, message, status: STATUS_NAMES[code] ?? 'UNKNOWN' } };
}

export function chunkToResponse(chunk: FakeChunk, model: string): Record<string, unknown> {
  const response: Record<string, unknown> = { modelVersion: model };
  if (chunk.blockReason !== undefined) {
    response.promptFeedback = { blockReason: chunk.blockReason };
  } else if (chunk.empty !== true) {
    const candidate: Record<string, unknown> = {
      content: { role: 'model', parts: chunkParts(chunk) },
      index: 0,
    };
    if (chunk.finishReason !== undefined) candidate.finishReason = chunk.finishReason;
    if (chunk.continuationToken !== undefined) candidate.continuationToken = chunk.continuationToken;
    response.candidates = [candidate];
  }
  if (chunk.usage !== undefined) {
    const { prompt, output } = chunk.usage;
    response.usageMetadata = {
      promptTokenCount: prompt,
      candidatesTokenCount: output,
      totalTokenCount: prompt + output,
    };
  }
  return response;
}

/** What `generateContent` (not streamed) answers: every chunk folded into one response. */
export function mergeChunks(chunks: FakeChunk[]): FakeChunk {
  const merged: FakeChunk = {};
  const text = chunks.map((chunk) => chunk.text ?? '').join('');
  if (text !== '') merged.text = text;
  const calls = chunks.flatMap((chunk) => chunk.calls ?? []);
  if (calls.length > 0) merged.calls = calls;
  for (const chunk of chunks) {
    if (chunk.finishReason !== undefined) merged.finishReason = chunk.finishReason;
    if (chunk.usage !== undefined) merged.usage = chunk.usage;
    if (chunk.blockReason !== undefined) merged.blockReason = chunk.blockReason;
  }
  if (chunks.length > 0 && chunks.every((chunk) => chunk.empty === true)) merged.empty = true;
  return merged;
}

export function sseEvent(json: unknown): string {
  return `data: ${JSON.stringify(json)}\r\n\r\n`;
}

function chunkParts(chunk: FakeChunk): GeminiPart[] {
  const parts: GeminiPart[] = [];
  if (chunk.thought !== undefined) parts.push({ text: chunk.thought, thought: true });
  if (chunk.text !== undefined) parts.push({ text: chunk.text });
  for (const call of chunk.calls ?? []) {
    const functionCall =
      call.id === undefined
        ? { name: call.name, args: call.args }
        : { id: call.id, name: call.name, args: call.args };
    parts.push(
      call.thoughtSignature === undefined
        ? { functionCall }
        : { functionCall, thoughtSignature: call.thoughtSignature },
    );
  }
  return parts;
}
