import { describe, expect, it } from 'vitest';
import { cappedFetch, TOO_LARGE_MESSAGE } from '../../../electron/mcp/capped-fetch';

const answering = (body: string, type: string) => async () =>
  new Response(body, { headers: { 'content-type': type } });

describe('cappedFetch', () => {
  it('reads a JSON answer up to the cap, and fails one over it', async () => {
    const under = cappedFetch(10, answering('{"a":"12"}', 'application/json'));
    expect(await (await under('http://x')).text()).toBe('{"a":"12"}');
    const over = cappedFetch(10, answering('{"a":"123"}', 'application/json'));
    await expect((await over('http://x')).text()).rejects.toThrow(TOO_LARGE_MESSAGE);
  });

  it('counts an event stream event by event, so a long stream of small events is read whole', async () => {
    const events = 'data: 1234\r\n\r\n'.repeat(50);
    const stream = cappedFetch(12, answering(events, 'text/event-stream'));
    expect(await (await stream('http://x')).text()).toBe(events);
    const big = cappedFetch(12, answering('data: 1234\n\ndata: 123456789\n\n', 'text/event-stream'));
    await expect((await big('http://x')).text()).rejects.toThrow(TOO_LARGE_MESSAGE);
  });
});
