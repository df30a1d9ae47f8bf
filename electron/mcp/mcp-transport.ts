import { StringDecoder } from 'node:string_decoder';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, type SSEClientTransportOptions } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
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
  // One deadline for the whole start, whichever transport answers: over HTTP, the older one, tried once Streamable
  // HTTP has failed, gets what is left of it, not a time of its own on top.
  const deadline = Date.now() + options.timeoutMs;
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
    const client = await connectWith(transport, options, deadline);
    return { client, pid: transport.pid, kind: 'stdio' };
  }
  const url = new URL(config.url);
  const requestInit = { headers: { ...config.headers, ...secrets.headers } };
  // An answer is read at most 10 MB a message, as the SDK reads from a stdio server: it is never held whole.
  const http = { requestInit, fetch: noticingRetryAfter(cappedFetch(), options.onRetryAfter) };
  try {
    const client = await connectWith(new StreamableHTTPClientTransport(url, http), options, deadline);
    return { client, pid: null, kind: 'streamable-http' };
  } catch (streamableError) {
    const left = deadline - Date.now();
    if (left <= 0) {
      options.note('the older HTTP+SSE transport was not tried: the time to start was over');
      throw streamableError;
    }
    const sse = new SseWithinDeadline(url, http, Math.min(SSE_ENDPOINT_MS, left));
    try {
      const client = await connectWith(sse, options, deadline);
      return { client, pid: null, kind: 'sse' };
    } catch (sseError) {
      const how =
        sseError instanceof NoEndpoint
          ? `sent no endpoint within ${Math.round(sse.endpointMs / 100) / 10} s either`
          : `failed too: ${redactErrorMessage(sseError)}`;
      options.note(`the older HTTP+SSE transport, tried next, ${how}`);
      // A server that opened that transport speaks it: that it then did not answer in time is what its card says.
      if (sse.hasEndpoint && isTimeout(sseError)) throw sseError;
      // Else its card says what the address answered Streamable HTTP, the transport it was configured for.
      throw streamableError;
    }
  }
}

/** Connects `transport`, within `deadline` (ms since the epoch) for it to open and answer `initialize`. */
async function connectWith(transport: Transport, options: OpenOptions, deadline: number): Promise<Client> {
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  options.prepare(client);
  // The SDK's timeout runs from when `initialize` is sent, after the transport opened (the SSE one waits for its
  // `endpoint` event first): the deadline is kept here, and ends the start as the SDK's timeout would.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    const reason = new McpError(ErrorCode.RequestTimeout, 'Request timed out');
    timer = setTimeout(() => reject(reason), deadline - Date.now());
  });
  try {
    await Promise.race([client.connect(transport, { timeout: options.timeoutMs }), late]);
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return client;
}

const isTimeout = (error: unknown): boolean =>
  error instanceof McpError && error.code === ErrorCode.RequestTimeout;

class NoEndpoint extends Error {}

/** The SSE transport, whose start fails if no `endpoint` event came within `endpointMs` (see SSE_ENDPOINT_MS). */
class SseWithinDeadline extends SSEClientTransport {
  /** Whether the server sent its `endpoint` event: it speaks this transport. */
  hasEndpoint = false;

  constructor(
    url: URL,
    options: SSEClientTransportOptions,
    readonly endpointMs: number,
  ) {
    super(url, options);
  }

  override async start(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new NoEndpoint('no endpoint event')), this.endpointMs);
    });
    try {
      // Failed, the client is closed (see connectWith), and the GET held open with it.
      await Promise.race([super.start(), late]);
      this.hasEndpoint = true;
    } finally {
      clearTimeout(timer);
    }
  }
}
