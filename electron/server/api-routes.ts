import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ApprovalDecideInput,
  ApprovalEditInput,
  errorOutcome,
  parseInput,
  READ_ONLY_SETTINGS,
  RunRequest,
  type CommandName,
  type ErrorCode,
  type RunEvent,
  type RunResponse,
} from '../../shared/contract';
import { dispatchCommand, safeErrorBody } from '../host/dispatch';
import type { Host } from '../host/host';
import { agentRoutes } from './agent-routes';
import { auditRoutes } from './audit-routes';
import { extensionRoutes } from './extension-routes';
import { memoryRoutes } from './memory-routes';
import { planRoutes } from './plan-routes';
import { taskRoutes } from './task-routes';
import { tasksMemoriesRoutes } from './tasks-memories-routes';
import { threadRoutes } from './thread-routes';
import { decodePathPart, type RequestTarget } from './request-target';
import {
  queryNumber,
  readJsonBody,
  readJsonObject,
  readOptionalJsonObject,
  sendError,
  sendJson,
  statusFor,
} from './http-io';

export type RouteHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  params: string[],
  query: URLSearchParams,
) => Promise<void>;
export interface Route {
  method: string;
  pattern: RegExp;
  handle: RouteHandler;
}

/** Run failures that mean Gemini cannot be used until the person sets up a key: answered as their error. */
const KEY_PROBLEMS: readonly ErrorCode[] = ['model_not_configured', 'model_key_rejected'];

/** Sends a command's result as JSON, or its typed error. */
export type CommandSender = (res: ServerResponse, channel: CommandName, input: unknown) => Promise<void>;

export function createApiRoutes(host: Host, logError: (message: string, error: unknown) => void): Route[] {
  const command: CommandSender = async (res, channel, input) => {
    const result = await dispatchCommand(host, channel, input, (error) =>
      logError(`${channel} failed`, error),
    );
    if (result.ok) sendJson(res, 200, result.data);
    else sendError(res, result.error);
  };

  return [
    {
      method: 'GET',
      pattern: /^\/api\/health$/,
      handle: async (_req, res) => sendJson(res, 200, { ok: true }),
    },
    {
      method: 'POST',
      pattern: /^\/api\/agent\/run$/,
      handle: async (req, res) => {
        const request = await readRunRequest(host, req);
        const result = await host.runToEnd(request);
        // A run that could not start for want of a working Gemini key is not a 200 with ok:false inside: 503.
        const keyProblem = KEY_PROBLEMS.find((code) => result.outcome === errorOutcome(code));
        if (keyProblem) sendError(res, { code: keyProblem, message: result.summary });
        else sendJson(res, 200, result);
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/agent\/run\/stream$/,
      handle: async (req, res) => {
        const request = await readRunRequest(host, req);
        await streamRun(res, (onEvent) => host.runToEnd(request, onEvent));
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/runs\/([^/]+)\/cancel$/,
      handle: async (_req, res, [runId]) => command(res, 'run.cancel', { runId }),
    },
    ...threadRoutes(host, command),
    {
      method: 'GET',
      pattern: /^\/api\/models$/,
      handle: async (_req, res, _params, query) =>
        command(res, 'models.list', query.get('refresh') === 'true' ? { refresh: true } : {}),
    },
    {
      method: 'GET',
      pattern: /^\/api\/usage\/daily$/,
      handle: async (_req, res, _params, query) => {
        const days = query.get('days');
        await command(res, 'usage.daily', days !== null ? { days: queryNumber(days) } : {});
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/data$/,
      handle: async (_req, res) => command(res, 'data.stats', {}),
    },
    {
      method: 'POST',
      pattern: /^\/api\/data\/prune$/,
      handle: async (req, res) => command(res, 'threads.prune', await readJsonBody(req)),
    },
    {
      method: 'POST',
      pattern: /^\/api\/data\/compact$/,
      handle: async (_req, res) => command(res, 'data.compact', {}),
    },
    ...tasksMemoriesRoutes(host),
    {
      method: 'GET',
      pattern: /^\/api\/context$/,
      handle: async (_req, res) => command(res, 'context.stats', {}),
    },
    {
      method: 'POST',
      pattern: /^\/api\/context\/clear$/,
      handle: async (_req, res) => command(res, 'context.clear', {}),
    },
    {
      method: 'GET',
      pattern: /^\/api\/actions\/pending$/,
      handle: async (_req, res) => command(res, 'approval.list', { status: 'pending' }),
    },
    {
      method: 'GET',
      pattern: /^\/api\/actions\/([^/]+)$/,
      handle: async (_req, res, [id]) => sendJson(res, 200, host.actionDetail(id ?? '')),
    },
    {
      method: 'POST',
      pattern: /^\/api\/actions\/([^/]+)\/(approve|reject)$/,
      handle: async (req, res, [id, decision]) => {
        const body = await readOptionalJsonObject(req);
        const input = parseInput(ApprovalDecideInput, { ...body, approvalId: id, decision });
        sendJson(res, 200, await host.approvals.decide(input));
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/actions\/([^/]+)\/edit$/,
      handle: async (req, res, [id]) => {
        const body = await readJsonObject(req);
        sendJson(
          res,
          200,
          await host.approvals.edit(parseInput(ApprovalEditInput, { ...body, approvalId: id })),
        );
      },
    },
    ...taskRoutes(command),
    ...auditRoutes(host, command),
    ...agentRoutes(host, command),
    ...planRoutes(command),
    {
      method: 'GET',
      pattern: /^\/api\/settings$/,
      handle: async (_req, res) => command(res, 'settings.get', {}),
    },
    {
      method: 'PUT',
      pattern: /^\/api\/settings$/,
      // GET → change → PUT works: the read-only facts GET returned are dropped rather than refused.
      handle: async (req, res) => command(res, 'settings.set', withoutReadOnly(await readJsonBody(req))),
    },
    {
      method: 'GET',
      pattern: /^\/api\/side-effects$/,
      handle: async (_req, res) => command(res, 'sideEffects.get', {}),
    },
    {
      // {"isPaused": true} pauses every side effect (the tray's "Pause all side effects"); false resumes.
      method: 'PUT',
      pattern: /^\/api\/side-effects$/,
      handle: async (req, res) => command(res, 'sideEffects.set', await readJsonBody(req)),
    },
    {
      method: 'GET',
      pattern: /^\/api\/tools$/,
      handle: async (_req, res) => sendJson(res, 200, { tools: host.toolCatalog() }),
    },
    {
      method: 'GET',
      pattern: /^\/api\/connections$/,
      handle: async (_req, res) => command(res, 'connections.list', {}),
    },
    {
      // Starts the browser sign-in and answers at once with the page to open; the status shows the rest.
      method: 'POST',
      pattern: /^\/api\/connections\/(google|slack)\/start$/,
      handle: async (req, res, [name]) =>
        command(res, 'connections.connect', { ...(await readOptionalJsonObject(req)), name }),
    },
    {
      method: 'PUT',
      pattern: /^\/api\/connections\/(slack|gemini)$/,
      handle: async (req, res, [name]) =>
        command(res, 'connections.connect', { ...(await readJsonObject(req)), name }),
    },
    {
      method: 'DELETE',
      pattern: /^\/api\/connections\/([^/]+)$/,
      handle: async (_req, res, [name]) => command(res, 'connections.disconnect', { name }),
    },
    ...memoryRoutes(command),
    ...extensionRoutes(command),
  ];
}

/** Finds the route for a request: a matching path with another method is a 405, no path a 404. */
export async function routeApi(
  routes: Route[],
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
): Promise<void> {
  const { path } = target;
  const onPath = routes.filter((route) => route.pattern.test(path));
  // HEAD is GET without the body: Node sends the headers (content-length included) and leaves the body out.
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  const route = onPath.find((candidate) => candidate.method === method);
  if (!route) {
    if (onPath.length > 0) {
      const allowed = onPath.map((candidate) => candidate.method);
      res.setHeader('allow', (allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed).join(', '));
      sendJson(res, 405, {
        ok: false,
        error: { code: 'invalid_input', message: `${req.method} is not allowed here.` },
      });
    } else {
      sendError(res, { code: 'not_found', message: 'There is no API route at this path.' });
    }
    return;
  }
  const params = (route.pattern.exec(path) ?? []).slice(1).map((part) => decodePathPart(part));
  await route.handle(req, res, params, target.query);
}

function withoutReadOnly(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const readOnly: readonly string[] = READ_ONLY_SETTINGS;
  return Object.fromEntries(Object.entries(body).filter(([key]) => !readOnly.includes(key)));
}

/** A run request, or the refusal of one that does not parse, recorded as a decision (REFUSAL:INVALID_INPUT). */
async function readRunRequest(host: Host, req: IncomingMessage): Promise<RunRequest> {
  try {
    return parseInput(RunRequest, await readJsonBody(req));
  } catch (error) {
    host.refusedRequest(safeErrorBody(error));
    throw error;
  }
}

/**
 * NDJSON: one event per line as the run emits it, ending with `result` (and `error` first when it failed).
 * The run goes on if the client hangs up: it is recorded in the thread either way.
 */
export async function streamRun(
  res: ServerResponse,
  run: (onEvent: (event: RunEvent) => void) => Promise<RunResponse>,
): Promise<void> {
  let hasStarted = false;
  const write = (event: RunEvent): void => {
    if (!hasStarted) {
      res.writeHead(200, {
        'content-type': 'application/x-ndjson; charset=utf-8',
        'cache-control': 'no-store',
      });
      hasStarted = true;
    }
    if (!res.writableEnded && !res.destroyed) res.write(`${JSON.stringify(event)}\n`);
  };
  try {
    await run(write);
  } catch (error) {
    const body = safeErrorBody(error);
    if (!hasStarted) {
      sendJson(res, statusFor(body), { ok: false, error: body });
      return;
    }
    res.write(`${JSON.stringify({ type: 'error', error: body.message, code: body.code })}\n`);
  }
  res.end();
}
