import type { CommandSender, Route } from './api-routes';
import { readJsonBody, readJsonObject } from './http-io';

/** The MCP servers Deputy uses as extensions: list, add or change, remove, restart, read one's log, import. */
export function extensionRoutes(command: CommandSender): Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/api\/mcp\/servers$/,
      handle: async (_req, res) => command(res, 'mcp.list', {}),
    },
    {
      method: 'PUT',
      pattern: /^\/api\/mcp\/servers\/([^/]+)$/,
      handle: async (req, res, [name]) => command(res, 'mcp.put', { ...(await readJsonObject(req)), name }),
    },
    {
      method: 'DELETE',
      pattern: /^\/api\/mcp\/servers\/([^/]+)$/,
      handle: async (_req, res, [name]) => command(res, 'mcp.delete', { name }),
    },
    {
      method: 'POST',
      pattern: /^\/api\/mcp\/servers\/([^/]+)\/restart$/,
      handle: async (_req, res, [name]) => command(res, 'mcp.restart', { name }),
    },
    {
      method: 'GET',
      pattern: /^\/api\/mcp\/servers\/([^/]+)\/log$/,
      handle: async (_req, res, [name]) => command(res, 'mcp.log', { name }),
    },
    {
      method: 'POST',
      pattern: /^\/api\/mcp\/import$/,
      handle: async (req, res) => command(res, 'mcp.import', await readJsonBody(req)),
    },
  ];
}
