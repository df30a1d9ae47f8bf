import { describe, expect, it } from 'vitest';
import { cappedFetch, TOO_LARGE_MESSAGE } from '../../../electron/mcp/capped-fetch';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A server answering `body` in the chunks given (byte offsets where the network cut it). */
const answering =
  (body: string, type: string, cuts: number[] = []) =>
  async () => {
    const whole = bytes(body);
    const edges = [0, ...cuts, whole.byteLength];
    const chunks = edges.slice(1).map((end, index) => whole.subarray(edges[index], end));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    return new Response(stream, { headers: { 'content-type': type } });
  };

/** What a client reads of `body` through a cap of `max` bytes, with the network cutting it at `cuts`. */
const read = async (max: number, body: string, type: string, cuts: number[] = [], request?: string) =>
  (await cappedFetch(max, answering(body, type, cuts))('http://x', request ? { body: request } : {})).text();

const JSON_TYPE = 'application/json';
const STREAM = 'text/event-stream';
const CALL = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'huge' } });
const ERROR_ANSWER = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  error: { code: -32099, message: TOO_LARGE_MESSAGE },
});

describe('cappedFetch', () => {
  it('reads a JSON answer of exactly the cap, in any chunks, and fails one a byte over it', async () => {
    expect(await read(10, '{"a":"12"}', JSON_TYPE, [3, 4])).toBe('{"a":"12"}');
    await expect(read(10, '{"a":"123"}', JSON_TYPE, [10])).rejects.toThrow(TOO_LARGE_MESSAGE);
  });

  it('counts bytes, not characters, and reads a character whose bytes came in two chunks whole', async () => {
    // "é" is two bytes: 12 bytes in all.
    expect(await read(12, '{"a":"éé"}', JSON_TYPE, [7])).toBe('{"a":"éé"}');
    await expect(read(11, '{"a":"éé"}', JSON_TYPE, [7])).rejects.toThrow(TOO_LARGE_MESSAGE);
  });

  it('answers a call whose JSON answer is too large with an error for that call, so the connection stays', async () => {
    expect(await read(10, '{"a":"123"}', JSON_TYPE, [2], CALL)).toBe(ERROR_ANSWER);
  });

  it('counts an event stream event by event, whatever its line ends, so a long stream of small events is read whole', async () => {
    for (const end of ['\n', '\r\n', '\r']) {
      const events = `data: 1234${end}${end}`.repeat(50);
      expect(await read(14, events, STREAM, [5, 13, 14, 100])).toBe(events);
    }
  });

  it('reads an event of exactly the cap (its line ends counted) and fails one a byte over, wherever the chunks end', async () => {
    const fits = 'data: 1234\n\ndata: 12345678\n\n';
    const over = 'data: 1234\n\ndata: 123456789\n\n';
    for (let cut = 1; cut < fits.length; cut += 1) {
      expect(await read(16, fits, STREAM, [cut])).toBe(fits);
      await expect(read(16, over, STREAM, [cut])).rejects.toThrow(TOO_LARGE_MESSAGE);
    }
  });

  it('passes on a character split between chunks inside an event whole', async () => {
    const events = 'data: {"a":"Résumé"}\n\ndata: {"b":"ü"}\n\n';
    const cut = bytes(events).indexOf(0xc3) + 1;
    expect(await read(40, events, STREAM, [cut, cut + 9])).toBe(events);
  });

  it('answers a call whose event is too large with an error for that call, and passes none of that event', async () => {
    const events =
      'event: message\ndata: {"progress":1}\n\nevent: message\ndata: {"big":"xxxxxxxxxxxxxxxxxxxx"}\n\n';
    for (const cut of [10, 40, 60]) {
      expect(await read(40, events, STREAM, [cut], CALL)).toBe(
        `event: message\ndata: {"progress":1}\n\nevent: message\ndata: ${ERROR_ANSWER}\n\n`,
      );
    }
  });
});
