import { createServer, type IncomingMessage, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listenLocally, putServer, useHostAndServers, waitForServer } from '../support/mcp-kit';

/**
 * An address that answers Streamable HTTP's POST with an error, and then holds the GET of the older HTTP+SSE
 * transport (which Deputy tries next) open without a word: with `isStreamOpened`, it sends the event stream's
 * headers and no `endpoint` event; without, not even the headers.
 */
async function silentOnGet(
  isStreamOpened: boolean,
): Promise<{ url: string; server: Server; held: Set<IncomingMessage> }> {
  /** The GETs it holds open now. */
  const held = new Set<IncomingMessage>();
  const server = createServer((request, response) => {
    if (request.method !== 'GET') {
      response.writeHead(500).end('broken');
      return;
    }
    held.add(request);
    response.on('close', () => held.delete(request));
    if (isStreamOpened) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.flushHeaders();
    }
  });
  return { ...(await listenLocally(server)), held };
}

describe('an MCP server whose start failed and whose older SSE transport then says nothing', () => {
  const { host, servers } = useHostAndServers();

  it.each([
    ['opens its event stream and sends no endpoint', 'streamed', true],
    ['never answers the GET at all', 'mute', false],
  ])(
    'fails the start within seconds, not 30, when it %s, saying what the POST was answered',
    async (_how, name, isStreamOpened) => {
      const silent = await silentOnGet(isStreamOpened);
      servers.push(silent.server);
      const began = Date.now();
      await putServer(host(), name, { transport: 'http', url: silent.url });
      const view = await waitForServer(host(), name, (server) => server.state !== 'starting', 15_000);
      expect(Date.now() - began).toBeLessThan(10_000);
      expect(view).toMatchObject({
        state: 'restarting',
        error: `The MCP server “${name}” could not start. The server at ${new URL(silent.url).origin} answered with an error (HTTP 500).`,
      });
      // The GET is not left open: each try again would hold one more.
      await expect.poll(() => silent.held.size, { timeout: 500 }).toBe(0);
      const { lines } = await host().invoke('mcp.log', { name });
      expect(lines.join('\n')).toContain(
        'the older HTTP+SSE transport, tried next, sent no endpoint within 5 s either',
      );
    },
  );
});
