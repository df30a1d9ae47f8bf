import type { CommandSender, Route } from './api-routes';
import { queryNumber, readJsonObject } from './http-io';

/** What Deputy remembers: list (with search and paging), change and forget. */
export function memoryRoutes(command: CommandSender): Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/api\/memories$/,
      handle: async (_req, res, _params, query) => {
        const limit = query.get('limit');
        await command(res, 'memory.list', {
          ...(query.get('q') !== null && { query: query.get('q') }),
          ...(limit !== null && { limit: queryNumber(limit) }),
          ...(query.get('cursor') !== null && { cursor: query.get('cursor') }),
        });
      },
    },
    {
      method: 'PUT',
      pattern: /^\/api\/memories\/([^/]+)$/,
      handle: async (req, res, [id]) => command(res, 'memory.update', { ...(await readJsonObject(req)), id }),
    },
    {
      method: 'DELETE',
      pattern: /^\/api\/memories\/([^/]+)$/,
      handle: async (_req, res, [id]) => command(res, 'memory.delete', { id }),
    },
  ];
}
