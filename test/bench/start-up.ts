import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeCheckpoints } from '../../electron/engine/journal';
import { initialState } from '../../electron/engine/run-state';
import { createHost } from '../../electron/host/create-host';
import { startHttpServer } from '../../electron/server/http-server';
import { Store } from '../../electron/store/store';
import { LIST_TASKS, taskLoopModel } from './durability';

/**
 * The headless host's start, in this process (its modules already loaded): from `createHost` on a fresh data
 * folder to the answer of its first HTTP request.
 */
export async function benchFirstResponse(): Promise<{ firstResponseMs: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'deputy-bench-'));
  const started = performance.now();
  const host = await createHost({ dataDir, env: {}, logError: () => {} });
  const server = await startHttpServer({
    host,
    token: 'bench',
    port: 0,
    rendererDir: dataDir,
    logError: () => {},
  });
  const response = await fetch(`${server.url}/api/health`, { headers: { authorization: 'Bearer bench' } });
  await response.text();
  const firstResponseMs = performance.now() - started;
  await server.close();
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { firstResponseMs };
}

/**
 * `runs` unfinished runs left by a Deputy that stopped (each with its first checkpoint), then a start: the time
 * from `createHost` until every one of them has been picked up again and finished (one read, then an answer,
 * from a zero-latency model).
 */
export async function benchResume(runs: number): Promise<{ resumeMs: number; runs: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'deputy-bench-'));
  const store = Store.open(join(dataDir, 'deputy.db'));
  const sink = storeCheckpoints({ store, newId: randomUUID, now: () => new Date() });
  for (let index = 0; index < runs; index += 1) {
    const run = {
      id: randomUUID(),
      threadId: randomUUID(),
      model: 'gemini-2.5-flash',
      prompt: `Unfinished ${index}`,
    };
    const now = new Date().toISOString();
    const state = initialState('You are Deputy, a careful assistant.', [
      { role: 'user', parts: [{ kind: 'text', text: run.prompt }] },
    ]);
    store.transaction(() => {
      store.threads.create(run.threadId, 'bench', now);
      store.runs.create(run, now);
      store.runs.setStatus(run.id, 'executing', now);
    });
    sink.save({ runId: run.id, threadId: run.threadId } as never, state);
  }
  store.close();

  const started = performance.now();
  const model = taskLoopModel(1, [], LIST_TASKS);
  const host = await createHost({
    dataDir,
    env: { GEMINI_API_KEY: 'bench' },
    modelClient: () => model,
    logError: () => {},
  });
  const reopened = host.internalsForTests().store;
  while (reopened.runs.unfinished().length > 0) await new Promise((resolve) => setImmediate(resolve));
  const resumeMs = performance.now() - started;
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { resumeMs, runs };
}
