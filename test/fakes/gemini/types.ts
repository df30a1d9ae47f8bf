import type { StreamHold } from './hold';
import type { FakeModel } from './models';
/** One streamed `GenerateContentResponse`, described by what a test cares about. */
export interface FakeChunk {
  text?: string;
  /** A thought summary part (`thought: true`), which clients should not show as answer text. */
  thought?: string;
  calls?: FakeCall[];
  finishReason?: string;
  /** A resume point, as Gemini sends on long answers; a client that auto-continues reconnects with it. */
  continuationToken?: string;
  usage?: { prompt: number; output: number };
  /** Sets `promptFeedback.blockReason` and sends no candidates. */
  blockReason?: string;
  /** Sends a chunk with no candidates at all. */
  empty?: boolean;
  /** Waits here, with every chunk before this one sent, until the hold is released (or the response closes). */
  hold?: StreamHold;
}

export interface FakeCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
  thoughtSignature?: string;
}

/** What the fake does with one HTTP request. Steps are consumed in order, one per request. */
export type FakeStep =
  /** Answers 200 and streams the chunks (or merges them into one body for `generateContent`). */
  | { kind: 'reply'; chunks: FakeChunk[]; gapMs?: number }
  /** Answers with this status; the body defaults to Google's `{ error: { code, message, status } }`. */
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Accepts the request and never answers. */
  | { kind: 'hang' }
  /** Streams the chunks, then keeps the connection open without another byte. */
  | { kind: 'stall'; chunks: FakeChunk[] }
  /** Streams the chunks, then destroys the socket before any finishReason. */
  | { kind: 'cut'; chunks: FakeChunk[] }
  /** Streams one `data:` line that is not JSON. */
  | { kind: 'malformed' }
  | { kind: 'delay'; ms: number; step: FakeStep };

export type GeminiMethod = 'generateContent' | 'streamGenerateContent';

export interface RecordedRequest {
  /** The path as the client sent it, without the query string, e.g. `/v1/models/m:streamGenerateContent`. */
  path: string;
  apiVersion: string;
  model: string;
  method: GeminiMethod;
  /** The `x-goog-api-key` header, so a test can check which key was sent. */
  apiKey: string | null;
  body: GeminiRequestBody;
}

/** The request body fields the tests look at; anything else the client sends is kept as is. */
export interface GeminiRequestBody {
  contents?: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: Array<{ functionDeclarations?: Array<Record<string, unknown>> } & Record<string, unknown>>;
  [key: string]: unknown;
}

export interface GeminiContent {
  role?: string;
  parts?: GeminiPart[];
}

export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name?: string; response?: Record<string, unknown> };
  [key: string]: unknown;
}

export interface ChunkSentInfo {
  /** Position of the chunk within its response, from 0. */
  index: number;
  /** `process.hrtime.bigint()` taken as the chunk is handed to the socket. */
  sentAt: bigint;
}

export interface FakeGeminiOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  onChunkSent?: (info: ChunkSentInfo) => void;
  /** What to do when the script is empty; the default answers 500 so that an under-scripted test fails loudly. */
  fallback?: (request: RecordedRequest) => FakeStep;
  /** What `GET /v1beta/models` lists (DEFAULT_FAKE_MODELS when not given); `models.set` changes it later. */
  models?: readonly FakeModel[];
}

export interface FakeGemini {
  /** Base URL to hand to the client, e.g. `http://127.0.0.1:40123`. */
  url: string;
  script(...steps: FakeStep[]): void;
  requests: RecordedRequest[];
  /** Every embedding request (`embedContent`, `batchEmbedContents`), oldest first. */
  embedRequests: { method: string; apiKey: string | null }[];
  /** The models the list answers with, and how many list requests arrived; `isKeyRejected` answers as Google
   * does for a wrong key (400, reason API_KEY_INVALID). */
  models: { list: readonly FakeModel[]; requests: number; isDown: boolean; isKeyRejected: boolean };
  /** Scripted steps not consumed yet. */
  pending(): number;
  /** Responses still open: not finished and not closed by either side. */
  inFlight(): number;
  close(): Promise<void>;
}
