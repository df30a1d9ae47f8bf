import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { createHost } from '../../electron/host/create-host';
import { startHttpServer } from '../../electron/server/http-server';
import { WS_PROTOCOL, WS_TOKEN_PREFIX } from '../../shared/contract/ws-protocol';
import { startFakeGemini } from '../fakes/gemini/server';
import { summarize } from './stats';

const CHUNKS_PER_RUN = 50;

/**
 * Latency added between a model chunk leaving the fake Gemini and the matching `delta` reaching a WebSocket
 * client: the real @google/genai client, the engine, the event log and the WebSocket transport, one process.
 */
export async function benchDeltaLatency(runs: number): Promise<ReturnType<typeof summarize>> {
  const sentAt = new Map<string, bigint>();
  let currentRun = 0;
  const fake = await startFakeGemini({
    onChunkSent: (info) => sentAt.set(`${currentRun}:${info.index}`, info.sentAt),
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'deputy-bench-'));
  const token = 'bench-token';
  const host = await createHost({
    dataDir,
    env: { GEMINI_API_KEY: 'bench', DEPUTY_GEMINI_BASE_URL: fake.url },
    logError: () => {},
  });
  const server = await startHttpServer({ host, token, port: 0, rendererDir: dataDir, logError: () => {} });
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, [
    WS_PROTOCOL,
    `${WS_TOKEN_PREFIX}${token}`,
  ]);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });

  const samples: number[] = [];
  let onResult: () => void = () => {};
  socket.on('message', (data: Buffer) => {
    const receivedAt = process.hrtime.bigint();
    const message = JSON.parse(data.toString()) as { kind: string; event?: { type: string; delta?: string } };
    if (message.kind !== 'event' || !message.event) return;
    if (message.event.type === 'delta' && message.event.delta) {
      const index = /^<(\d+)>/.exec(message.event.delta)?.[1];
      const sent = index === undefined ? undefined : sentAt.get(`${currentRun}:${index}`);
      if (sent !== undefined && currentRun > 1) samples.push(Number(receivedAt - sent) / 1e6);
    }
    if (message.event.type === 'result') onResult();
  });
  socket.send(JSON.stringify({ kind: 'subscribe', id: 'bench', channel: 'run.events', input: {} }));

  for (let run = 0; run < runs + 2; run += 1) {
    currentRun = run;
    const chunks = Array.from({ length: CHUNKS_PER_RUN }, (_, index) => ({
      text: `<${index}> word `,
      ...(index === CHUNKS_PER_RUN - 1 && {
        finishReason: 'STOP',
        usage: { prompt: 10, output: CHUNKS_PER_RUN },
      }),
    }));
    // A gap between chunks, as a real model has, so each chunk is measured on its own rather than queued behind others.
    fake.script({ kind: 'reply', chunks, gapMs: 2 });
    const finished = new Promise<void>((resolve) => (onResult = resolve));
    socket.send(
      JSON.stringify({
        kind: 'command',
        id: `run-${run}`,
        channel: 'run.start',
        input: { prompt: 'Stream' },
      }),
    );
    await finished;
  }

  socket.close();
  await server.close();
  await host.close();
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
  return summarize(samples);
}
