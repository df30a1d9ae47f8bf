import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import type { RunEvent } from '../../../shared/contract';
import { ClientError } from '../../../renderer/src/api/client-error';
import { createWsClient, type ConnectionStatus, type WsClient } from '../../../renderer/src/api/ws-client';
import { sampleSettings } from './fixtures';

interface Frame {
  kind: string;
  id: string;
  channel?: string;
  input?: unknown;
}

const settings = sampleSettings();

const delta = (text: string): RunEvent => ({ type: 'delta', runId: 'r1', threadId: 't1', delta: text });

/** A real WebSocket server that records what the client sends; each test scripts its answers. */
async function startServer(options: { rejectUpgrade?: boolean } = {}) {
  const frames: Frame[] = [];
  const sockets: ServerSocket[] = [];
  const protocols: string[][] = [];
  let onFrame: (frame: Frame, socket: ServerSocket) => void = () => undefined;
  const server = new WebSocketServer({
    port: 0,
    host: '127.0.0.1',
    verifyClient: (_info, done) => (options.rejectUpgrade ? done(false, 401) : done(true)),
  });
  await once(server, 'listening');
  server.on('connection', (socket, request) => {
    sockets.push(socket);
    protocols.push((request.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()));
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      frames.push(frame);
      onFrame(frame, socket);
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    frames,
    sockets,
    protocols,
    respond(handler: (frame: Frame, socket: ServerSocket) => void) {
      onFrame = handler;
    },
    send(socket: ServerSocket | undefined, message: unknown) {
      socket?.send(JSON.stringify(message));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of server.clients) socket.terminate();
        server.close(() => resolve());
      }),
  };
}

type TestServer = Awaited<ReturnType<typeof startServer>>;

async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('ws-client', () => {
  let server: TestServer | undefined;
  let client: WsClient | undefined;
  let statuses: ConnectionStatus[] = [];

  const connect = (url: string, token = 'secret-token') => {
    statuses = [];
    client = createWsClient({
      url,
      token,
      retry: { initialDelayMs: 10, maxDelayMs: 40 },
      onStatus: (status) => statuses.push(status),
    });
    return client;
  };

  afterEach(async () => {
    client?.close();
    await server?.close();
    client = undefined;
    server = undefined;
  });

  it('sends the token as a subprotocol and resolves a command with its parsed reply', async () => {
    server = await startServer();
    server.respond((frame, socket) =>
      server?.send(socket, { kind: 'reply', id: frame.id, ok: true, data: settings }),
    );
    const deputy = connect(server.url);

    await expect(deputy.invoke('settings.get', {})).resolves.toEqual(settings);
    expect(server.protocols[0]).toEqual(['deputy.v1', 'bearer.secret-token']);
    expect(server.frames[0]).toMatchObject({ kind: 'command', channel: 'settings.get', input: {} });
    expect(deputy.status).toBe('open');
  });

  it('rejects with the host’s error code and message', async () => {
    server = await startServer();
    server.respond((frame, socket) =>
      server?.send(socket, {
        kind: 'reply',
        id: frame.id,
        ok: false,
        error: { code: 'invalid_input', message: 'timezone: unknown IANA time zone' },
      }),
    );
    const deputy = connect(server.url);

    const error = await deputy.invoke('settings.set', { timezone: 'Mars/Olympus' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toMatchObject({ code: 'invalid_input', message: 'timezone: unknown IANA time zone' });
  });

  it('rejects a reply that does not match the contract', async () => {
    server = await startServer();
    server.respond((frame, socket) =>
      server?.send(socket, { kind: 'reply', id: frame.id, ok: true, data: { nope: 1 } }),
    );
    const deputy = connect(server.url);
    await expect(deputy.invoke('settings.get', {})).rejects.toMatchObject({ code: 'bad_reply' });
  });

  it('delivers events to their subscription, ignores unknown ones, and stops after unsubscribe', async () => {
    server = await startServer();
    const deputy = connect(server.url);
    const received: RunEvent[] = [];
    const unsubscribe = deputy.on('run.events', { threadId: 't1' }, (event) => received.push(event));
    await waitFor(() => server?.frames.some((frame) => frame.kind === 'subscribe') ?? false);
    const subscribe = server.frames.find((frame) => frame.kind === 'subscribe');
    expect(subscribe).toMatchObject({ channel: 'run.events', input: { threadId: 't1' } });

    const socket = server.sockets[0];
    server.send(socket, { kind: 'event', id: subscribe?.id, event: delta('Hello') });
    server.send(socket, {
      kind: 'event',
      id: subscribe?.id,
      event: { type: 'thinking', runId: 'r1', threadId: 't1' },
    });
    server.send(socket, { kind: 'event', id: 'someone-else', event: delta('not mine') });
    server.send(socket, { kind: 'event', id: subscribe?.id, event: delta(' world') });
    await waitFor(() => received.length === 2);
    expect(received.map((event) => (event.type === 'delta' ? event.delta : event.type))).toEqual([
      'Hello',
      ' world',
    ]);

    unsubscribe();
    await waitFor(() => server?.frames.some((frame) => frame.kind === 'unsubscribe') ?? false);
    expect(server.frames.find((frame) => frame.kind === 'unsubscribe')?.id).toBe(subscribe?.id);
    server.send(socket, { kind: 'event', id: subscribe?.id, event: delta('late') });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toHaveLength(2);
  });

  it('rejects in-flight commands when the connection drops, then reconnects and re-subscribes', async () => {
    server = await startServer();
    const deputy = connect(server.url);
    const received: RunEvent[] = [];
    deputy.on('run.events', {}, (event) => received.push(event));
    server.respond(() => undefined); // never answers
    const inFlight = deputy.invoke('threads.list', {});
    await waitFor(() => server?.frames.some((frame) => frame.kind === 'command') ?? false);

    server.sockets[0]?.terminate();
    await expect(inFlight).rejects.toMatchObject({ code: 'disconnected' });
    await waitFor(() => server?.sockets.length === 2 && deputy.status === 'open');
    expect(statuses).toContain('reconnecting');

    await waitFor(() => server?.frames.filter((frame) => frame.kind === 'subscribe').length === 2);
    const [first, second] = server.frames.filter((frame) => frame.kind === 'subscribe');
    expect(second).toEqual(first);

    server.send(server.sockets[1], { kind: 'event', id: second?.id, event: delta('after reconnect') });
    await waitFor(() => received.length === 1);

    server.respond((frame, socket) =>
      server?.send(socket, {
        kind: 'reply',
        id: frame.id,
        ok: true,
        data: { threads: [], nextBefore: null },
      }),
    );
    await expect(deputy.invoke('threads.list', {})).resolves.toEqual({ threads: [], nextBefore: null });
  });

  it('says a subscription has caught up when the host answers it, after what it replayed, on each reconnect', async () => {
    server = await startServer();
    // As the host does: the replay first, then the answer to the subscription.
    server.respond((frame, socket) => {
      if (frame.kind !== 'subscribe') return;
      server?.send(socket, { kind: 'event', id: frame.id, event: delta('replayed') });
      server?.send(socket, { kind: 'reply', id: frame.id, ok: true, data: null });
    });
    const deputy = connect(server.url);
    const heard: string[] = [];
    deputy.on(
      'run.events',
      { runId: 'r1' },
      (event) => heard.push(event.type === 'delta' ? event.delta : ''),
      {
        onCaughtUp: () => heard.push('caught up'),
      },
    );
    await waitFor(() => heard.length === 2);
    expect(heard).toEqual(['replayed', 'caught up']);

    server.sockets[0]?.terminate();
    await waitFor(() => heard.length === 4);
    expect(heard).toEqual(['replayed', 'caught up', 'replayed', 'caught up']);
  });

  it('stops with `unauthorized` when the host closes with 4401', async () => {
    server = await startServer();
    server.respond((_frame, socket) => socket.close(4401, 'bad token'));
    const deputy = connect(server.url);
    await expect(deputy.invoke('settings.get', {})).rejects.toMatchObject({ code: 'disconnected' });
    await waitFor(() => deputy.status === 'unauthorized');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(server.sockets).toHaveLength(1);
    await expect(deputy.invoke('settings.get', {})).rejects.toBeInstanceOf(ClientError);
  });

  it('reports `refused` when the very first connection never opens', async () => {
    server = await startServer({ rejectUpgrade: true });
    const deputy = connect(server.url);
    await expect(deputy.invoke('settings.get', {})).rejects.toMatchObject({ code: 'disconnected' });
    expect(deputy.status).toBe('refused');
  });

  it('reports `unauthorized` for a token that cannot be a subprotocol', async () => {
    server = await startServer();
    const deputy = connect(server.url, 'not a token');
    expect(deputy.status).toBe('unauthorized');
  });
});
