import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, type Host } from '../../electron/host/create-host';
import type { ModelClient } from '../../electron/llm/model-client';
import type { Tool } from '../../electron/tools/tool';
import type { RunEvent } from '../../shared/contract';

export interface HostFixture {
  host: Host;
  dataDir: string;
  errors: unknown[];
  /** What each error was logged as ("embedding tasks failed"), in the order of `errors`. */
  errorMessages: string[];
  /** The backoff delays retries asked for, in order. */
  waits: number[];
  /** Closes the host and keeps the data folder (to reopen it, as after a restart). */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export interface HostFixtureOptions {
  env?: Record<string, string | undefined>;
  dataDir?: string;
  now?: () => Date;
  tools?: readonly Tool[];
  /** How retries wait; by default they do not (the delays are recorded in `waits`). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** A real Host on a fresh data folder (real SQLite), with the model of the test's choosing. */
export async function openHost(
  model: ModelClient | null,
  options: HostFixtureOptions = {},
): Promise<HostFixture> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'deputy-test-'));
  const errors: unknown[] = [];
  const errorMessages: string[] = [];
  const waits: number[] = [];
  const host = await createHost({
    dataDir,
    // Gemini at a local port nothing listens on, unless the test gives its fake: background work the host starts
    // by itself (a memory's embedding, the context refresh) must never reach the real service from a test.
    env: { GEMINI_API_KEY: 'test-key', DEPUTY_GEMINI_BASE_URL: 'http://127.0.0.1:9', ...options.env },
    modelClient: () => model,
    ...(options.now && { now: options.now }),
    ...(options.tools && { extraTools: options.tools }),
    logError: (message, error) => {
      errors.push(error);
      errorMessages.push(message);
    },
    sleep:
      options.sleep ??
      ((ms, signal) => {
        waits.push(ms);
        return signal.aborted ? Promise.reject(new Error('aborted')) : Promise.resolve();
      }),
    random: () => 0.5,
  });
  return {
    host,
    dataDir,
    errors,
    errorMessages,
    waits,
    stop: () => host.close(),
    close: async () => {
      await host.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function collect(host: Host, runId?: string): RunEvent[] {
  const events: RunEvent[] = [];
  host.subscribe('run.events', runId ? { runId } : {}, (event) => events.push(event));
  return events;
}
