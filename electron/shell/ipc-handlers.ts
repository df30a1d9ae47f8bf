import type { ContractHost, ErrorBody, ErrorCode, Result } from '../../shared/contract';
import { dispatchCommand, openSubscription } from '../host/dispatch';
import { redactError } from '../vault/redactor';
import { IPC_CHANNELS, SUBSCRIPTION_ID_MAX_CHARS } from './ipc-wire';

// Free of Electron (no ipcMain, no windows), so the tests and the fuzzer drive the real handlers under plain Node.

/** The parts of Electron's `IpcMainInvokeEvent` the handlers use, so tests can build one from plain objects. */
export interface IpcInvokeEvent {
  readonly senderFrame: { readonly url: string; readonly parent: unknown } | null;
  readonly sender: IpcSender;
}

export interface IpcSender {
  readonly id: number;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  once(event: 'destroyed', listener: () => void): unknown;
  on(event: 'did-navigate', listener: () => void): unknown;
}

export type SenderCheck = (event: IpcInvokeEvent) => boolean;

/** The same bound as one WebSocket's (DEFAULT_LIMITS.maxSubscriptionsPerSocket): a few windows need a handful. */
export const MAX_SUBSCRIPTIONS_PER_WINDOW = 64;

const isSubscriptionId = (subId: unknown): subId is string =>
  typeof subId === 'string' && subId.length > 0 && subId.length <= SUBSCRIPTION_ID_MAX_CHARS;

/** An expected failure, as every handler answers one. */
export const fail = (code: ErrorCode, message: string): { ok: false; error: ErrorBody } => ({
  ok: false,
  error: { code, message },
});

// Expected failures carry their own words; anything else stays in the main process's log, never in the renderer.
const logUnexpected = (error: unknown): void => console.error('[ipc] a command failed', redactError(error));

const FORBIDDEN = 'This window may not talk to Deputy.';

/** The logic behind the three `ipcMain.handle` calls, free of `ipcMain` so tests can call it directly. */
export function createIpcHandlers(host: ContractHost, isTrustedSender: SenderCheck) {
  /** Per webContents: subscription id → the Host's unsubscribe. */
  const subscriptions = new Map<number, Map<string, () => void>>();

  function dropAll(senderId: number): void {
    const owned = subscriptions.get(senderId);
    if (!owned) return;
    for (const unsubscribe of owned.values()) unsubscribe();
    owned.clear();
  }

  function subscriptionsOf(sender: IpcSender): Map<string, () => void> {
    let owned = subscriptions.get(sender.id);
    if (!owned) {
      owned = new Map();
      subscriptions.set(sender.id, owned);
      // A closed window's streams would otherwise run, and send into the void, until the app quits.
      sender.once('destroyed', () => {
        dropAll(sender.id);
        subscriptions.delete(sender.id);
      });
      // A reload or navigation replaces the page that subscribed; its streams must not outlive it.
      sender.on('did-navigate', () => dropAll(sender.id));
    }
    return owned;
  }

  async function command(event: IpcInvokeEvent, channel: unknown, input: unknown): Promise<Result<unknown>> {
    if (!isTrustedSender(event)) return fail('forbidden_sender', FORBIDDEN);
    return dispatchCommand(host, channel, input, logUnexpected);
  }

  /**
   * Answers with how many events the Host replayed while it subscribed (sent before this answer). Electron does not
   * promise that the answer reaches the page after them, so the page waits for that many before it calls itself
   * caught up.
   */
  function subscribe(
    event: IpcInvokeEvent,
    subId: unknown,
    channel: unknown,
    input: unknown,
  ): Result<{ replayed: number }> {
    if (!isTrustedSender(event)) return fail('forbidden_sender', FORBIDDEN);
    if (!isSubscriptionId(subId)) {
      return fail(
        'invalid_input',
        `A subscription id is a string of 1 to ${SUBSCRIPTION_ID_MAX_CHARS} characters.`,
      );
    }
    const { sender } = event;
    const owned = subscriptionsOf(sender);
    if (owned.has(subId)) return fail('conflict', `Subscription ${subId} already exists.`);
    // A page that subscribes in a loop (a bug, or a compromised renderer) holds a bounded number of streams.
    if (owned.size >= MAX_SUBSCRIPTIONS_PER_WINDOW) {
      return fail('too_many', `A window may hold ${MAX_SUBSCRIPTIONS_PER_WINDOW} subscriptions at once.`);
    }
    let replayed = 0;
    let isReplaying = true;
    const opened = openSubscription(host, channel, input, (streamEvent) => {
      if (sender.isDestroyed()) return;
      sender.send(IPC_CHANNELS.event, subId, streamEvent);
      if (isReplaying) replayed += 1;
    });
    isReplaying = false;
    if (!opened.ok) return opened;
    owned.set(subId, opened.unsubscribe);
    return { ok: true, data: { replayed } };
  }

  function unsubscribe(event: IpcInvokeEvent, subId: unknown): Result<null> {
    if (!isTrustedSender(event)) return fail('forbidden_sender', FORBIDDEN);
    const owned = subscriptions.get(event.sender.id);
    if (typeof subId === 'string' && owned) {
      owned.get(subId)?.();
      owned.delete(subId);
    }
    // Dropping what is already gone is not an error: the page may race its own reload.
    return { ok: true, data: null };
  }

  function close(): void {
    for (const senderId of subscriptions.keys()) dropAll(senderId);
    subscriptions.clear();
  }

  return { command, subscribe, unsubscribe, close };
}
