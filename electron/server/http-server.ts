import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { safeErrorBody } from '../host/dispatch';
import type { Host } from '../host/host';
import { createApiRoutes, routeApi } from './api-routes';
import { bearerToken, isValidToken } from './auth';
import { sendError } from './http-io';
import { serveStatic } from './static-files';
import { attachWebSocket } from './ws-transport';

export interface HttpServerOptions {
  host: Host;
  token: string;
  port: number;
  rendererDir: string;
  logError: (message: string, error: unknown) => void;
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
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (!path.startsWith('/api/')) return serveStatic(req, res, options.rendererDir);
    if (path !== '/api/health' && !isValidToken(bearerToken(req.headers.authorization), options.token)) {
      res.setHeader('www-authenticate', 'Bearer');
      return sendError(res, {
        code: 'unauthorized',
        message: 'Send the API token as "Authorization: Bearer <token>".',
      });
    }
    return routeApi(routes, req, res);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const body = safeErrorBody(error);
      if (body.code === 'internal') options.logError(`${req.method} ${req.url} failed`, error);
      if (!res.headersSent) sendError(res, body);
      else res.end();
    });
  });
  const sockets = attachWebSocket(server, options.host, options.token, options.logError);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, BIND_ADDRESS, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
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
