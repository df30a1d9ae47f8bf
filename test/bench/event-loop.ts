import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { createHost } from '../../electron/host/create-host';
import { startHttpServer } from '../../electron/server/http-server';
import { WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../shared/contract/ws-protocol';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply, textReply } from '../fakes/gemini/script';

const TOKEN = 'bench-token';

/**
 * The main process's event-loop delay (perf_hooks.monitorEventLoopDelay) while `runs` runs stream at once
 * through the real Gemini client (each reads the task list, then streams a 50-chunk answer), a connected
 * client (the renderer's WebSocket) receives every event, and audit pages are asked for every 20 ms.
 */
export async function benchEventLoop(
  runs: number,
): Promise<{ p50: number; p99: number; max: number; runs: number }> {
  const fake = await startFakeGemini();
  const dataDir = mkdtempSync(join(tmpdir(), 'deputy-bench-'));
  const host = await createHost({
    dataDir,
    env: { GEMINI_API_KEY: 'bench', DEPUTY_GEMINI_BASE_URL: fake.url },
    logError: () => {},
  });
  await host.invoke('settings.set', {
    trustLevel: 'autonomous',
    maxConcurrentRuns: runs,
    rateLimits: { actionsPerMinute: 10_000, modelTokensPerHour: 100_000_000 },
  });
  const server = await startHttpServer({
    host,
    token: TOKEN,
    port: 0,
    rendererDir: dataDir,
    logError: () => {},
  });
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, [
    WS_PROTOCOL,
    `${WS_TOKEN_PREFIX}${TOKEN}`,
  ]);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let finished = 0;
  let onAllFinished: () => void = () => {};
  const allFinished = new Promise<void>((resolve) => (onAllFinished = resolve));
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString()) as { kind: string; event?: { type: string } };
    if (message.kind === 'event' && message.event?.type === 'result') {
      finished += 1;
      if (finished === runs) onAllFinished();
    }
  });
  socket.send(JSON.stringify({ kind: 'subscribe', id: 'renderer', channel: 'run.events', input: {} }));

  // One run first, unmeasured: the JIT and the Gemini client's first request are not what is measured.
  fake.script(callReply('list_tasks', { query: 'warm-up' }), textReply('Nothing is due.', { chunks: 5 }));
  await host.runToEnd({ prompt: 'Warm up' });
  finished = 0;

  for (let index = 0; index < runs; index += 1)
    fake.script(callReply('list_tasks', { query: `bench ${index}` }));
  for (let index = 0; index < runs; index += 1)
    fake.script(
      textReply('The list is empty, nothing is due this week. '.repeat(10), { chunks: 50, gapMs: 5 }),
    );

  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let page = 0;
  const queries = setInterval(() => {
    page += 1;
    socket.send(
      JSON.stringify({ kind: 'command', id: `audit-${page}`, channel: 'audit.list', input: { limit: 50 } }),
    );
  }, 20);
  for (let index = 0; index < runs; index += 1)
    socket.send(
      JSON.stringify({
        kind: 'command',
        id: `run-${index}`,
        channel: 'run.start',
        input: { prompt: `Stream ${index}` },
      }),
    );
  await allFinished;
  clearInterval(queries);
  delay.disable();

  socket.close();
  await server.close();
  await host.close();
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
  const toMs = (nanoseconds: number): number => nanoseconds / 1e6;
  return { p50: toMs(delay.percentile(50)), p99: toMs(delay.percentile(99)), max: toMs(delay.max), runs };
}
