import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll } from 'vitest';
import type { Host } from '../../electron/host/create-host';
import { McpPutInput, type McpServerView } from '../../shared/contract';
import { openHost, type HostFixture } from './host-fixture';
import { ScriptedModel } from './scripted-model';

const require = createRequire(import.meta.url);
const packageDir = (name: string): string => dirname(require.resolve(`${name}/package.json`));

/** The real servers from the npm registry, started with this Node. */
export const FILESYSTEM_SERVER = join(
  packageDir('@modelcontextprotocol/server-filesystem'),
  'dist',
  'index.js',
);
export const EVERYTHING_SERVER = join(
  packageDir('@modelcontextprotocol/server-everything'),
  'dist',
  'index.js',
);
export const ODD_SERVER = join(import.meta.dirname, '..', 'fixtures', 'mcp', 'odd-server.mjs');
export const MALFORMED_TOOLS_SERVER = join(
  import.meta.dirname,
  '..',
  'fixtures',
  'mcp',
  'malformed-tools-server.mjs',
);

export function stdio(script: string, args: string[] = [], extra: Record<string, unknown> = {}) {
  return { transport: 'stdio' as const, command: process.execPath, args: [script, ...args], ...extra };
}

export async function serverView(host: Host, name: string): Promise<McpServerView> {
  const { servers } = await host.invoke('mcp.list', {});
  const server = servers.find((candidate) => candidate.name === name);
  if (!server) throw new Error(`no MCP server ${name}`);
  return server;
}

export async function waitForServer(
  host: Host,
  name: string,
  check: (view: McpServerView) => boolean,
  ms = 20_000,
): Promise<McpServerView> {
  const deadline = Date.now() + ms;
  for (;;) {
    const view = await serverView(host, name);
    if (check(view)) return view;
    if (Date.now() > deadline) throw new Error(`MCP server ${name} is ${view.state}: ${view.error ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Adds a server as a client would: the input is parsed by the channel's schema (defaults filled in). */
export async function putServer(
  host: Host,
  name: string,
  config: Record<string, unknown>,
): Promise<McpServerView> {
  return (await host.invoke('mcp.put', McpPutInput.parse({ name, config }))).server;
}

/** Every state (and reason) a server's card shows from now until `stop()`, read as Settings reads them. */
export function watchServer(host: Host, name: string): { seen: McpServerView[]; stop: () => Promise<void> } {
  const seen: McpServerView[] = [];
  let isWatching = true;
  const watching = (async () => {
    while (isWatching) {
      seen.push(await serverView(host, name));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    seen,
    stop: async () => {
      isWatching = false;
      await watching;
    },
  };
}

/** Whether a process runs (a zombie not yet reaped counts as running). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Answers one request as a stateless Streamable HTTP MCP server named `name` would, with the tools `register` gives
 * it, in JSON or (`isJson` false) as an event stream. A GET is turned away (405): it has no stream of its own to
 * open, and the older SSE transport Deputy tries after a start that failed is told so at once.
 */
export function answerMcp(
  request: IncomingMessage,
  response: ServerResponse,
  name: string,
  register: (mcp: McpServer) => void,
  isJson = true,
): void {
  if (request.method === 'GET') {
    response.writeHead(405).end();
    return;
  }
  const mcp = new McpServer({ name, version: '1.0.0' });
  register(mcp);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: isJson,
  });
  void mcp.connect(transport).then(() => transport.handleRequest(request, response));
}

/** For `answerMcp`: one tool, `tool`, that answers `text`. */
export const textTool = (tool: string, text: string) => (mcp: McpServer) =>
  mcp.registerTool(tool, { description: `Answers ${text}.` }, async () => ({
    content: [{ type: 'text', text }],
  }));

/** Starts `server` on a free local port; its MCP address there. */
export async function listenLocally(server: Server): Promise<{ url: string; server: Server }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

/**
 * For a describe block: a host (with no model turns) opened before its tests, and the local servers they start
 * (pushed on `servers`), all closed after them, a connection a server still holds open too.
 */
export function useHostAndServers(): { host: () => Host; servers: Server[] } {
  let fixture: HostFixture | undefined;
  const servers: Server[] = [];
  beforeAll(async () => {
    fixture = await openHost(new ScriptedModel());
  });
  afterAll(async () => {
    await fixture?.close();
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  });
  const host = (): Host => {
    if (!fixture) throw new Error('the host is opened before the tests');
    return fixture.host;
  };
  return { host, servers };
}
