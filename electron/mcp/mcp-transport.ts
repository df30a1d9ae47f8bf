import { StringDecoder } from 'node:string_decoder';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpSecrets, McpServerConfig } from '../../shared/contract';
import { cappedFetch } from './capped-fetch';

export const CLIENT_INFO = { name: 'deputy', version: '0.1.0' };

export interface OpenedClient {
  client: Client;
  /** The child's pid for a stdio server, else null. */
  pid: number | null;
  /** Which transport answered: an old server only speaks SSE. */
  kind: 'stdio' | 'streamable-http' | 'sse';
}

export interface OpenOptions {
  config: McpServerConfig;
  secrets: McpSecrets;
  /** Set up before connecting, so nothing the server says early is missed (a tools/list_changed). */
  prepare: (client: Client) => void;
  /** Each chunk the child writes on stderr. */
  onStderr: (chunk: string) => void;
  timeoutMs: number;
}

/**
 * Connects to one server: a child process over stdio, or a URL over Streamable HTTP, falling back to the older
 * HTTP+SSE transport when the server does not take Streamable HTTP's POST.
 */
export async function openClient(options: OpenOptions): Promise<OpenedClient> {
  const { config, secrets } = options;
  if (config.transport === 'stdio') {
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...config.env, ...secrets.env },
      ...(config.cwd && { cwd: config.cwd }),
      // Piped, never inherited: what a server prints goes to its bounded log, not into Deputy's own output.
      stderr: 'pipe',
    });
    // Decoded as a stream, so a character whose bytes came in two chunks is read whole, not as two U+FFFDs.
    const decoder = new StringDecoder('utf8');
    transport.stderr?.on('data', (chunk: Buffer) => options.onStderr(decoder.write(chunk)));
    const client = await connectWith(transport, options);
    return { client, pid: transport.pid, kind: 'stdio' };
  }
  const url = new URL(config.url);
  const requestInit = { headers: { ...config.headers, ...secrets.headers } };
  // An answer is read at most 10 MB a message, as the SDK reads from a stdio server: it is never held whole.
  const http = { requestInit, fetch: cappedFetch() };
  try {
    const client = await connectWith(new StreamableHTTPClientTransport(url, http), options);
    return { client, pid: null, kind: 'streamable-http' };
  } catch (streamableError) {
    try {
      const client = await connectWith(new SSEClientTransport(url, http), options);
      return { client, pid: null, kind: 'sse' };
    } catch {
      throw streamableError;
    }
  }
}

async function connectWith(transport: Transport, options: OpenOptions): Promise<Client> {
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  options.prepare(client);
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  return client;
}
