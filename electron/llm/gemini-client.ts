import { GoogleGenAI } from '@google/genai';
import { hostOf, toModelError, withoutSecret } from './gemini-errors';
import { toGeminiContents, toGeminiTools } from './gemini-request';
import { ResponseReader } from './gemini-response';
import { NO_GEMINI_KEY_MESSAGE } from '../../shared/no-gemini-key';
import { ModelError, type ModelClient, type ModelRequest, type ModelStreamEvent } from './model-client';
import { observeFetch, type ObservedFetch } from './observed-fetch';
import { SilenceWatchdog, type SilencePhase } from './silence-watchdog';

export interface GeminiClientOptions {
  apiKey: string;
  /** Another endpoint speaking the Gemini REST API, e.g. the local fake of the tests. */
  baseUrl?: string;
  /** How long Gemini may take to send the first chunk. */
  timeoutMs?: number;
  /** How long Gemini may stay silent between two chunks. */
  idleTimeoutMs?: number;
}

/** The ModelClient that streams from Gemini through the real `@google/genai` client. */
export function createGeminiClient(options: GeminiClientOptions): ModelClient {
  const apiKey = options.apiKey.trim();
  const settings = {
    apiKey,
    host: hostOf(options.baseUrl),
    timeoutMs: options.timeoutMs ?? 60_000,
    idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
  };
  // With no retryOptions the SDK makes exactly one attempt; retries with backoff are the engine's layer.
  const ai = apiKey === '' ? null : new GoogleGenAI({ apiKey, httpOptions: { baseUrl: options.baseUrl } });
  return {
    stream: (request) => streamFrom(ai, request, settings),
  };
}

interface Settings {
  apiKey: string;
  host: string;
  timeoutMs: number;
  idleTimeoutMs: number;
}

async function* streamFrom(
  ai: GoogleGenAI | null,
  request: ModelRequest,
  settings: Settings,
): AsyncGenerator<ModelStreamEvent> {
  if (ai === null) {
    throw new ModelError('not_configured', NO_GEMINI_KEY_MESSAGE);
  }
  if (request.signal.aborted) throw cancelled();
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  request.signal.addEventListener('abort', abort, { once: true });
  const watchdog = new SilenceWatchdog(abort);
  const observed = observeFetch();
  const reader = new ResponseReader();
  try {
    watchdog.arm('first_chunk', settings.timeoutMs);
    const chunks = await ai.models.generateContentStream({
      model: request.model,
      contents: toGeminiContents(request.messages),
      config: {
        systemInstruction: request.systemInstruction === '' ? undefined : request.systemInstruction,
        ...generationOf(request),
        tools: toGeminiTools(request.tools),
        ...(request.includeThoughts && { thinkingConfig: { includeThoughts: true } }),
        abortSignal: controller.signal,
        // On a dropped stream the SDK would otherwise reconnect on its own.
        automaticContinuation: false,
        httpOptions: { fetch: observed.fetch },
      },
    });
    const iterator = chunks[Symbol.asyncIterator]();
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      watchdog.disarm();
      yield* reader.read(next.value);
      // Past the most Deputy reads of one answer: the rest is not fetched (the connection is let go below).
      if (reader.isFull) break;
      watchdog.arm('next_chunk', settings.idleTimeoutMs);
    }
    watchdog.disarm();
    yield reader.end();
  } catch (error) {
    throw withoutSecret(describeFailure(error, request, watchdog, observed, settings.host), settings.apiKey);
  } finally {
    watchdog.disarm();
    request.signal.removeEventListener('abort', abort);
    // Releases the connection when the caller stops reading early.
    controller.abort();
  }
}

/** Our own aborts (the caller's signal, the watchdog) explain an error better than the error itself. */
function describeFailure(
  error: unknown,
  request: ModelRequest,
  watchdog: SilenceWatchdog,
  observed: ObservedFetch,
  host: string,
): ModelError {
  if (request.signal.aborted) return cancelled();
  const expired = watchdog.expired();
  if (expired !== null) return silent(expired.phase, expired.ms);
  return toModelError(error, {
    model: request.model,
    host,
    hasResponse: observed.hasResponse(),
    retryAfterHeader: observed.retryAfterHeader(),
  });
}

function cancelled(): ModelError {
  return new ModelError('cancelled', 'The request to Gemini was cancelled.');
}

function silent(phase: SilencePhase, ms: number): ModelError {
  const seconds = ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
  return phase === 'first_chunk'
    ? new ModelError('timeout', `Gemini did not start answering within ${seconds}.`)
    : new ModelError('timeout', `Gemini stopped answering for ${seconds} in the middle of an answer.`);
}

/** An agent's modelConfig as Gemini's generation config: only what it set. */
function generationOf(request: ModelRequest): Record<string, unknown> {
  const config = request.generation;
  if (!config) return {};
  return {
    ...(config.temperature !== undefined && { temperature: config.temperature }),
    ...(config.topP !== undefined && { topP: config.topP }),
    ...(config.thinkingBudget !== undefined && { thinkingConfig: { thinkingBudget: config.thinkingBudget } }),
  };
}
