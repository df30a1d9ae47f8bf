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
  // The body is read under the API's own size cap before the SDK sees it.
  const body = req.method === 'POST' ? await readJsonBody(req) : undefined;
  const server = createDeputyMcpServer(host.clientCalls);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
