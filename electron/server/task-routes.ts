import type { CommandSender, Route } from './api-routes';
import { readJsonBody, readJsonObject } from './http-io';

/** The task list: list, add, change, complete and delete, each as the tasks desk takes it from the chat. */
export function taskRoutes(command: CommandSender): Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/api\/tasks$/,
      handle: async (_req, res, _params, query) => {
        const status = query.get('status');
        await command(res, 'tasks.list', status !== null ? { status } : {});
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/tasks$/,
      handle: async (req, res) =>
        command(res, 'tasks.change', { tool: 'add_task', args: await readJsonBody(req) }),
    },
    {
      method: 'PATCH',
      pattern: /^\/api\/tasks\/([^/]+)$/,
      handle: async (req, res, [id]) =>
        command(res, 'tasks.change', {
          tool: 'update_task',
          args: { ...(await readJsonObject(req)), id },
        }),
    },
    {
      method: 'POST',
      pattern: /^\/api\/tasks\/([^/]+)\/complete$/,
      handle: async (_req, res, [id]) =>
        command(res, 'tasks.change', { tool: 'mark_task_complete', args: { id } }),
    },
    {
      method: 'DELETE',
      pattern: /^\/api\/tasks\/([^/]+)$/,
      handle: async (_req, res, [id]) => command(res, 'tasks.change', { tool: 'delete_task', args: { id } }),
    },
  ];
}
