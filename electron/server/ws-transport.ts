import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  DeputyError,
  describeIssues,
  LIMITS,
  quoteId,
  type ErrorBody,
  type ErrorCode,
} from '../../shared/contract';
import {
  WS_PATH,
  WS_PROTOCOL,
  WS_TOKEN_PREFIX,
  WsClientMessage,
  type WsServerMessage,
} from '../../shared/contract/ws-protocol';
import { fairTurn } from '../engine/fair-turns';
import { dispatchCommand, openSubscription } from '../host/dispatch';
import type { Host } from '../host/host';
import { checkClientInput } from '../host/client-input';
import { isValidToken } from './auth';
import { answerRaw } from './connection-limits';
import { badTarget, parseRequestTarget } from './request-target';

export interface WebSocketOptions {
  host: Host;
  token: string;
  logError: (message: string, error: unknown) => void;
  /** The same Host/Origin check as HTTP (see loopback-guard.ts). */
  refuseHeaders: (headers: IncomingHttpHeaders) => ErrorBody | null;
  maxSubscriptions: number;
  /** Commands one WebSocket may have sent and not yet had answered. */
  maxCommands: number;
  /** A socket already turned away by the connection cap: nothing it sends is served. */
  isRefused: (socket: Socket) => boolean;
}

/** How much unsent data one WebSocket may hold before the host stops writing to it. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** Carries the contract over a WebSocket at /ws: the browser renderer's transport. */
export function attachWebSocket(server: Server, options: WebSocketOptions): { close(): void } {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: LIMITS.requestBodyBytes,
    handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });

  // The ws library's own refusals (a bad Sec-WebSocket-Key, version or protocol header) are plain text;
  // this listener makes them the same JSON error as every other refusal.
  wss.on('wsClientError', (error: Error, socket: Duplex) =>
    answerRaw(socket as Socket, {
      code: 'invalid_input',
      message: `The WebSocket handshake is not valid: ${error.message}`,
    }),
  );

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Nothing a client sends on this path may throw out of the listener: an exception here has no
    // request around it and would take the whole host down.
    if (options.isRefused(socket as Socket)) return void socket.destroy();
    try {
      const refusal = refuseUpgrade(req, options);
      if (refusal) return answerRaw(socket as Socket, refusal);
      wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, options));
    } catch (error) {
      options.logError('a WebSocket upgrade failed', error);
      answerRaw(socket as Socket, { code: 'invalid_input', message: 'The upgrade request is not valid.' });
    }
  });

  return {
    close: () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}

function refuseUpgrade(req: IncomingMessage, options: WebSocketOptions): ErrorBody | null {
  const refused = options.refuseHeaders(req.headers);
  if (refused) return refused;
  const target = parseRequestTarget(req.url);
  if (!target) return badTarget().toBody();
  if (target.path !== WS_PATH)
    return { code: 'not_found', message: `WebSockets are served at ${WS_PATH} only.` };
  const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((value) => value.trim());
  const candidate = offered.find((value) => value.startsWith(WS_TOKEN_PREFIX))?.slice(WS_TOKEN_PREFIX.length);
  if (!isValidToken(candidate, options.token))
    return { code: 'unauthorized', message: 'Offer the API token as the subprotocol "bearer.<token>".' };
  return null;
}

function serveSocket(
  ws: WebSocket,
  { host, logError, maxSubscriptions, maxCommands }: WebSocketOptions,
): void {
  const subscriptions = new Map<string, () => void>();
  // Ids of commands not yet answered: with the subscriptions', the ids a new command or subscription may not take.
  const commandsInFlight = new Set<string>();
  const isInUse = (id: string): boolean => subscriptions.has(id) || commandsInFlight.has(id);
  const send = (message: WsServerMessage): void => {
    if (ws.readyState !== ws.OPEN) return;
    // A client that stops reading would make the host buffer its events without end; it is cut off instead
    // (streams replay what is stored, so it loses nothing by subscribing again).
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.close(1013, 'Too far behind: reconnect and subscribe again.');
      return;
    }
    ws.send(JSON.stringify(message));
  };
  const fail = (error: ErrorBody, refusedId?: string): void =>
    send({ kind: 'error', error, ...(refusedId !== undefined && { refusedId }) });
  const refuse = (id: string, code: ErrorCode, message: string): void =>
    send({ kind: 'reply', id, ok: false, error: { code, message } });
  // One id, one conversation: a refusal on an id that already carries a subscription's events or a command's
  // coming answer would be taken for that answer. It goes as a connection-level error instead, naming the id.
  const conflict = (id: string, message: string): void => fail({ code: 'conflict', message }, id);

  ws.on('message', (data: RawData) => {
    const message = parseMessage(data);
    if (!message.ok) {
      const { id, error } = message;
      if (!id) return fail(error);
      // A message that names its id is answered on that id, so the client's call ends instead of hanging; when
      // the id is in use, the error names it instead (see `conflict`).
      if (!isInUse(id)) return send({ kind: 'reply', id, ok: false, error });
      return fail(
        { ...error, message: `The message with the id ${quoteId(id)} was refused: ${error.message}` },
        id,
      );
    }
    const request = message.value;
    if (request.kind !== 'unsubscribe' && isInUse(request.id)) {
      const what = request.kind === 'command' ? 'The command' : 'The subscription';
      return conflict(
        request.id,
        `${what} with the id ${quoteId(request.id)} was refused: that id is in use by a subscription or a command not yet answered. Send it again with an id of its own.`,
      );
    }
    if (request.kind === 'command') {
      // Each command waiting for its turn holds memory and, for run.start, becomes a run: a client sending them
      // in a loop without reading the replies is turned away instead of piling them up.
      if (commandsInFlight.size >= maxCommands) {
        return refuse(
          request.id,
          'too_many',
          `One connection may have ${maxCommands} commands waiting for an answer; wait for some replies first.`,
        );
      }
      commandsInFlight.add(request.id);
      // Commands that arrive together (a client starting twenty runs) take turns with the runs' steps.
      void Promise.resolve(fairTurn())
        .then(() =>
          dispatchCommand(host, request.channel, request.input, (error) =>
            logError(`${request.channel} failed`, error),
          ),
        )
        .then((result) => {
          commandsInFlight.delete(request.id);
          send({ kind: 'reply', id: request.id, ...result });
        });
      return;
    }
    if (request.kind === 'subscribe') {
      if (subscriptions.size >= maxSubscriptions) {
        return refuse(
          request.id,
          'too_many',
          `One connection may hold ${maxSubscriptions} subscriptions; unsubscribe from some first.`,
        );
      }
      const opened = openSubscription(host, request.channel, request.input, (event) =>
        send({ kind: 'event', id: request.id, event }),
      );
      if (!opened.ok) return send({ kind: 'reply', id: request.id, ok: false, error: opened.error });
      subscriptions.set(request.id, opened.unsubscribe);
      return send({ kind: 'reply', id: request.id, ok: true, data: null });
    }
    // A command's id is no subscription: an `ok` would tell the client that something of that id had stopped
    // while the command goes on, and its real answer still comes. An id that is neither stays a harmless `ok`.
    if (commandsInFlight.has(request.id)) {
      return conflict(
        request.id,
        `Nothing was unsubscribed: the id ${quoteId(request.id)} is a command not yet answered, not a subscription. The command goes on, and its answer comes on that id.`,
      );
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

function parseMessage(
  data: RawData,
): { ok: true; value: WsClientMessage } | { ok: false; error: ErrorBody; id: string | null } {
  let json: unknown;
  try {
    json = JSON.parse(data.toString());
  } catch {
    return { ok: false, error: { code: 'invalid_input', message: 'A message is not valid JSON.' }, id: null };
  }
  const id = idOf(json);
  try {
    checkClientInput(json);
  } catch (error) {
    if (error instanceof DeputyError) return { ok: false, error: error.toBody(), id };
    throw error;
  }
  const parsed = WsClientMessage.safeParse(json);
  if (!parsed.success)
    return { ok: false, error: { code: 'invalid_input', message: describeIssues(parsed.error) }, id };
  return { ok: true, value: parsed.data };
}

function idOf(json: unknown): string | null {
  if (json === null || typeof json !== 'object') return null;
  const { id } = json as { id?: unknown };
  return typeof id === 'string' && id.length > 0 && id.length <= 64 ? id : null;
}
