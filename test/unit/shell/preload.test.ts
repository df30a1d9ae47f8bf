import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { DeputyClient, RunEvent } from '../../../shared/contract';
import type { DeputyShell } from '../../../shared/shell';

type RendererListener = (event: unknown, ...args: unknown[]) => void;

const electron = vi.hoisted(() => {
  const exposed = new Map<string, unknown>();
  const listeners = new Map<string, RendererListener[]>();
  const ipcRenderer = {
    invoke: async (..._args: unknown[]): Promise<unknown> => ({ ok: true, data: null }),
    on(channel: string, listener: RendererListener) {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
      return ipcRenderer;
    },
  };
  return {
    exposed,
    listeners,
    ipcRenderer,
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
    /** What main sends with `webContents.send`: the renderer's listener gets Electron's event object first. */
    send(channel: string, ...args: unknown[]) {
      const ipcEvent = { sender: { name: 'the ipcRenderer itself' }, ports: [] };
      for (const listener of listeners.get(channel) ?? []) listener(ipcEvent, ...args);
    },
  };
});

vi.mock('electron', () => ({ contextBridge: electron.contextBridge, ipcRenderer: electron.ipcRenderer }));

await import('../../../electron/preload');
const { IPC_CHANNELS } = await import('../../../electron/shell/ipc-wire');

function exposedClient(): DeputyClient {
  const api = electron.exposed.get('deputy');
  if (!api) throw new Error('the preload exposed nothing as window.deputy');
  return api as DeputyClient;
}

/** The page is not held to the contract's types: it can call anything with anything. */
const untyped = (client: DeputyClient) => ({
  invoke: client.invoke as (channel: string, input: unknown) => Promise<unknown>,
  on: client.on as (channel: string, input: unknown, listener: (event: unknown) => void) => () => void,
});

const delta = (text: string): RunEvent => ({
  type: 'delta',
  delta: text,
  runId: 'run-1',
  threadId: 'thread-1',
});

let invoke: MockInstance<typeof electron.ipcRenderer.invoke>;

beforeEach(() => {
  invoke = vi.spyOn(electron.ipcRenderer, 'invoke');
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('window.deputy', () => {
  it('is exposed with window.deputyShell and nothing else, and offers invoke and on, nothing else', () => {
    expect([...electron.exposed.keys()]).toEqual(['deputy', 'deputyShell']);
    expect(Object.keys(exposedClient()).sort()).toEqual(['invoke', 'on']);
  });
});

describe('window.deputyShell', () => {
  const shell = () => electron.exposed.get('deputyShell') as DeputyShell;

  it('offers the window and desktop-preference actions only, each asking the shell on deputy:shell', async () => {
    expect(Object.keys(shell())).toEqual([
      'openThread',
      'showMain',
      'openConnections',
      'getDesktopSettings',
      'changeDesktopPreferences',
      'openAgentsFolder',
    ]);
    await shell().openThread('thread-1');
    expect(invoke).toHaveBeenCalledWith(IPC_CHANNELS.shell, { action: 'open-thread', threadId: 'thread-1' });
    invoke.mockResolvedValueOnce({ ok: true, data: { keyNames: 'pc' } });
    expect(await shell().getDesktopSettings()).toEqual({ keyNames: 'pc' });
    expect(invoke).toHaveBeenLastCalledWith(IPC_CHANNELS.shell, { action: 'get-desktop' });
    invoke.mockResolvedValueOnce({ ok: true, data: { problem: null } });
    await shell().changeDesktopPreferences({ showTray: false });
    expect(invoke).toHaveBeenLastCalledWith(IPC_CHANNELS.shell, {
      action: 'change-desktop',
      change: { showTray: false },
    });
    await shell().showMain();
    expect(invoke).toHaveBeenLastCalledWith(IPC_CHANNELS.shell, { action: 'show-main' });
    // No argument: the page cannot name where the main window goes, only ask for Connections.
    await shell().openConnections();
    expect(invoke).toHaveBeenLastCalledWith(IPC_CHANNELS.shell, { action: 'open-connections' });
    await shell().openAgentsFolder();
    expect(invoke).toHaveBeenLastCalledWith(IPC_CHANNELS.shell, { action: 'open-agents-folder' });
  });

  it('rejects with the code and words the shell answered', async () => {
    invoke.mockResolvedValueOnce({ ok: false, error: { code: 'invalid_input', message: 'no' } });
    await expect(shell().openThread('../x')).rejects.toMatchObject({ code: 'invalid_input', message: 'no' });
  });
});

describe('invoke', () => {
  it('sends the channel and input on deputy:command and unwraps {ok:true}', async () => {
    invoke.mockResolvedValueOnce({ ok: true, data: { runId: 'run-1', threadId: 'thread-1' } });
    await expect(exposedClient().invoke('run.start', { prompt: 'Hi' })).resolves.toEqual({
      runId: 'run-1',
      threadId: 'thread-1',
    });
    expect(invoke).toHaveBeenCalledWith(IPC_CHANNELS.command, 'run.start', { prompt: 'Hi' });
  });

  it('rejects with the code and message of {ok:false}, in a shape the context bridge copies whole', async () => {
    invoke.mockResolvedValueOnce({
      ok: false,
      error: { code: 'invalid_input', message: 'prompt: too short' },
    });
    const rejection: unknown = await exposedClient()
      .invoke('run.start', { prompt: '' })
      .catch((error: unknown) => error);
    expect(rejection).toEqual({ name: 'DeputyError', code: 'invalid_input', message: 'prompt: too short' });
    // The bridge copies values much as structuredClone does; an Error would lose its `code` on the way.
    expect(structuredClone(rejection)).toEqual(rejection);
  });

  it('rejects with `internal` when the answer is not an envelope', async () => {
    invoke.mockResolvedValueOnce('surprise');
    await expect(exposedClient().invoke('settings.get', {})).rejects.toMatchObject({ code: 'internal' });
  });

  it('refuses channels that are not in the contract without sending anything', async () => {
    await expect(untyped(exposedClient()).invoke('shell.openPath', '/etc')).rejects.toMatchObject({
      code: 'unknown_channel',
    });
    await expect(untyped(exposedClient()).invoke('toString', {})).rejects.toMatchObject({
      code: 'unknown_channel',
    });
    expect(invoke).not.toHaveBeenCalled();
  });
});

describe('on', () => {
  function subscribedId(): string {
    const call = invoke.mock.calls.find(([channel]) => channel === IPC_CHANNELS.subscribe);
    if (!call || typeof call[1] !== 'string') throw new Error('no subscription was requested');
    return call[1];
  }

  it('asks main to subscribe and passes only the event to the listener', async () => {
    const received: unknown[][] = [];
    const stop = exposedClient().on('run.events', { runId: 'run-1' }, (...args) => received.push(args));
    expect(invoke).toHaveBeenCalledWith(IPC_CHANNELS.subscribe, expect.any(String), 'run.events', {
      runId: 'run-1',
    });
    const subId = subscribedId();

    electron.send(IPC_CHANNELS.event, subId, delta('Hello'));
    electron.send(IPC_CHANNELS.event, 'someone-else', delta('not mine'));

    expect(received).toEqual([[delta('Hello')]]);
    stop();
  });

  it('says the subscription has caught up once main has taken it (and replayed what it holds)', async () => {
    let taken: (envelope: unknown) => void = () => undefined;
    invoke.mockReturnValueOnce(new Promise((resolve) => (taken = resolve)));
    const onCaughtUp = vi.fn();
    exposedClient().on('run.events', { runId: 'run-1' }, vi.fn(), { onCaughtUp });
    await Promise.resolve();
    expect(onCaughtUp).not.toHaveBeenCalled();
    taken({ ok: true, data: null });
    await vi.waitFor(() => expect(onCaughtUp).toHaveBeenCalledTimes(1));
  });

  it('waits for the events main replayed when its answer comes first, then says it has caught up', async () => {
    let taken: (envelope: unknown) => void = () => undefined;
    invoke.mockReturnValueOnce(new Promise((resolve) => (taken = resolve)));
    const onCaughtUp = vi.fn();
    const listener = vi.fn();
    exposedClient().on('run.events', { runId: 'run-1' }, listener, { onCaughtUp });
    const subId = subscribedId();
    // Electron does not promise the order: main's answer (two replayed) overtakes the replay itself.
    taken({ ok: true, data: { replayed: 2 } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(onCaughtUp).not.toHaveBeenCalled();
    electron.send(IPC_CHANNELS.event, subId, delta('one'));
    expect(onCaughtUp).not.toHaveBeenCalled();
    electron.send(IPC_CHANNELS.event, subId, delta('two'));
    expect(listener).toHaveBeenCalledTimes(2);
    expect(onCaughtUp).toHaveBeenCalledTimes(1);
    electron.send(IPC_CHANNELS.event, subId, delta('three'));
    expect(onCaughtUp).toHaveBeenCalledTimes(1);
  });

  it('returns an unsubscribe that stops events and tells main once', async () => {
    const listener = vi.fn();
    const stop = exposedClient().on('run.events', {}, listener);
    const subId = subscribedId();
    stop();
    stop();
    electron.send(IPC_CHANNELS.event, subId, delta('late'));
    expect(listener).not.toHaveBeenCalled();
    expect(invoke.mock.calls.filter(([channel]) => channel === IPC_CHANNELS.unsubscribe)).toEqual([
      [IPC_CHANNELS.unsubscribe, subId],
    ]);
  });

  it('gives every subscription its own id, and listens on IPC once for all of them', () => {
    const stops = [
      exposedClient().on('run.events', {}, vi.fn()),
      exposedClient().on('run.events', {}, vi.fn()),
    ];
    const ids = invoke.mock.calls
      .filter(([channel]) => channel === IPC_CHANNELS.subscribe)
      .map((call) => call[1]);
    expect(new Set(ids).size).toBe(2);
    expect(electron.listeners.get(IPC_CHANNELS.event)).toHaveLength(1);
    for (const stop of stops) stop();
  });

  it('drops the listener when main refuses the subscription', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    invoke.mockResolvedValueOnce({
      ok: false,
      error: { code: 'invalid_input', message: 'runId: too short' },
    });
    const listener = vi.fn();
    exposedClient().on('run.events', { runId: '' }, listener);
    const subId = subscribedId();
    await vi.waitFor(() => expect(log).toHaveBeenCalled());
    electron.send(IPC_CHANNELS.event, subId, delta('Hello'));
    expect(listener).not.toHaveBeenCalled();
  });

  it('refuses streams that are not in the contract', () => {
    expect(() => untyped(exposedClient()).on('run.start', {}, vi.fn())).toThrow(/no stream named run.start/);
    expect(invoke).not.toHaveBeenCalled();
  });
});
