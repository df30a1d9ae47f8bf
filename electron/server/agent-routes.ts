import { AgentRunInput, parseInput } from '../../shared/contract';
import type { Host } from '../host/host';
import { streamRun, type CommandSender, type Route } from './api-routes';
import { readOptionalJsonObject, sendError, sendJson } from './http-io';

/** Agents (spec 001) and delegation (Keep-Up §5.4, §8.3–8.4): the catalog, runs, lineage and artifacts. */
export function agentRoutes(host: Host, command: CommandSender): Route[] {
  const runInput = async (req: Parameters<Route['handle']>[0], name: string | undefined) =>
    parseInput(AgentRunInput, { ...(await readOptionalJsonObject(req)), name });
  return [
    {
      method: 'GET',
      pattern: /^\/api\/agents$/,
      handle: async (_req, res) => command(res, 'agents.list', {}),
    },
    {
      method: 'GET',
      pattern: /^\/api\/agents\/([^/]+)$/,
      handle: async (_req, res, [name]) => command(res, 'agents.get', { name }),
    },
    {
      // The runtime spec's response shape, with `output` checked against the agent's outputConfig.
      method: 'POST',
      pattern: /^\/api\/agents\/([^/]+)\/run$/,
      handle: async (req, res, [name]) =>
        sendJson(res, 200, await host.runAgentToEnd(await runInput(req, name))),
    },
    {
      method: 'POST',
      pattern: /^\/api\/agents\/([^/]+)\/run\/stream$/,
      handle: async (req, res, [name]) => {
        const input = await runInput(req, name);
        await streamRun(res, (onEvent) => host.runAgentToEnd(input, onEvent));
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/runs\/([^/]+)\/lineage$/,
      handle: async (_req, res, [runId]) => command(res, 'runs.lineage', { runId }),
    },
    {
      method: 'GET',
      pattern: /^\/api\/artifacts$/,
      handle: async (_req, res, _params, query) => {
        const runId = query.get('run');
        if (runId === null) {
          sendError(res, { code: 'invalid_input', message: 'Say which run: /api/artifacts?run=<run id>.' });
          return;
        }
        await command(res, 'artifacts.list', { runId });
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/artifacts\/([^/]+)$/,
      handle: async (_req, res, [id]) => command(res, 'artifacts.get', { id }),
    },
  ];
}
