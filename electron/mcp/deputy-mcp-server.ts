import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { quoteId } from '../../shared/contract';
import type { ClientCalls } from '../host/client-calls';

/** While a call waits for the person, a client that asked for progress hears from Deputy this often. */
const PROGRESS_EVERY_MS = 10_000;

const INSTRUCTIONS =
  "Deputy acts for one person in their Gmail, Calendar, Slack, tasks and memory, under that person's rules. " +
  'A call their rules do not allow outright waits until they approve or reject it in Deputy; a rejected or ' +
  'refused call answers with isError and the reason. Do not retry a refused call.';

/**
 * tools/call as the SDK's base class parses it before any handler: only its method. With the full schema there, a
 * malformed call (`arguments: null`, no name) fails that parse and answers -32603 "internal error" with zod's
 * dump; with this one, the handler checks the full schema itself and answers -32602 "invalid params" in words.
 */
const LooseCallToolRequest = z.object({ method: z.literal('tools/call'), params: z.unknown() });

/**
 * An error the SDK sends as it is. Its answer carries the error's `message`, and McpError's own message already
 * starts "MCP error -32602: ", which the client puts before it again: the client would read the code twice.
 */
function refusal(code: ErrorCode, sentence: string): McpError {
  const error = new McpError(code, sentence);
  error.message = sentence;
  return error;
}

/** What is wrong with a malformed tools/call, in one sentence naming the argument (zod's words are for programmers). */
function malformedCall(error: z.ZodError): McpError {
  const field = error.issues[0]?.path[1];
  const sentence =
    field === 'arguments'
      ? 'The call\'s "arguments" must be an object of the tool\'s arguments ({} for none).'
      : field === 'name' || field === undefined
        ? 'The call\'s "name" must be the name of one of Deputy\'s tools, as text.'
        : `The call's "${String(field)}" is not valid.`;
  return refusal(ErrorCode.InvalidParams, sentence);
}

/**
 * Deputy as an MCP server: its own tools (never the tools it borrows from the person's MCP servers), each call
 * a run under Deputy's policy, approvals, ledger and audit trail. One server per connection (stdio) or request
 * (Streamable HTTP, stateless).
 */
export function createDeputyMcpServer(calls: ClientCalls): Server {
  const server = new Server(
    { name: 'deputy', version: '0.1.0' },
    { capabilities: { tools: { listChanged: false }, logging: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: calls.tools().map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: { type: 'object' as const, ...calls.argsSchema(tool.name) },
      annotations: {
        readOnlyHint: !tool.hasSideEffects,
        destructiveHint: tool.hasSideEffects && (tool.risk === 'high' || tool.risk === 'critical'),
        openWorldHint: tool.isExternal ?? false,
      },
    })),
  }));
  // Set as the base class sets any handler: Server's own wrapper for tools/call checks the call first and answers a
  // malformed one with zod's dump ("Invalid tools/call request: [{ expected: 'record' …"); here it is said in words.
  Protocol.prototype.setRequestHandler.call(
    server,
    LooseCallToolRequest,
    async (raw, extra): Promise<CallToolResult> => {
      const parsed = CallToolRequestSchema.safeParse(raw);
      if (!parsed.success) throw malformedCall(parsed.error);
      const request = parsed.data;
      const { name } = request.params;
      if (!calls.tools().some((tool) => tool.name === name))
        throw refusal(ErrorCode.InvalidParams, `Deputy has no tool named ${quoteId(name)}.`);
      // Over stateless HTTP each request has a server of its own, which never saw the client's `initialize`.
      const client = server.getClientVersion()?.name ?? 'over HTTP';
      const token = request.params._meta?.progressToken;
      let progress = 0;
      // A call that waits for the person keeps a patient client's request alive (resetTimeoutOnProgress).
      const keepAlive =
        token === undefined
          ? null
          : setInterval(() => {
              progress += 1;
              void extra
                .sendNotification({
                  method: 'notifications/progress',
                  params: { progressToken: token, progress, message: 'Waiting for the person to decide.' },
                })
                .catch(() => {});
            }, PROGRESS_EVERY_MS);
      try {
        const outcome = await calls.call(
          { client, tool: name, args: request.params.arguments ?? {} },
          extra.signal,
        );
        switch (outcome.kind) {
          case 'done':
            return { content: [{ type: 'text', text: JSON.stringify(outcome.result) }] };
          case 'refused':
            return {
              isError: true,
              content: [{ type: 'text', text: `Refused by Deputy: ${outcome.reason}` }],
            };
          case 'failed':
            return { isError: true, content: [{ type: 'text', text: `Failed: ${outcome.reason}` }] };
        }
      } finally {
        if (keepAlive) clearInterval(keepAlive);
      }
    },
  );
  return server;
}
