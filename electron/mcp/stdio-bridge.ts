import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { redactErrorMessage } from '../vault/redactor';

export interface BridgeOptions {
  /** The running Deputy host, e.g. http://127.0.0.1:4747. */
  url: string;
  token: string;
  log: (line: string) => void;
}

/**
 * `npm run mcp`: a stdio MCP server for clients that launch one (Claude Desktop, Gemini CLI), passing every message
 * on to the running Deputy's `/mcp` endpoint. One host keeps the database, the approvals and the ledger; the
 * person approves in that Deputy while the client's call waits.
 */
export async function runStdioBridge(options: BridgeOptions): Promise<void> {
  const upstream = new StreamableHTTPClientTransport(new URL('/mcp', options.url), {
    requestInit: { headers: { authorization: `Bearer ${options.token}` } },
  });
  const local = new StdioServerTransport();
  local.onmessage = (message) => {
    upstream.send(message).catch((error: unknown) => {
      const reason = redactErrorMessage(error);
      options.log(`could not reach Deputy at ${options.url}: ${reason}`);
      // A request the host never got is answered here, so the client is not left waiting.
      if ('id' in message && 'method' in message)
        void local.send(unreachable(message.id, `Deputy is not reachable at ${options.url}: ${reason}`));
    });
  };
  upstream.onmessage = (message) => void local.send(message);
  upstream.onerror = (error) => options.log(`connection to Deputy: ${redactErrorMessage(error)}`);
  local.onclose = () => void upstream.close();
  await upstream.start();
  await local.start();
}

function unreachable(id: string | number, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code: -32000, message } };
}
