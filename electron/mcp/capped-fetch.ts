import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** As much as one message from a server may hold: the SDK reads no more from a stdio server either. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** What a too-large answer fails with; the connection recognises it by its message, as the SDK's own. */
export const TOO_LARGE_MESSAGE = `an MCP server's message exceeded ${MAX_MESSAGE_BYTES} bytes`;

/** The JSON-RPC error code of the answer put in place of one too large (in the range JSON-RPC leaves to servers). */
const TOO_LARGE_CODE = -32099;

const LF = 0x0a;
const CR = 0x0d;

type RequestId = string | number;

/**
 * `fetch` for an HTTP server whose answers are read at most `maxBytes` a message: a JSON body as a whole, an event
 * stream event by event (a stream that stays open for hours is not one message). An answer over that to a POST that
 * asked one thing is replaced by a JSON-RPC error for that request, so the call it answered fails and the
 * connection stays; anything else too large fails the body. The answer is never held whole in memory, nor kept
 * whole in the policy log.
 */
export function cappedFetch(maxBytes = MAX_MESSAGE_BYTES, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body) return response;
    const tooLarge = (): Uint8Array<ArrayBuffer> | null => {
      const asked = requestIdOf(init?.body);
      return asked === null ? null : errorAnswer(asked);
    };
    const isStream = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    const body = isStream
      ? response.body.pipeThrough(eventsUpTo(maxBytes, () => eventOf(tooLarge())))
      : await wholeUpTo(response.body, maxBytes, tooLarge);
    const capped = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // Where a redirect ended: the SDK reads it to resolve the next address.
    Object.defineProperty(capped, 'url', { value: response.url });
    return capped;
  };
}

/** A body read whole up to `maxBytes`; past that, what `tooLarge` puts in its place, or a body that fails. */
async function wholeUpTo(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  tooLarge: () => Uint8Array<ArrayBuffer> | null,
): Promise<Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return tooLarge() ?? failing();
    }
    chunks.push(read.value);
  }
  return joined(chunks);
}

/**
 * Passes an event stream on event by event, each once it has ended (at a blank line, after "\n", "\r\n" or "\r"
 * line ends): an event over `maxBytes` is dropped before any of it is passed on, and the stream ends with what
 * `tooLarge` puts in its place, or fails.
 */
function eventsUpTo(
  maxBytes: number,
  tooLarge: () => Uint8Array | null,
): TransformStream<Uint8Array, Uint8Array> {
  let held: Uint8Array[] = [];
  let size = 0;
  let lineLength = 0;
  let isAfterCr = false;
  return new TransformStream({
    transform(chunk, controller) {
      let from = 0;
      for (let index = 0; index < chunk.length; index += 1) {
        // An event's size counts its line ends, the blank line that ends it too.
        size += 1;
        if (size > maxBytes) {
          const instead = tooLarge();
          if (instead) {
            controller.enqueue(instead);
            controller.terminate();
          } else controller.error(new Error(TOO_LARGE_MESSAGE));
          return;
        }
        const byte = chunk[index];
        // The "\n" of "\r\n" ends no line of its own: the line ended at its "\r".
        const isLineEnd = byte === CR || (byte === LF && !isAfterCr);
        isAfterCr = byte === CR;
        if (!isLineEnd) lineLength += byte === LF ? 0 : 1;
        else if (lineLength > 0) lineLength = 0;
        else {
          controller.enqueue(joined([...held, chunk.subarray(from, index + 1)]));
          held = [];
          size = 0;
          from = index + 1;
        }
      }
      if (from < chunk.length) held.push(chunk.subarray(from));
    },
    flush(controller) {
      if (held.length > 0) controller.enqueue(joined(held));
    },
  });
}

/** The id of the one request a POST's body carried (a batch of one too), else null: a notification, a GET. */
function requestIdOf(body: unknown): RequestId | null {
  if (typeof body !== 'string') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const messages: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  const requests = messages.flatMap((message) => {
    if (typeof message !== 'object' || message === null || !('method' in message) || !('id' in message))
      return [];
    const { id } = message;
    return typeof id === 'string' || typeof id === 'number' ? [id] : [];
  });
  return requests.length === 1 ? (requests[0] ?? null) : null;
}

function errorAnswer(id: RequestId): Uint8Array<ArrayBuffer> {
  const answer = { jsonrpc: '2.0', id, error: { code: TOO_LARGE_CODE, message: TOO_LARGE_MESSAGE } };
  return new TextEncoder().encode(JSON.stringify(answer));
}

function eventOf(data: Uint8Array | null): Uint8Array | null {
  if (!data) return null;
  return joined([new TextEncoder().encode('event: message\ndata: '), data, new TextEncoder().encode('\n\n')]);
}

function failing(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.error(new Error(TOO_LARGE_MESSAGE)) });
}

function joined(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const whole = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return whole;
}
