import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** As much as one message from a server may hold: the SDK reads no more from a stdio server either. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** What a too-large answer fails with; the connection recognises it by its message, as the SDK's own. */
export const TOO_LARGE_MESSAGE = `an MCP server's message exceeded ${MAX_MESSAGE_BYTES} bytes`;

const LF = 0x0a;
const CR = 0x0d;

/**
 * `fetch` for an HTTP server whose answers are read at most `maxBytes` a message: a JSON body as a whole, an event
 * stream event by event (a stream that stays open for hours is not one message). Past that the body fails, so the
 * answer is never held whole in memory, nor kept whole in the policy log.
 */
export function cappedFetch(maxBytes = MAX_MESSAGE_BYTES, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body) return response;
    const isStream = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    let size = 0;
    let previous = 0;
    /** Whether the message this chunk is part of has grown past the cap (checked byte by byte in a stream). */
    const isOver = (chunk: Uint8Array): boolean => {
      if (!isStream) return (size += chunk.byteLength) > maxBytes;
      for (const byte of chunk) {
        // An event ends at a blank line ("\n\n", "\r\n\r\n"); the next one is counted from nothing.
        if (byte === CR) continue;
        size = byte === LF && previous === LF ? 0 : size + 1;
        previous = byte;
        if (size > maxBytes) return true;
      }
      return false;
    };
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (isOver(chunk)) controller.error(new Error(TOO_LARGE_MESSAGE));
          else controller.enqueue(chunk);
        },
      }),
    );
    const capped = new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // Where a redirect ended: the SDK reads it to resolve the next address.
    Object.defineProperty(capped, 'url', { value: response.url });
    return capped;
  };
}
