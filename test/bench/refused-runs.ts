import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createHost, DATABASE_FILE } from '../../electron/host/create-host';
import type { ModelClient, ModelStreamEvent } from '../../electron/llm/model-client';

export interface RefusedRunsFootprint {
  runs: number;
  /** Growth of the database file once the WAL is folded in (page_count × page_size), in bytes. */
  bytes: number;
  bytesPerRun: number;
  /** The WAL file's size right after the runs, before it was folded in (what the disk held meanwhile). */
  walBytes: number;
  refused: number;
  elapsedMs: number;
}

/** One answer that spends the whole hour's model-token budget, so every later request is refused. */
function budgetSpender(): ModelClient {
  return {
    async *stream(): AsyncIterable<ModelStreamEvent> {
      yield { type: 'text', text: 'Done.' };
      yield {
        type: 'finish',
        finishReason: 'STOP',
        usage: { inputTokens: 5_000, outputTokens: 0, totalTokens: 5_000 },
      };
    },
  };
}

/** Folds the WAL into the database and answers its size: what a refused run leaves behind for good. */
function settledBytes(file: string): number {
  const db = new Database(file);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pages = db.pragma('page_count', { simple: true }) as number;
    const size = db.pragma('page_size', { simple: true }) as number;
    return pages * size;
  } finally {
    db.close();
  }
}

const walSize = (file: string): number => {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
};

/**
 * Sends `count` requests that the model-token budget refuses, over the same path the HTTP route takes, and
 * measures how much the database grew.
 */
export async function benchRefusedRuns(count: number): Promise<RefusedRunsFootprint> {
  const dataDir = mkdtempSync(join(tmpdir(), 'deputy-refused-'));
  const file = join(dataDir, DATABASE_FILE);
  const host = await createHost({
    dataDir,
    env: { GEMINI_API_KEY: 'bench-key' },
    modelClient: budgetSpender,
    logError: () => {},
  });
  try {
    await host.invoke('settings.set', { rateLimits: { modelTokensPerHour: 1_000 } });
    await host.runToEnd({ prompt: 'Spend the budget' });
    const before = settledBytes(file);
    let refused = 0;
    const started = performance.now();
    for (let i = 0; i < count; i += 1) {
      const response = await host.runToEnd({
        prompt: `Refused request number ${i}: what is on my list today?`,
      });
      if (response.status === 'failed' && response.summary.startsWith('Rate limit reached')) refused += 1;
    }
    const elapsedMs = performance.now() - started;
    const walBytes = walSize(file);
    const bytes = settledBytes(file) - before;
    return { runs: count, bytes, bytesPerRun: bytes / count, walBytes, refused, elapsedMs };
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
