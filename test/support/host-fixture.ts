import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, type Host } from '../../electron/host/create-host';
import type { ModelClient } from '../../electron/llm/model-client';
import type { RunEvent } from '../../shared/contract';

export interface HostFixture {
  host: Host;
  dataDir: string;
  errors: unknown[];
  close(): Promise<void>;
}

/** A real Host on a fresh data folder (real SQLite), with the model of the test's choosing. */
export async function openHost(
  model: ModelClient | null,
  env: Record<string, string | undefined> = {},
  dataDir = mkdtempSync(join(tmpdir(), 'deputy-test-')),
): Promise<HostFixture> {
  const errors: unknown[] = [];
  const host = await createHost({
    dataDir,
    env: { GEMINI_API_KEY: 'test-key', ...env },
    modelClient: () => model,
    logError: (_message, error) => errors.push(error),
  });
  return {
    host,
    dataDir,
    errors,
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
