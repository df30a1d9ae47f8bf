import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { failedStartKind, mayPass, startProblem } from '../../electron/mcp/start-problem';
import { MCP_START_ATTEMPTS, McpServerConfig } from '../../shared/contract';
import {
  answerMcp,
  listenLocally,
  putServer,
  textTool,
  useHostAndServers,
  waitForServer,
  watchServer,
} from '../support/mcp-kit';

/**
 * A Streamable HTTP MCP server (stateless) that answers its first `times` starts with `status` (and `headers`), as
 * one being deployed or behind a busy gateway does, and works from then on. A start is counted by its POST (`posts`,
 * when each came): the GET Deputy then tries (the older SSE transport) gets the same answer while starts are left.
 */
async function unavailableFor(
  status: number,
  times: number,
  headers: Record<string, string> = {},
): Promise<{ url: string; server: Server; posts: number[] }> {
  let left = times;
  const posts: number[] = [];
  const server = createServer((request, response) => {
    if (request.method === 'POST') posts.push(Date.now());
    if (left > 0) {
      if (request.method === 'POST') left -= 1;
      response.writeHead(status, headers).end('not now');
      return;
    }
    answerMcp(request, response, 'busy', textTool('ping', 'pong'));
  });
  return { ...(await listenLocally(server)), posts };
}

/**
 * A server that answers "not now" (503) for a few seconds is not a server that cannot start: it is tried again, with
 * the same growing delays, for as long as it takes, and its card says so. Other answers still count.
 */
describe('an MCP server over HTTP that is not available for a while', () => {
  const { host: hostOf, servers } = useHostAndServers();

  it('keeps trying one that answers 503 more times than a failing one is tried, and it runs once it answers; a 500 still counts', async () => {
    const host = hostOf();
    // More 503s than the starts a server may fail: counted, it would be left Failed before it came back.
    const busy = await unavailableFor(503, MCP_START_ATTEMPTS);
    const broken = await unavailableFor(500, 100);
    servers.push(busy.server, broken.server);
    await Promise.all([
      putServer(host, 'busy', { transport: 'http', url: busy.url }),
      putServer(host, 'broken', { transport: 'http', url: broken.url }),
    ]);
    const card = watchServer(host, 'busy');

    // A 500 counts (its tries, 10 s and 20 s apart, are tested in mcp-connection-failed): not told to come back.
    const failing = await waitForServer(host, 'broken', (view) => view.state === 'restarting');
    expect(failing.error).toBe(
      `The MCP server “broken” could not start. The server at ${new URL(broken.url).origin} answered with an error (HTTP 500).`,
    );
    expect((await host.invoke('mcp.log', { name: 'broken' })).lines.join('\n')).toContain(
      'restarting in 10 s',
    );
    const running = await waitForServer(host, 'busy', (view) => view.state === 'running', 20_000);
    await card.stop();
    expect(running.tools.map((tool) => tool.name)).toEqual(['busy__ping']);
    expect(card.seen.map((view) => view.state)).not.toContain('failed');
    expect(new Set(card.seen.flatMap((view) => view.error ?? []))).toEqual(
      new Set([
        `The MCP server “busy” could not start. The server at ${new URL(busy.url).origin} answered HTTP 503: it is not available right now; Deputy keeps trying.`,
      ]),
    );
    // The delays between its starts grew as for any start that did not work.
    const { lines } = await host.invoke('mcp.log', { name: 'busy' });
    expect(lines.flatMap((line) => /restarting in (.+)$/.exec(line)?.[1] ?? [])).toEqual([
      '1 s',
      '2 s',
      '4 s',
    ]);
  }, 30_000);

  it('waits as long as a 503 or 429 answer asks in its Retry-After, at most 5 minutes, rather than its own delay', async () => {
    const host = hostOf();
    const polite = await unavailableFor(503, 1, { 'retry-after': '3' });
    const greedy = await unavailableFor(429, 100, { 'retry-after': '86400' });
    servers.push(polite.server, greedy.server);
    await putServer(host, 'polite', { transport: 'http', url: polite.url });
    await putServer(host, 'greedy', { transport: 'http', url: greedy.url });

    const waiting = await waitForServer(host, 'polite', (view) => view.state === 'restarting');
    expect(waiting.error).toBe(
      `The MCP server “polite” could not start. The server at ${new URL(polite.url).origin} answered HTTP 503: it is not available right now; it asked Deputy to try again in 3 seconds, and Deputy will.`,
    );
    await waitForServer(host, 'polite', (view) => view.state === 'running', 10_000);
    // Started again when it said, not after the first delay of 1 s.
    const [first = 0, second = 0] = polite.posts;
    expect(second - first).toBeGreaterThanOrEqual(2_900);
    const logOf = async (name: string) => (await host.invoke('mcp.log', { name })).lines.join('\n');
    expect(await logOf('polite')).toContain('restarting in 3 s');

    // A day is not waited for: 5 minutes at most, as its card says.
    const greedyView = await waitForServer(host, 'greedy', (view) => view.state === 'restarting');
    expect(greedyView.error).toBe(
      `The MCP server “greedy” could not start. The server at ${new URL(greedy.url).origin} answered HTTP 429: it has had too many requests for now; it asked Deputy to try again in 5 minutes, and Deputy will.`,
    );
    expect(await logOf('greedy')).toContain('restarting in 300 s');
    await host.invoke('mcp.delete', { name: 'greedy' });
  }, 20_000);

  it('counts 429, 502, 503 and 504 as passing, with words that say so, and no other answer', () => {
    const config = McpServerConfig.parse({ transport: 'http', url: 'https://mcp.example.com/s/k3y/mcp' });
    const words = (code: number) => startProblem(new StreamableHTTPError(code, 'x'), config, null, 30_000);
    expect([429, 502, 503, 504].map(words)).toEqual([
      'The server at https://mcp.example.com answered HTTP 429: it has had too many requests for now; Deputy keeps trying.',
      'The server at https://mcp.example.com answered HTTP 502: it is not available right now (the gateway in front of it could not reach it); Deputy keeps trying.',
      'The server at https://mcp.example.com answered HTTP 503: it is not available right now; Deputy keeps trying.',
      'The server at https://mcp.example.com answered HTTP 504: it is not available right now (the gateway in front of it waited for it in vain); Deputy keeps trying.',
    ]);
    const passing = [400, 401, 403, 404, 405, 429, 500, 501, 502, 503, 504, 505].filter((code) =>
      mayPass(new StreamableHTTPError(code, 'x'), config),
    );
    expect(passing).toEqual([429, 502, 503, 504]);
    // A 500 is counted, as a start that may not pass but is waited longer for.
    expect(
      [500, 501, 404].map((code) => failedStartKind(new StreamableHTTPError(code, 'x'), config)),
    ).toEqual(['server error', 'counted', 'counted']);
    // A stdio server has no HTTP answers: an error carrying one is still counted.
    const stdio = McpServerConfig.parse({ transport: 'stdio', command: 'x' });
    expect(mayPass(new StreamableHTTPError(503, 'x'), stdio)).toBe(false);
  });
});
