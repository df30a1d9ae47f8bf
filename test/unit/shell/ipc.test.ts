import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  commandNames,
  DeputyError,
  streamNames,
  type CommandInput,
  type CommandName,
  type CommandOutput,
  type CommandParsedInput,
  type ContractHost,
  type StreamEvent,
  type StreamInput,
  type StreamName,
  type StreamParsedInput,
} from '../../../shared/contract';

type IpcListener = (event: unknown, ...args: unknown[]) => unknown;

const electron = vi.hoisted(() => {
  const handlers = new Map<string, IpcListener>();
  return {
    handlers,
    ipcMain: {
      handle: (channel: string, listener: IpcListener) => {
        if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        handlers.set(channel, listener);
      },
      removeHandler: (channel: string) => handlers.delete(channel),
    },
    app: { isPackaged: false, getAppPath: () => '/opt/deputy' },
  };
});

vi.mock('electron', () => ({
  ipcMain: electron.ipcMain,
  app: electron.app,
  BrowserWindow: { getAllWindows: () => [] },
}));

const { setupIpc } = await import('../../../electron/shell/ipc');
const { IPC_CHANNELS } = await import('../../../electron/shell/ipc-wire');

/** One valid input per command: a command added to the contract without one fails to compile here. */
const validInputs: { [C in CommandName]: CommandInput<C> } = {
  'run.start': { prompt: 'Draft a reply to Ana' },
  'run.cancel': { runId: 'run-1' },
  'threads.list': { limit: 10 },
  'thread.get': { threadId: 'thread-1' },
  'thread.delete': { threadId: 'thread-1' },
  'thread.rename': { threadId: 'thread-1', title: 'Lisbon trip' },
  'threads.prune': { olderThanDays: 90, dryRun: true },
  'threads.export': { format: 'md' },
  'tasksAndMemories.export': { cursor: 'm12' },
  'data.stats': {},
  'models.list': {},
  'usage.daily': { days: 7 },
  'tasks.list': { status: 'open' },
  'threads.search': { query: 'lisbon' },
  'tasks.change': { tool: 'add_task', args: { description: 'Buy milk' } },
  'data.compact': {},
  'context.stats': {},
  'context.clear': {},
  'settings.get': {},
  'settings.set': { userName: 'Ana' },
  'approval.list': { status: 'pending' },
  'approval.decide': { approvalId: 'appr-1', decision: 'reject', reason: 'Not this week.' },
  'approval.edit': { approvalId: 'appr-1', args: { subject: 'Friday instead' } },
  'connections.list': {},
  'connections.connect': { name: 'gemini', apiKey: 'AIza-not-a-real-key' },
  'connections.disconnect': { name: 'slack' },
  'memory.list': { limit: 20 },
  'memory.update': { id: 'mem-1', text: 'Prefers short replies' },
  'memory.delete': { id: 'mem-1' },
  'mcp.list': {},
  'mcp.put': { name: 'files', config: { transport: 'stdio', command: 'npx', args: ['-y', 'files'] } },
  'mcp.delete': { name: 'files' },
  'mcp.restart': { name: 'files' },
  'mcp.log': { name: 'files' },
  'mcp.import': { text: '{"mcpServers":{}}' },
  'audit.list': { tool: 'add_task', limit: 20 },
  'audit.get': { id: 'aud-1' },
  'audit.assumptions': { id: 'aud-1' },
  'audit.verifyAssumption': { id: 'aud-1', assumptionId: 'asm-1', verified: true },
  'audit.undo': { id: 'aud-1' },
  'audit.export': { format: 'csv' },
  'audit.verifyChain': {},
  'audit.decisions': {},
  'audit.toolInvocations': { tool: 'add_task' },
  'sideEffects.get': {},
  'sideEffects.set': { isPaused: true },
  'agents.list': {},
  'agents.get': { name: 'researcher' },
  'agents.run': { name: 'researcher', inputs: { question: 'What did Sam say?' } },
  'agents.setEnabled': { name: 'researcher', enabled: false },
  'agents.import': { fileName: 'a.md', text: '---\nname: a\n---' },
  'runs.lineage': { runId: 'r1' },
  'artifacts.list': { runId: 'r1' },
  'artifacts.get': { id: 'a1' },
  'plan.get': { planId: 'plan-1' },
  'plan.approve': { planId: 'plan-1' },
  'plan.continue': { planId: 'plan-1', answer: 'Tuesday at 2 pm' },
  'plan.cancel': { planId: 'plan-1' },
};

const validStreamInputs: { [S in StreamName]: StreamInput<S> } = {
  'run.events': { runId: 'run-1' },
  'approvals.changed': {},
  'connections.changed': {},
  'sideEffects.changed': {},
  'agents.changed': {},
};

interface FakeSubscription {
  channel: StreamName;
  input: unknown;
  listener: (event: unknown) => void;
  isActive: boolean;
}

class FakeHost implements ContractHost {
  readonly calls: { channel: CommandName; input: unknown }[] = [];
  readonly subscriptions: FakeSubscription[] = [];
  answer: (channel: CommandName) => Promise<unknown> = async (channel) => ({ answeredBy: channel });
  /** Events a new subscription is given at once, as the Host replays a run's past while it subscribes. */
  replayOnSubscribe: unknown[] = [];

  async invoke<C extends CommandName>(channel: C, input: CommandParsedInput<C>): Promise<CommandOutput<C>> {
    this.calls.push({ channel, input });
    return (await this.answer(channel)) as CommandOutput<C>;
  }

  subscribe<S extends StreamName>(
    channel: S,
    input: StreamParsedInput<S>,
    listener: (event: StreamEvent<S>) => void,
  ): () => void {
    const subscription: FakeSubscription = {
      channel,
      input,
      listener: (event) => listener(event as StreamEvent<S>),
      isActive: true,
    };
    this.subscriptions.push(subscription);
    for (const event of this.replayOnSubscribe) subscription.listener(event);
    return () => {
      subscription.isActive = false;
    };
  }

  emit(event: unknown): void {
    for (const subscription of this.subscriptions) if (subscription.isActive) subscription.listener(event);
  }
}

class FakeWebContents extends EventEmitter {
  readonly sent: unknown[][] = [];
  private isGone = false;

  constructor(readonly id: number) {
    super();
  }

  send(channel: string, ...args: unknown[]): void {
    this.sent.push([channel, ...args]);
  }

  isDestroyed(): boolean {
    return this.isGone;
  }

  destroy(): void {
    this.isGone = true;
    this.emit('destroyed');
  }
}

const DEV_SERVER = 'http://localhost:5173';

function ipcEvent(url = `${DEV_SERVER}/`, sender = new FakeWebContents(1), parent: unknown = null) {
  return { senderFrame: { url, parent }, sender };
}

function handler(channel: string): IpcListener {
  const listener = electron.handlers.get(channel);
  if (!listener) throw new Error(`no handler for ${channel}`);
  return listener;
}

// Async like ipcMain.handle, which answers the renderer with a promise whatever the handler returns.
const invokeCommand = async (event: unknown, channel: unknown, input: unknown) =>
  handler(IPC_CHANNELS.command)(event, channel, input);
const subscribe = async (event: unknown, subId: unknown, channel: unknown, input: unknown) =>
  handler(IPC_CHANNELS.subscribe)(event, subId, channel, input);
const unsubscribe = async (event: unknown, subId: unknown) => handler(IPC_CHANNELS.unsubscribe)(event, subId);

let host: FakeHost;
let dispose: () => void;

beforeEach(() => {
  vi.stubEnv('ELECTRON_RENDERER_URL', DEV_SERVER);
  electron.app.isPackaged = false;
  host = new FakeHost();
  dispose = setupIpc(host);
});

afterEach(() => {
  dispose();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('setupIpc', () => {
  it('registers the command and subscription handlers, and removes them on dispose', () => {
    expect([...electron.handlers.keys()].sort()).toEqual(
      [IPC_CHANNELS.command, IPC_CHANNELS.subscribe, IPC_CHANNELS.unsubscribe].sort(),
    );
    dispose();
    expect(electron.handlers.size).toBe(0);
    dispose = setupIpc(host);
  });

  it('has a valid input for every command of the contract', () => {
    expect(Object.keys(validInputs).sort()).toEqual([...commandNames].sort());
    expect(Object.keys(validStreamInputs).sort()).toEqual([...streamNames].sort());
  });
});

describe.each(commandNames)('command %s', (channel) => {
  const input = validInputs[channel];

  it('passes the parsed input to the Host and answers {ok:true,data}', async () => {
    await expect(invokeCommand(ipcEvent(), channel, input)).resolves.toEqual({
      ok: true,
      data: { answeredBy: channel },
    });
    expect(host.calls).toEqual([{ channel, input: expect.anything() }]);
  });

  it.each([
    ['a foreign origin', ipcEvent('https://evil.example/')],
    ['another local port', ipcEvent('http://localhost:5174/')],
    ['an iframe of our own page', ipcEvent(`${DEV_SERVER}/`, new FakeWebContents(1), { url: DEV_SERVER })],
    ['a frame that is gone', { senderFrame: null, sender: new FakeWebContents(1) }],
  ])('refuses %s without calling the Host', async (_name, event) => {
    await expect(invokeCommand(event, channel, input)).resolves.toEqual({
      ok: false,
      error: { code: 'forbidden_sender', message: expect.any(String) },
    });
    expect(host.calls).toEqual([]);
  });

  it('refuses input that does not parse without calling the Host', async () => {
    await expect(invokeCommand(ipcEvent(), channel, 42)).resolves.toEqual({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/^Invalid input: /) },
    });
    expect(host.calls).toEqual([]);
  });
});

describe('commands', () => {
  it('gives the Host what the schema made of the input, not the raw input', async () => {
    await invokeCommand(ipcEvent(), 'run.start', { prompt: '  hello  ' });
    await invokeCommand(ipcEvent(), 'settings.get', undefined);
    expect(host.calls).toEqual([
      { channel: 'run.start', input: { prompt: 'hello' } },
      { channel: 'settings.get', input: {} },
    ]);
  });

  it('lists each issue with its path', async () => {
    const result = await invokeCommand(ipcEvent(), 'settings.set', { maxLoopSteps: 99, userName: 7 });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const { message } = (result as { error: { message: string } }).error;
    expect(message).toContain('maxLoopSteps: ');
    expect(message).toContain('userName: ');
  });

  it.each(['run.nope', 'toString', '__proto__', 42, undefined])(
    'refuses the unknown channel %s',
    async (channel) => {
      await expect(invokeCommand(ipcEvent(), channel, {})).resolves.toMatchObject({
        ok: false,
        error: { code: 'unknown_channel' },
      });
      expect(host.calls).toEqual([]);
    },
  );

  it("returns a DeputyError's code and message", async () => {
    host.answer = async () => {
      throw new DeputyError('not_found', 'No run with that id.');
    };
    await expect(invokeCommand(ipcEvent(), 'run.cancel', { runId: 'run-9' })).resolves.toEqual({
      ok: false,
      error: { code: 'not_found', message: 'No run with that id.' },
    });
  });

  it('turns any other failure into `internal` without leaking its message', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    host.answer = async () => {
      throw new Error('SQLITE_CORRUPT at /home/ana/.config/Deputy/deputy.db');
    };
    const result = await invokeCommand(ipcEvent(), 'threads.list', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(result)).not.toContain('SQLITE');
    expect(JSON.stringify(result)).not.toContain('/home/ana');
    expect(log).toHaveBeenCalled();
  });
});

describe('which pages are trusted', () => {
  const builtPage = 'app://deputy/index.html';

  it.each([
    [builtPage, true],
    [`${builtPage}#/settings`, true],
    // The approval window: the same page, its route in the hash.
    [`${builtPage}#/approval/appr-1`, true],
    [`${builtPage}#/approval/..%2F..%2Fetc%2Fpasswd`, true],
    ['app://deputy/other.html', true],
    // Not our files any more: pages come from app://deputy, never from file://, even the built folder.
    ['file:///opt/deputy/out/renderer/index.html', false],
    ['file:///home/ana/Downloads/index.html#/approval/appr-1', false],
    ['app://evil/index.html', false],
    ['app://user@deputy/index.html', false],
    ['deputy://approval/appr-1', false],
    ['https://evil.example/#/approval/appr-1', false],
    ['https://deputy/index.html', false],
    [`${DEV_SERVER}/`, false],
    ['https://evil.example/', false],
  ])('built app: %s → %s', async (url, isTrusted) => {
    vi.stubEnv('ELECTRON_RENDERER_URL', undefined);
    const result = await invokeCommand(ipcEvent(url), 'settings.get', {});
    expect(result).toMatchObject(
      isTrusted ? { ok: true } : { ok: false, error: { code: 'forbidden_sender' } },
    );
  });

  it.each([
    [`${DEV_SERVER}/#/approval/appr-1`, true],
    ['http://localhost:5174/#/approval/appr-1', false],
    ['http://127.0.0.1:5173/#/approval/appr-1', false],
  ])('dev server: %s → %s', async (url, isTrusted) => {
    const result = await invokeCommand(ipcEvent(url), 'approval.list', {});
    expect(result).toMatchObject(
      isTrusted ? { ok: true } : { ok: false, error: { code: 'forbidden_sender' } },
    );
  });

  it('refuses an approval page loaded in an iframe', async () => {
    const event = ipcEvent(`${DEV_SERVER}/#/approval/appr-1`, new FakeWebContents(1), { url: DEV_SERVER });
    await expect(
      invokeCommand(event, 'approval.decide', validInputs['approval.decide']),
    ).resolves.toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    expect(host.calls).toEqual([]);
  });

  it('ignores ELECTRON_RENDERER_URL in a packaged app', async () => {
    electron.app.isPackaged = true;
    const result = await invokeCommand(ipcEvent(`${DEV_SERVER}/`), 'settings.get', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
  });

  it('takes a custom sender check', async () => {
    dispose();
    dispose = setupIpc(host, () => false);
    const result = await invokeCommand(ipcEvent(), 'settings.get', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
  });
});

describe.each(streamNames)('stream %s', (channel) => {
  const input = validStreamInputs[channel];

  it('subscribes through the Host and tags each event with the subscription id', async () => {
    const sender = new FakeWebContents(1);
    await expect(subscribe(ipcEvent(undefined, sender), 'sub-1', channel, input)).resolves.toEqual({
      ok: true,
      data: { replayed: 0 },
    });
    host.emit({ type: 'delta', delta: 'Hi' });
    expect(sender.sent).toEqual([[IPC_CHANNELS.event, 'sub-1', { type: 'delta', delta: 'Hi' }]]);
  });

  it('answers with how many events the Host replayed while subscribing, not counting later ones', async () => {
    const sender = new FakeWebContents(1);
    host.replayOnSubscribe = [
      { type: 'status', status: 'executing' },
      { type: 'delta', delta: 'So far' },
    ];
    await expect(subscribe(ipcEvent(undefined, sender), 'sub-1', channel, input)).resolves.toEqual({
      ok: true,
      data: { replayed: 2 },
    });
    host.emit({ type: 'delta', delta: 'live' });
    expect(sender.sent).toHaveLength(3);
  });

  it('refuses a foreign sender and input that does not parse, without calling the Host', async () => {
    await expect(
      subscribe(ipcEvent('https://evil.example/'), 'sub-1', channel, input),
    ).resolves.toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    await expect(subscribe(ipcEvent(), 'sub-1', channel, 42)).resolves.toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(host.subscriptions).toEqual([]);
  });
});

describe('subscriptions', () => {
  it('stop when the page unsubscribes', async () => {
    const sender = new FakeWebContents(1);
    const event = ipcEvent(undefined, sender);
    await subscribe(event, 'sub-1', 'run.events', {});
    await expect(unsubscribe(event, 'sub-1')).resolves.toEqual({ ok: true, data: null });
    host.emit({ type: 'delta', delta: 'late' });
    expect(sender.sent).toEqual([]);
    expect(host.subscriptions.map((subscription) => subscription.isActive)).toEqual([false]);
  });

  it("end when their window is destroyed, leaving other windows' running", async () => {
    const closing = new FakeWebContents(1);
    const staying = new FakeWebContents(2);
    await subscribe(ipcEvent(undefined, closing), 'sub-1', 'run.events', {});
    await subscribe(ipcEvent(undefined, closing), 'sub-2', 'run.events', { threadId: 't-1' });
    await subscribe(ipcEvent(undefined, staying), 'sub-1', 'run.events', {});
    closing.destroy();
    expect(host.subscriptions.map((subscription) => subscription.isActive)).toEqual([false, false, true]);
    host.emit({ type: 'delta', delta: 'still here' });
    expect(closing.sent).toEqual([]);
    expect(staying.sent).toHaveLength(1);
  });

  it('end when the page navigates or reloads, and the new page can subscribe again', async () => {
    const sender = new FakeWebContents(1);
    await subscribe(ipcEvent(undefined, sender), 'sub-1', 'run.events', {});
    sender.emit('did-navigate');
    expect(host.subscriptions[0]?.isActive).toBe(false);
    await expect(subscribe(ipcEvent(undefined, sender), 'sub-1', 'run.events', {})).resolves.toMatchObject({
      ok: true,
    });
    expect(sender.listenerCount('did-navigate')).toBe(1);
    expect(sender.listenerCount('destroyed')).toBe(1);
  });

  it('refuse a second subscription with the same id from the same window', async () => {
    const event = ipcEvent();
    await subscribe(event, 'sub-1', 'run.events', {});
    await expect(subscribe(event, 'sub-1', 'run.events', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect(host.subscriptions).toHaveLength(1);
  });

  it.each([undefined, '', 'x'.repeat(65), 7])('refuse the subscription id %s', async (subId) => {
    await expect(subscribe(ipcEvent(), subId, 'run.events', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
  });

  it('refuse an unknown stream', async () => {
    await expect(subscribe(ipcEvent(), 'sub-1', 'run.start', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'unknown_channel' },
    });
  });

  it("return a Host's DeputyError when it refuses to subscribe", async () => {
    host.subscribe = () => {
      throw new DeputyError('not_found', 'No run with that id.');
    };
    await expect(subscribe(ipcEvent(), 'sub-1', 'run.events', { runId: 'nope' })).resolves.toEqual({
      ok: false,
      error: { code: 'not_found', message: 'No run with that id.' },
    });
  });

  it('are not pushed to a window that is already gone', async () => {
    const sender = new FakeWebContents(1);
    await subscribe(ipcEvent(undefined, sender), 'sub-1', 'run.events', {});
    vi.spyOn(sender, 'isDestroyed').mockReturnValue(true);
    host.emit({ type: 'delta', delta: 'Hi' });
    expect(sender.sent).toEqual([]);
  });

  it('from a foreign sender cannot unsubscribe anything', async () => {
    const sender = new FakeWebContents(1);
    await subscribe(ipcEvent(undefined, sender), 'sub-1', 'run.events', {});
    await expect(unsubscribe(ipcEvent('https://evil.example/', sender), 'sub-1')).resolves.toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    expect(host.subscriptions[0]?.isActive).toBe(true);
  });

  it('all end on dispose', async () => {
    await subscribe(ipcEvent(), 'sub-1', 'run.events', {});
    dispose();
    expect(host.subscriptions[0]?.isActive).toBe(false);
    dispose = setupIpc(host);
  });
});
