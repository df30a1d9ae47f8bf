import { StringDecoder } from 'node:string_decoder';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpSecrets, McpServerConfig } from '../../shared/contract';
import { redactErrorMessage } from '../vault/redactor';
import { cappedFetch } from './capped-fetch';
import { noticingRetryAfter } from './retry-after';

export const CLIENT_INFO = { name: 'deputy', version: '0.1.0' };
/**
 * How long the older HTTP+SSE transport, tried once a start over Streamable HTTP has failed, may take to send the
 * `endpoint` event that opens it. A server that holds its GET open without a word would otherwise hold the start
 * (shown Starting…) until Deputy stops it; the start then fails as Streamable HTTP's answer said.
 */
export const SSE_ENDPOINT_MS = 5_000;

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
  /** A line for the server's log. */
  note: (line: string) => void;
  /** Told the wait an answer of 429 or 503 asked for (its Retry-After). */
  onRetryAfter: (ms: number) => void;
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
  const http = { requestInit, fetch: noticingRetryAfter(cappedFetch(), options.onRetryAfter) };
  try {
    const client = await connectWith(new StreamableHTTPClientTransport(url, http), options);
    return { client, pid: null, kind: 'streamable-http' };
  } catch (streamableError) {
    try {
      const client = await connectWith(new SseWithinDeadline(url, http), options);
      return { client, pid: null, kind: 'sse' };
    } catch (sseError) {
      const how =
        sseError instanceof NoEndpoint
          ? `sent no endpoint within ${SSE_ENDPOINT_MS / 1_000} s either`
          : `failed too: ${redactErrorMessage(sseError)}`;
      options.note(`the older HTTP+SSE transport, tried next, ${how}`);
      // Its card says what the address answered Streamable HTTP, the transport it was configured for.
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

class NoEndpoint extends Error {}

/** The SSE transport, whose start fails if no `endpoint` event came within SSE_ENDPOINT_MS (see there). */
class SseWithinDeadline extends SSEClientTransport {
  override async start(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new NoEndpoint('no endpoint event')), SSE_ENDPOINT_MS);
    });
    try {
      // Failed, the client is closed (see connectWith), and the GET held open with it.
      await Promise.race([super.start(), late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
