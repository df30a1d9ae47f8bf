import { contextBridge, ipcRenderer } from 'electron';
import type { CommandName, CommandOutput, DeputyClient, ErrorBody, StreamName } from '../shared/contract';
import type { DeputyShell, DesktopChangeResult, DesktopSettings } from '../shared/shell';
import { IPC_CHANNELS, type ShellRequest } from './shell/ipc-wire';

/**
 * Builds `window.deputy` from the contract's channel names. Validation, authorisation and the work itself
 * happen in the main process; this file only carries messages and keeps Electron's objects out of the page.
 *
 * The names are spelled out rather than imported from the contract so the sandboxed bundle does not carry
 * zod; `satisfies` makes the compiler reject a list that misses or invents a channel.
 */
const commandChannels = {
  'run.start': true,
  'run.cancel': true,
  'threads.list': true,
  'thread.get': true,
  'thread.delete': true,
  'thread.rename': true,
  'threads.prune': true,
  'threads.export': true,
  'tasksAndMemories.export': true,
  'data.stats': true,
  'models.list': true,
  'usage.daily': true,
  'tasks.list': true,
  'threads.search': true,
  'tasks.change': true,
  'data.compact': true,
  'context.stats': true,
  'context.clear': true,
  'settings.get': true,
  'settings.set': true,
  'sideEffects.get': true,
  'sideEffects.set': true,
  'approval.list': true,
  'approval.decide': true,
  'approval.edit': true,
  'connections.list': true,
  'connections.connect': true,
  'connections.disconnect': true,
  'memory.list': true,
  'memory.update': true,
  'memory.delete': true,
  'mcp.list': true,
  'mcp.put': true,
  'mcp.delete': true,
  'mcp.restart': true,
  'mcp.log': true,
  'mcp.import': true,
  'audit.list': true,
  'audit.get': true,
  'audit.assumptions': true,
  'audit.verifyAssumption': true,
  'audit.undo': true,
  'audit.export': true,
  'audit.verifyChain': true,
  'audit.decisions': true,
  'audit.toolInvocations': true,
  'agents.list': true,
  'agents.get': true,
  'agents.run': true,
  'agents.setEnabled': true,
  'agents.import': true,
  'runs.lineage': true,
  'artifacts.list': true,
  'artifacts.get': true,
  'plan.get': true,
  'plan.approve': true,
  'plan.continue': true,
  'plan.cancel': true,
} as const satisfies Record<CommandName, true>;

const streamChannels = {
  'run.events': true,
  'approvals.changed': true,
  'connections.changed': true,
  'sideEffects.changed': true,
  'agents.changed': true,
} as const satisfies Record<StreamName, true>;

const isCommandName = (channel: string): channel is CommandName => Object.hasOwn(commandChannels, channel);
const isStreamName = (channel: string): channel is StreamName => Object.hasOwn(streamChannels, channel);

/**
 * What a failed call rejects with. Electron copies only the `message` of an Error across the context bridge,
 * so an Error's `code` would never reach the page; a plain object keeps both.
 */
export interface DeputyCallError extends ErrorBody {
  readonly name: 'DeputyError';
}

const callError = (error: ErrorBody): DeputyCallError => ({ name: 'DeputyError', ...error });

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

function unwrap(envelope: unknown): unknown {
  if (typeof envelope === 'object' && envelope !== null && 'ok' in envelope) {
    if (envelope.ok === true && 'data' in envelope) return envelope.data;
    if (envelope.ok === false && 'error' in envelope && isErrorBody(envelope.error)) {
      throw callError(envelope.error);
    }
  }
  throw callError({ code: 'internal', message: 'Deputy sent an answer this window does not understand.' });
}

/** Subscription id → the page's listener. One IPC listener routes every stream event by id. */
const listeners = new Map<string, (event: unknown) => void>();
/**
 * Subscription id → events received, and what to call once they reach what main replayed while subscribing.
 * Main's answer may reach the page before those events do: caught up means both are in.
 */
const catchingUp = new Map<string, { received: number; replayed: number | null; done: () => void }>();

function checkCaughtUp(subId: string): void {
  const entry = catchingUp.get(subId);
  if (!entry || entry.replayed === null || entry.received < entry.replayed) return;
  catchingUp.delete(subId);
  if (listeners.has(subId)) entry.done();
}

// The IpcRendererEvent stays here: it carries `sender`, which the page must never hold.
ipcRenderer.on(IPC_CHANNELS.event, (_ipcEvent, subId: unknown, event: unknown) => {
  if (typeof subId !== 'string') return;
  listeners.get(subId)?.(event);
  const entry = catchingUp.get(subId);
  if (entry) {
    entry.received += 1;
    checkCaughtUp(subId);
  }
});

/** How many events main replayed while subscribing; an older main answered null (then: at once). */
function replayedIn(data: unknown): number {
  const replayed = (data as { replayed?: unknown } | null)?.replayed;
  return typeof replayed === 'number' && Number.isInteger(replayed) && replayed >= 0 ? replayed : 0;
}

const deputy: DeputyClient = {
  async invoke(channel, input) {
    // Only the contract's channels cross: nothing in the page can name another.
    if (!isCommandName(channel)) {
      throw callError({ code: 'unknown_channel', message: `There is no command named ${channel}.` });
    }
    const envelope: unknown = await ipcRenderer.invoke(IPC_CHANNELS.command, channel, input);
    // The Host answers with the channel's output type; the page takes the contract's word for it.
    return unwrap(envelope) as CommandOutput<typeof channel>;
  },

  on(channel, input, listener, options) {
    if (!isStreamName(channel)) throw new Error(`There is no stream named ${channel}.`);
    // Random, not a counter: after a reload, events still in flight for the old page's ids must not match.
    const subId = crypto.randomUUID();
    // Registered before subscribing, so events the Host replays at once are not lost.
    listeners.set(subId, listener as (event: unknown) => void);
    const onCaughtUp = options?.onCaughtUp;
    if (onCaughtUp) catchingUp.set(subId, { received: 0, replayed: null, done: onCaughtUp });
    ipcRenderer
      .invoke(IPC_CHANNELS.subscribe, subId, channel, input)
      .then(unwrap)
      // The Host replays a stream's past while it subscribes, before it answers: caught up once all of it is in.
      .then((data) => {
        const entry = catchingUp.get(subId);
        if (entry) entry.replayed = replayedIn(data);
        checkCaughtUp(subId);
      })
      .catch((error: unknown) => {
        listeners.delete(subId);
        catchingUp.delete(subId);
        console.error(`[deputy] could not subscribe to ${channel}`, error);
      });
    return () => {
      catchingUp.delete(subId);
      if (!listeners.delete(subId)) return;
      ipcRenderer.invoke(IPC_CHANNELS.unsubscribe, subId).catch((error: unknown) => {
        console.error(`[deputy] could not unsubscribe from ${channel}`, error);
      });
    };
  },
};

contextBridge.exposeInMainWorld('deputy', deputy);

/** Window actions that are the shell's, not the Host's: kept apart so the contract stays the same over HTTP. */
const askShell = async (request: ShellRequest): Promise<unknown> =>
  unwrap(await ipcRenderer.invoke(IPC_CHANNELS.shell, request));

const deputyShell: DeputyShell = {
  async openThread(threadId) {
    await askShell({ action: 'open-thread', threadId });
  },
  async showMain() {
    await askShell({ action: 'show-main' });
  },
  async openConnections() {
    await askShell({ action: 'open-connections' });
  },
  // The main process checks every field; the page takes its answer as the shape it declares.
  getDesktopSettings: async () => (await askShell({ action: 'get-desktop' })) as DesktopSettings,
  changeDesktopPreferences: async (change) =>
    (await askShell({ action: 'change-desktop', change })) as DesktopChangeResult,
  async openAgentsFolder() {
    await askShell({ action: 'open-agents-folder' });
  },
};

contextBridge.exposeInMainWorld('deputyShell', deputyShell);
