import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Host } from '../../electron/host/create-host';
import { McpPutInput, type McpServerView } from '../../shared/contract';

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
