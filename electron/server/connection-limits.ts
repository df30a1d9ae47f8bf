import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorBody } from '../../shared/contract';
import { statusFor } from './http-io';

export interface ServerLimits {
  /** A client has this long to send its request line and headers. */
  headersTimeoutMs: number;
  /** …and this long for the whole request, body included (the response may take as long as it needs). */
  requestTimeoutMs: number;
  /** Open sockets at once, WebSockets included; the next one is turned away with `too_many`. */
  maxConnections: number;
  /** Streams one WebSocket may hold open at once. */
  maxSubscriptionsPerSocket: number;
  /** Commands one WebSocket may have sent and not yet had answered; the next one is answered `too_many`. */
  maxCommandsPerSocket: number;
}

/** A person's own scripts and one or two windows need a handful of each; these leave a wide margin. */
export const DEFAULT_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnections: 64,
  maxSubscriptionsPerSocket: 64,
  maxCommandsPerSocket: 64,
};

export function resolveLimits(overrides: Partial<ServerLimits> = {}): ServerLimits {
  return { ...DEFAULT_LIMITS, ...overrides };
}

/** Options for `createServer` that cut slow or never-finished requests (a slowloris holds no socket for long). */
export function serverOptions(limits: ServerLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // How often Node looks for requests past their timeouts; the default (30 s) would let one overstay by that much.
    connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    keepAliveTimeout: 5_000,
    // Node's own refusal of a missing Host has no body; the loopback guard refuses it with the JSON error.
    requireHostHeader: false,
  };
}

/**
 * Turns away sockets beyond the cap with a typed answer instead of letting them pile up. Node's HTTP parser is
 * already attached when 'connection' fires, so a request the refused client sends anyway would still be
 * parsed and routed: every entry point (request, upgrade, CONNECT) asks `isRefused` first and drops it.
 */
export function limitConnections(server: Server, max: number): { isRefused(socket: Socket): boolean } {
  const open = new Set<Socket>();
  const refused = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    if (open.size >= max) {
      refused.add(socket);
      answerRaw(socket, {
        code: 'too_many',
        message: `Deputy already has ${max} connections open; close some and try again.`,
      });
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return { isRefused: (socket) => refused.has(socket) };
}

/**
 * What the HTTP parser rejects before any handler runs (a malformed request line, a header with a NUL,
 * headers too large, a timeout) is answered with the same JSON error body as everything else.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // A response already under way on this socket (a keep-alive client's NDJSON stream) must not get an
    // error spliced into it: the connection is dropped instead, as Node itself does.
    const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
      socket.destroy();
      return;
    }
    answerRaw(socket, clientErrorBody(error.code));
  });
}

/** CONNECT asks us to be a proxy; Node hands it to a 'connect' listener, and without one drops the socket. */
export function refuseConnect(server: Server): void {
  server.on('connect', (_req: unknown, socket: Socket) =>
    answerRaw(
      socket,
      { code: 'invalid_input', message: 'Deputy is not a proxy: CONNECT is not allowed.' },
      405,
    ),
  );
}

function clientErrorBody(code: string | undefined): ErrorBody {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'HPE_HEADER_TIMEOUT')
    return { code: 'request_timeout', message: 'The request took too long to arrive.' };
  if (code === 'HPE_HEADER_OVERFLOW')
    return { code: 'payload_too_large', message: 'The request headers are too large.' };
  return { code: 'invalid_input', message: 'The request is not valid HTTP/1.1.' };
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  421: 'Misdirected Request',
  429: 'Too Many Requests',
};

/** An answer written straight to a socket that has no `ServerResponse`, then the socket is closed. */
export function answerRaw(socket: Socket, error: ErrorBody, status = statusFor(error)): void {
  const body = JSON.stringify({ ok: false, error });
  socket.on('error', () => socket.destroy());
  // Destroyed once written, so nothing more is read from a client that was turned away.
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
    () => socket.destroy(),
  );
}
