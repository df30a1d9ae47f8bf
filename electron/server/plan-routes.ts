import type { CommandSender, Route } from './api-routes';
import { readOptionalJsonObject } from './http-io';

/** Spec 004's plan routes: read a plan, approve it whole, continue it (with an answer), cancel it. */
export function planRoutes(command: CommandSender): Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/api\/plans\/([^/]+)$/,
      handle: async (_req, res, [id]) => command(res, 'plan.get', { planId: id }),
    },
    {
      method: 'POST',
      pattern: /^\/api\/plans\/([^/]+)\/(approve|cancel)$/,
      handle: async (_req, res, [id, verb]) =>
        command(res, verb === 'approve' ? 'plan.approve' : 'plan.cancel', { planId: id }),
    },
    {
      method: 'POST',
      pattern: /^\/api\/plans\/([^/]+)\/continue$/,
      handle: async (req, res, [id]) => {
        const body = await readOptionalJsonObject(req);
        await command(res, 'plan.continue', { ...body, planId: id });
      },
    },
  ];
}
