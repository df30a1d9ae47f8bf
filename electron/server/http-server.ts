import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorBody } from '../../shared/contract';
import { safeErrorBody } from '../host/dispatch';
import type { Host } from '../host/host';
import { createApiRoutes, routeApi } from './api-routes';
import { bearerToken, isValidToken } from './auth';
import {
  answerClientErrors,
  limitConnections,
  refuseConnect,
  resolveLimits,
  serverOptions,
  type ServerLimits,
} from './connection-limits';
import { sendError } from './http-io';
import { createLoopbackGuard } from './loopback-guard';
import { handleMcpRequest, MCP_PATH } from './mcp-endpoint';
import { badTarget, parseRequestTarget } from './request-target';
import { serveStatic } from './static-files';
import { attachWebSocket } from './ws-transport';

export interface HttpServerOptions {
  host: Host;
  token: string;
  port: number;
  rendererDir: string;
  logError: (message: string, error: unknown) => void;
  /** Timeouts and caps; the defaults suit a person's machine (see DEFAULT_LIMITS). */
  limits?: Partial<ServerLimits>;
}

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

// Loopback only: the API acts for the user, so nothing on the network may reach it.
const BIND_ADDRESS = '127.0.0.1';

/** The headless transport: REST + NDJSON under /api, the contract over a WebSocket at /ws, the renderer at /. */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningServer> {
  const routes = createApiRoutes(options.host, options.logError);
  // Known once the socket is bound (port 0 picks one); until then every request is refused.
  let refuseHeaders = createLoopbackGuard(-1);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Which host and origin come first: a rebound DNS name learns nothing, not even whether a token is right.
    const refused = refuseHeaders(req.headers);
    if (refused) return sendError(res, refused);
    const target = parseRequestTarget(req.url);
    if (!target) return sendError(res, badTarget().toBody());
    const isMcp = target.path === MCP_PATH;
    if (!target.path.startsWith('/api/') && !isMcp)
      return serveStatic(req, res, options.rendererDir, target.path);
    if (
      target.path !== '/api/health' &&
      !isValidToken(bearerToken(req.headers.authorization), options.token)
    ) {
      res.setHeader('www-authenticate', 'Bearer');
      return sendError(res, {
        code: 'unauthorized',
        message: 'Send the API token as "Authorization: Bearer <token>".',
      });
    }
    // Other MCP clients act for the person too: the same token, the same loopback and origin checks.
    if (isMcp) return handleMcpRequest(options.host, req, res);
    return routeApi(routes, req, res, target);
  };

  const limits = resolveLimits(options.limits);
  const server = createServer(serverOptions(limits), (req, res) => {
    if (connections.isRefused(req.socket)) return void req.socket.destroy();
    handle(req, res).catch((error: unknown) => {
      const body: ErrorBody = safeErrorBody(error);
      if (body.code === 'internal') options.logError(`${req.method} request failed`, error);
      if (!res.headersSent) sendError(res, body);
      else res.end();
    });
  });
  const connections = limitConnections(server, limits.maxConnections);
  answerClientErrors(server);
  refuseConnect(server);
  const sockets = attachWebSocket(server, {
    host: options.host,
    token: options.token,
    logError: options.logError,
    refuseHeaders: (headers) => refuseHeaders(headers),
    maxSubscriptions: limits.maxSubscriptionsPerSocket,
    maxCommands: limits.maxCommandsPerSocket,
    isRefused: connections.isRefused,
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, BIND_ADDRESS, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  refuseHeaders = createLoopbackGuard(port);
  return {
    url: `http://${BIND_ADDRESS}:${port}`,
    port,
    server,
    close: async () => {
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
