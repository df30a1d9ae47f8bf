import type { z } from 'zod';
import type * as ContractModule from '../../../shared/contract';
import type {
  CommandInput,
  CommandName,
  CommandOutput,
  DeputyClient,
  StreamEvent,
  StreamInput,
  StreamName,
  StreamOptions,
} from '../../../shared/contract';
import { WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../../shared/contract/ws-names';
import type { WsClientMessage } from '../../../shared/contract/ws-protocol';
import { ClientError } from './client-error';

type Contract = typeof ContractModule;

// The contract's schemas (and zod) are a chunk of their own, fetched while the socket opens: the window's
// first frame does not wait for them. Replies and events that arrive first are checked once they are here,
// in the order they came (promise callbacks run in the order they were added).
let contract: Contract | null = null;
let contractLoad: Promise<Contract> | null = null;
function withContract(apply: (loaded: Contract) => void): void {
  if (contract) return apply(contract);
  contractLoad ??= import('../../../shared/contract').then((loaded) => (contract = loaded));
  void contractLoad.then(apply);
}

/**
 * `refused`: the very first connection closed before it opened (bad token, or no host there);
 * `unauthorized`: the host closed with 4401. Both stop retrying until the user supplies a token.
 */
export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'refused' | 'unauthorized' | 'closed';

export interface WsClientOptions {
  url: string;
  token: string;
  /** Defaults to the global WebSocket (the browser's, or Node's in tests). */
  createSocket?: (url: string, protocols: string[]) => WebSocket;
  retry?: { initialDelayMs?: number; maxDelayMs?: number };
  onStatus?: (status: ConnectionStatus) => void;
}

export interface WsClient extends DeputyClient {
  readonly status: ConnectionStatus;
  close(): void;
}

/** The host closes with this code when the bearer token is wrong. */
export const UNAUTHORIZED_CLOSE_CODE = 4401;
const OPEN = 1;

interface PendingCommand {
  frame: string;
  isSent: boolean;
  settle(reply: { ok: true; data: unknown } | { ok: false; error: ClientError }): void;
}

interface Subscription {
  frame: string;
  deliver(event: unknown): void;
  /** The host's answer to the subscription, which it sends after what it replays. */
  accepted(): void;
}

const disconnected = () =>
  new ClientError(
    'disconnected',
    'Lost the connection to Deputy before it answered. Try again once it reconnects.',
  );

export function createWsClient(options: WsClientOptions): WsClient {
  withContract(() => undefined);
  const createSocket = options.createSocket ?? ((url, protocols) => new WebSocket(url, protocols));
  const initialDelayMs = options.retry?.initialDelayMs ?? 250;
  const maxDelayMs = options.retry?.maxDelayMs ?? 5_000;
  const pending = new Map<string, PendingCommand>();
  const subscriptions = new Map<string, Subscription>();
  let status: ConnectionStatus = 'connecting';
  let socket: WebSocket | null = null;
  let hasEverOpened = false;
  let failedAttempts = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}${++counter}`;

  function setStatus(next: ConnectionStatus): void {
    if (status === next) return;
    status = next;
    options.onStatus?.(next);
  }

  const isOpen = () => socket !== null && socket.readyState === OPEN;
  const isFinished = () => status === 'refused' || status === 'unauthorized' || status === 'closed';

  function send(frame: string): void {
    socket?.send(frame);
  }

  function rejectPending(error: ClientError): void {
    for (const command of pending.values()) command.settle({ ok: false, error });
    pending.clear();
  }

  function connect(): void {
    let ws: WebSocket;
    try {
      ws = createSocket(options.url, [WS_PROTOCOL, `${WS_TOKEN_PREFIX}${options.token}`]);
    } catch {
      // The constructor throws on a token that is not a valid subprotocol: no host would accept it.
      handleClose(UNAUTHORIZED_CLOSE_CODE);
      return;
    }
    socket = ws;
    ws.addEventListener('open', () => {
      if (socket !== ws) return;
      hasEverOpened = true;
      failedAttempts = 0;
      setStatus('open');
      for (const subscription of subscriptions.values()) send(subscription.frame);
      for (const command of pending.values()) {
        if (!command.isSent) {
          command.isSent = true;
          send(command.frame);
        }
      }
    });
    ws.addEventListener('message', (message: MessageEvent) => {
      if (socket === ws) handleFrame(message.data);
    });
    ws.addEventListener('close', (event: CloseEvent) => {
      if (socket !== ws) return;
      socket = null;
      handleClose(event.code);
    });
  }

  function handleClose(code: number): void {
    rejectPending(disconnected());
    if (isFinished()) return;
    if (code === UNAUTHORIZED_CLOSE_CODE) return setStatus('unauthorized');
    // A first attempt that never opened is most likely a rejected token; retrying would just spin.
    if (!hasEverOpened) return setStatus('refused');
    setStatus('reconnecting');
    const delay = Math.min(maxDelayMs, initialDelayMs * 2 ** failedAttempts);
    failedAttempts += 1;
    retryTimer = setTimeout(
      () => {
        retryTimer = null;
        if (!isFinished()) connect();
      },
      delay * (0.75 + Math.random() * 0.5),
    );
  }

  function handleFrame(data: unknown): void {
    if (typeof data !== 'string') return;
    let frame: unknown;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof frame !== 'object' || frame === null) return;
    const { kind, id } = frame as { kind?: unknown; id?: unknown };
    if (typeof id !== 'string') return;
    if (kind === 'reply') {
      const command = pending.get(id);
      if (!command) {
        if ((frame as { ok?: unknown }).ok === true) subscriptions.get(id)?.accepted();
        return;
      }
      pending.delete(id);
      const reply = frame as { ok?: unknown; data?: unknown; error?: { code?: unknown; message?: unknown } };
      if (reply.ok === true) return command.settle({ ok: true, data: reply.data });
      const code = typeof reply.error?.code === 'string' ? reply.error.code : 'internal';
      const message =
        typeof reply.error?.message === 'string' ? reply.error.message : 'Deputy could not do that.';
      command.settle({ ok: false, error: new ClientError(code, message) });
    } else if (kind === 'event') {
      subscriptions.get(id)?.deliver((frame as { event?: unknown }).event);
    }
  }

  function invoke<C extends CommandName>(channel: C, input: CommandInput<C>): Promise<CommandOutput<C>> {
    if (isFinished()) return Promise.reject(disconnected());
    // The map lookup loses the link between C and its schema; the cast restores it.
    const schemaOf = (loaded: Contract) =>
      loaded.commands[channel].output as unknown as z.ZodType<CommandOutput<C>>;
    return new Promise((resolve, reject) => {
      const id = nextId('c');
      const message = { kind: 'command', id, channel, input } satisfies WsClientMessage;
      const command: PendingCommand = {
        frame: JSON.stringify(message),
        isSent: false,
        settle: (reply) => {
          if (!reply.ok) return reject(reply.error);
          withContract((loaded) => {
            const parsed = schemaOf(loaded).safeParse(reply.data);
            if (parsed.success) resolve(parsed.data);
            else
              reject(
                new ClientError(
                  'bad_reply',
                  `Deputy answered ${channel} in a shape this window does not know.`,
                ),
              );
          });
        },
      };
      pending.set(id, command);
      if (isOpen()) {
        command.isSent = true;
        send(command.frame);
      }
    });
  }

  function on<S extends StreamName>(
    channel: S,
    input: StreamInput<S>,
    listener: (event: StreamEvent<S>) => void,
    { onCaughtUp }: StreamOptions = {},
  ): () => void {
    const schemaOf = (loaded: Contract) =>
      loaded.streams[channel].event as unknown as z.ZodType<StreamEvent<S>>;
    const id = nextId('s');
    const message = { kind: 'subscribe', id, channel, input } satisfies WsClientMessage;
    subscriptions.set(id, {
      frame: JSON.stringify(message),
      deliver: (event) => {
        // Events this window does not know (newer types, bad shapes) are ignored, as the contract asks.
        withContract((loaded) => {
          const parsed = schemaOf(loaded).safeParse(event);
          if (parsed.success) listener(parsed.data);
        });
      },
      // After the events before it, which may still wait for the contract to be checked.
      accepted: () => withContract(() => subscriptions.has(id) && onCaughtUp?.()),
    });
    if (isOpen()) send(JSON.stringify(message));
    return () => {
      if (!subscriptions.delete(id)) return;
      if (isOpen()) send(JSON.stringify({ kind: 'unsubscribe', id } satisfies WsClientMessage));
    };
  }

  function close(): void {
    if (retryTimer) clearTimeout(retryTimer);
    setStatus('closed');
    subscriptions.clear();
    rejectPending(disconnected());
    const ws = socket;
    socket = null;
    ws?.close(1000);
  }

  connect();
  return {
    get status() {
      return status;
    },
    invoke,
    on,
    close,
  };
}

/** The host serves the renderer and the socket from the same origin. */
export function socketUrlFor(location: Pick<Location, 'protocol' | 'host'>, path: string): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
}
