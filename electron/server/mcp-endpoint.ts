import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Host } from '../host/host';
import { createDeputyMcpServer } from '../mcp/deputy-mcp-server';
import { readJsonBody } from './http-io';

/** Where other MCP clients reach Deputy over Streamable HTTP (behind the same loopback and token checks as /api). */
export const MCP_PATH = '/mcp';

/**
 * One MCP request: a fresh server and a stateless transport for it, closed with the response. Stateless, so no
 * session outlives its request and a client that goes away leaves nothing behind; a call that waits for the
 * person keeps its own request open until they decide.
 */
export async function handleMcpRequest(host: Host, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Deputy sends nothing unasked, so there is no stream to GET and no session to DELETE: a GET would only hold a
  // connection open for ever (the protocol lets a server answer 405 here).
  if (req.method !== 'POST') {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: send MCP messages with POST.' },
      id: null,
    });
    res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' });
    res.end(body);
    return;
  }
  // The body is read under the API's own size cap before the SDK sees it.
  const body = await readJsonBody(req);
  const server = createDeputyMcpServer(host.clientCalls);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
