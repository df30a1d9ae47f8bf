import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { describeIssues, LIMITS, type ErrorBody } from '../../shared/contract';
import {
  WS_PATH,
  WS_PROTOCOL,
  WS_TOKEN_PREFIX,
  WsClientMessage,
  type WsServerMessage,
} from '../../shared/contract/ws-protocol';
import { dispatchCommand, openSubscription } from '../host/dispatch';
import type { Host } from '../host/host';
import { isValidToken } from './auth';

/** Carries the contract over a WebSocket at /ws: the browser renderer's transport. */
export function attachWebSocket(
  server: Server,
  host: Host,
  token: string,
  logError: (message: string, error: unknown) => void,
): { close(): void } {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: LIMITS.requestBodyBytes,
    handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refusal = refuseUpgrade(req, token);
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, host, logError));
  });

  return {
    close: () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}

function refuseUpgrade(req: IncomingMessage, token: string): string | null {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== WS_PATH) return '404 Not Found';
  // A web page on another origin could open a socket to loopback; only our own page (or a non-browser client) may.
  const origin = req.headers.origin;
  if (origin && !isSameOrigin(origin, req.headers.host)) return '403 Forbidden';
  const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((value) => value.trim());
  const candidate = offered.find((value) => value.startsWith(WS_TOKEN_PREFIX))?.slice(WS_TOKEN_PREFIX.length);
  if (!isValidToken(candidate, token)) return '401 Unauthorized';
  return null;
}

function isSameOrigin(origin: string, hostHeader: string | undefined): boolean {
  try {
    return new URL(origin).host === hostHeader;
  } catch {
    return false;
  }
}

function serveSocket(ws: WebSocket, host: Host, logError: (message: string, error: unknown) => void): void {
  const subscriptions = new Map<string, () => void>();
  const send = (message: WsServerMessage): void => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const fail = (error: ErrorBody): void => send({ kind: 'error', error });

  ws.on('message', (data: RawData) => {
    const message = parseMessage(data);
    if (!message.ok) return fail(message.error);
    const request = message.value;
    if (request.kind === 'command') {
      void dispatchCommand(host, request.channel, request.input, (error) =>
        logError(`${request.channel} failed`, error),
      ).then((result) => send({ kind: 'reply', id: request.id, ...result }));
      return;
    }
    if (request.kind === 'subscribe') {
      if (subscriptions.has(request.id)) {
        return send({
          kind: 'reply',
          id: request.id,
          ok: false,
          error: { code: 'conflict', message: 'That subscription id is in use.' },
        });
      }
      const opened = openSubscription(host, request.channel, request.input, (event) =>
        send({ kind: 'event', id: request.id, event }),
      );
      if (!opened.ok) return send({ kind: 'reply', id: request.id, ok: false, error: opened.error });
      subscriptions.set(request.id, opened.unsubscribe);
      return send({ kind: 'reply', id: request.id, ok: true, data: null });
    }
    subscriptions.get(request.id)?.();
    subscriptions.delete(request.id);
    send({ kind: 'reply', id: request.id, ok: true, data: null });
  });

  ws.on('close', () => {
    for (const unsubscribe of subscriptions.values()) unsubscribe();
    subscriptions.clear();
  });
  ws.on('error', (error) => logError('websocket error', error));
}

function parseMessage(data: RawData): { ok: true; value: WsClientMessage } | { ok: false; error: ErrorBody } {
  let json: unknown;
  try {
    json = JSON.parse(data.toString());
  } catch {
    return { ok: false, error: { code: 'invalid_input', message: 'A message is not valid JSON.' } };
  }
  const parsed = WsClientMessage.safeParse(json);
  if (!parsed.success)
    return { ok: false, error: { code: 'invalid_input', message: describeIssues(parsed.error) } };
  return { ok: true, value: parsed.data };
}
