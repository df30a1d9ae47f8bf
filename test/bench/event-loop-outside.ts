import { parentPort, workerData } from 'node:worker_threads';
import { WebSocket } from 'ws';
import { WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../shared/contract/ws-protocol';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply, textReply } from '../fakes/gemini/script';

/**
 * What is not the main process in the event-loop bench, on a thread of its own: the fake Gemini (in the app,
 * Google's servers) and the connected renderer (in the app, another process). The main thread then holds only
 * what Deputy's main process holds: the host and its HTTP and WebSocket server.
 */
export type OutsideCommand =
  { kind: 'connect'; url: string; token: string } | { kind: 'go' } | { kind: 'close' };
export type OutsideReport = { kind: 'ready'; url: string } | { kind: 'connected' } | { kind: 'done' };

const port = parentPort;
if (!port) throw new Error('event-loop-outside runs as a worker thread');
const { runs } = workerData as { runs: number };
const post = (report: OutsideReport): void => port.postMessage(report);

const fake = await startFakeGemini();
// One run first, unmeasured (the JIT and the Gemini client's first request), then the measured ones.
fake.script(callReply('list_tasks', { query: 'warm-up' }), textReply('Nothing is due.', { chunks: 5 }));
for (let index = 0; index < runs; index += 1)
  fake.script(callReply('list_tasks', { query: `bench ${index}` }));
for (let index = 0; index < runs; index += 1)
  fake.script(
    textReply('The list is empty, nothing is due this week. '.repeat(10), { chunks: 50, gapMs: 5 }),
  );

let socket: WebSocket | null = null;
port.on('message', (command: OutsideCommand) => {
  if (command.kind === 'connect') {
    socket = new WebSocket(`${command.url.replace('http', 'ws')}/ws`, [
      WS_PROTOCOL,
      `${WS_TOKEN_PREFIX}${command.token}`,
    ]);
    socket.once('open', () => {
      socket?.send(JSON.stringify({ kind: 'subscribe', id: 'renderer', channel: 'run.events', input: {} }));
      post({ kind: 'connected' });
    });
  } else if (command.kind === 'go' && socket) {
    start(socket);
  } else if (command.kind === 'close') {
    void fake.close().then(() => port.close());
  }
});
post({ kind: 'ready', url: fake.url });

/** The renderer's part: start the runs, ask for an audit page every 20 ms, and wait for every result. */
function start(client: WebSocket): void {
  let finished = 0;
  let page = 0;
  const queries = setInterval(() => {
    page += 1;
    client.send(
      JSON.stringify({ kind: 'command', id: `audit-${page}`, channel: 'audit.list', input: { limit: 50 } }),
    );
  }, 20);
  client.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString()) as { kind: string; event?: { type: string } };
    if (message.kind !== 'event' || message.event?.type !== 'result') return;
    finished += 1;
    if (finished < runs) return;
    clearInterval(queries);
    client.close();
    post({ kind: 'done' });
  });
  for (let index = 0; index < runs; index += 1)
    client.send(
      JSON.stringify({
        kind: 'command',
        id: `run-${index}`,
        channel: 'run.start',
        input: { prompt: `Stream ${index}` },
      }),
    );
}
