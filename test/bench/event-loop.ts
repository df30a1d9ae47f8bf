import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { createHost } from '../../electron/host/create-host';
import { startHttpServer } from '../../electron/server/http-server';
import type { OutsideCommand, OutsideReport } from './event-loop-outside';
import { collectGarbage } from './stats';

const TOKEN = 'bench-token';

/**
 * The main process's event-loop delay (perf_hooks.monitorEventLoopDelay) while `runs` runs stream at once
 * through the real Gemini client (each reads the task list, then streams a 50-chunk answer), a connected
 * client (the renderer's WebSocket) receives every event, and audit pages are asked for every 20 ms. The fake
 * Gemini and the renderer run on a worker thread, as in the app they are other machines and processes: the
 * delay measured is the host's own.
 */
export async function benchEventLoop(
  runs: number,
): Promise<{ p50: number; p99: number; max: number; runs: number }> {
  const outside = new Worker(new URL('./event-loop-outside.ts', import.meta.url), { workerData: { runs } });
  const reports: OutsideReport[] = [];
  let onReport: () => void = () => {};
  outside.on('message', (report: OutsideReport) => {
    reports.push(report);
    onReport();
  });
  const next = async <K extends OutsideReport['kind']>(
    kind: K,
  ): Promise<Extract<OutsideReport, { kind: K }>> => {
    for (;;) {
      const found = reports.find((report) => report.kind === kind);
      if (found) return found as Extract<OutsideReport, { kind: K }>;
      await new Promise<void>((resolve, reject) => {
        onReport = resolve;
        outside.once('error', reject);
      });
    }
  };
  const send = (command: OutsideCommand): void => outside.postMessage(command);

  const { url: geminiUrl } = await next('ready');
  const dataDir = mkdtempSync(join(tmpdir(), 'deputy-bench-'));
  const host = await createHost({
    dataDir,
    env: { GEMINI_API_KEY: 'bench', DEPUTY_GEMINI_BASE_URL: geminiUrl },
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
  send({ kind: 'connect', url: server.url, token: TOKEN });
  await next('connected');
  await host.runToEnd({ prompt: 'Warm up' });
  collectGarbage();

  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  send({ kind: 'go' });
  await next('done');
  delay.disable();

  await server.close();
  await host.close();
  send({ kind: 'close' });
  await new Promise((resolve) => outside.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
  const toMs = (nanoseconds: number): number => nanoseconds / 1e6;
  return { p50: toMs(delay.percentile(50)), p99: toMs(delay.percentile(99)), max: toMs(delay.max), runs };
}
