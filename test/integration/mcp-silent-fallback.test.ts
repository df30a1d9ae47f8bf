import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { openClient } from '../../electron/mcp/mcp-transport';
import { startProblem } from '../../electron/mcp/start-problem';
import { McpServerConfig } from '../../shared/contract';
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
      await expect.poll(() => silent.held.size, { timeout: 5_000 }).toBe(0);
      const { lines } = await host().invoke('mcp.log', { name });
      expect(lines.join('\n')).toContain(
        'the older HTTP+SSE transport, tried next, sent no endpoint within 5 s either',
      );
    },
  );
});

/**
 * An old HTTP+SSE server that never answers: it answers Streamable HTTP's POST after `postMs` (405, as such a server
 * does), or never (`postMs` null); its GET opens the event stream and sends the `endpoint` event at once; what is
 * POSTed there is taken (202) and never answered.
 */
async function neverAnswering(
  postMs: number | null,
): Promise<{ url: string; server: Server; held: Set<IncomingMessage> }> {
  const held = new Set<IncomingMessage>();
  const server = createServer((request, response) => {
    if (request.method === 'GET') {
      held.add(request);
      response.on('close', () => held.delete(request));
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.write('event: endpoint\ndata: /messages?session=1\n\n');
      return;
    }
    if (request.url?.startsWith('/messages')) response.writeHead(202).end('Accepted');
    else if (postMs !== null) setTimeout(() => response.writeHead(405).end(), postMs);
  });
  return { ...(await listenLocally(server)), held };
}

describe('an old HTTP+SSE server that sends its endpoint and then never answers initialize', () => {
  const servers: Server[] = [];
  afterAll(() => {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  });

  it.each([
    ['its POST is turned away after a while', 1_500],
    ['its POST is never answered', null],
  ])(
    'has its start end when the start’s time is up, not that time again after Streamable HTTP’s try, when %s',
    async (_how, postMs) => {
      const silent = await neverAnswering(postMs);
      servers.push(silent.server);
      const config = McpServerConfig.parse({ transport: 'http', url: silent.url });
      const notes: string[] = [];
      const began = Date.now();
      const error = await openClient({
        config,
        secrets: { env: {}, headers: {} },
        prepare: () => {},
        onStderr: () => {},
        note: (line) => notes.push(line),
        onRetryAfter: () => {},
        timeoutMs: 3_000,
      }).then(
        () => null,
        (failure: unknown) => failure,
      );
      // Under the 4.5 s a second wait after the POST's 1.5 s would take, with room for a loaded machine.
      expect(Date.now() - began).toBeLessThan(4_200);
      // Whichever transport it was waiting on, the start did not answer in time, and its card says so.
      expect(startProblem(error, config, null, 3_000)).toBe(
        'It did not answer within 3 s. Check that the address is an MCP server.',
      );
      await expect.poll(() => silent.held.size, { timeout: 5_000 }).toBe(0);
      expect(notes).toEqual([
        postMs === null
          ? 'the older HTTP+SSE transport was not tried: the time to start was over'
          : 'the older HTTP+SSE transport, tried next, failed too: MCP error -32001: Request timed out',
      ]);
    },
  );
});
