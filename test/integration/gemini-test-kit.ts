import { createServer } from 'node:net';
import {
  ModelError,
  type ModelClient,
  type ModelMessage,
  type ModelRequest,
  type ModelStreamEvent,
} from '../../electron/llm/model-client';

/** Shared by the Gemini client tests: a request builder and a stream reader that keeps the error. */

export const API_KEY = 'AIzaSyFAKE-deputy-test-key-0123456789';
export const MODEL = 'gemini-2.5-flash';

export function userSays(text: string): ModelMessage {
  return { role: 'user', parts: [{ kind: 'text', text }] };
}

export function modelRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: MODEL,
    systemInstruction: 'You are Deputy.',
    messages: [userSays('Hello')],
    tools: [],
    signal: new AbortController().signal,
    ...overrides,
  };
}

export interface Outcome {
  events: ModelStreamEvent[];
  error: ModelError | null;
}

export async function collect(
  client: ModelClient,
  request: ModelRequest = modelRequest(),
  onEvent: (event: ModelStreamEvent) => Promise<void> | void = () => undefined,
): Promise<Outcome> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of client.stream(request)) {
      events.push(event);
      await onEvent(event);
    }
    return { events, error: null };
  } catch (error) {
    if (error instanceof ModelError) return { events, error };
    throw error;
  }
}

export function textOf(events: ModelStreamEvent[]): string {
  return events.map((event) => (event.type === 'text' ? event.text : '')).join('');
}

/** A port nothing listens on: bound once to learn a free number, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  return address.port;
}
