import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEnding } from '../../../electron/store/runs-repo';
import type { Store } from '../../../electron/store/store';
import { countStatements, storeWithRun } from '../../support/memory-store';

const NOW = '2026-11-26T12:00:00.000Z';
const LATER = '2026-11-26T12:00:01.000Z';

let store: Store;
/** The statements that name the status: only those touch the index of unfinished runs. */
let statusWrites: () => number;
beforeEach(() => {
  store = storeWithRun(NOW);
  statusWrites = countStatements(store, 'status_writes', 'UPDATE OF status ON runs');
});
afterEach(() => store.close());

interface RunRow {
  status: string;
  input_tokens: number;
  output_tokens: number;
  updated_at: string;
}
const onDisk = (): RunRow | undefined =>
  store.db
    .prepare<[], RunRow>("SELECT status, input_tokens, output_tokens, updated_at FROM runs WHERE id = 'r'")
    .get();

const step = (): void => {
  store.runs.setStatus('r', 'planning', NOW);
  store.runs.addUsage('r', 10, 5);
  store.transaction(() => store.runs.setStatus('r', 'executing', LATER));
};

describe("a run's row changed several times in a unit of work", () => {
  it('is written once as the unit commits, with the last status and every turn’s tokens', async () => {
    await store.writes.step(async () => {
      step();
      expect(onDisk()?.status).toBe('queued');
      step();
    });
    expect(onDisk()).toEqual({ status: 'executing', input_tokens: 20, output_tokens: 10, updated_at: LATER });
    expect(statusWrites()).toBe(1);
  });

  it('leaves the status alone when a step ends where the one before it did, and still counts the tokens', async () => {
    await store.writes.step(async () => step());
    await store.writes.step(async () => step());
    expect(onDisk()).toMatchObject({ status: 'executing', input_tokens: 20, output_tokens: 10 });
    expect(statusWrites()).toBe(1);
  });

  it('is seen by a read through the repo, or of the thread list, before the unit commits', async () => {
    await store.writes.step(async () => {
      step();
      expect(store.threads.list(10).threads[0]?.lastRunStatus).toBe('executing');
      expect(store.threads.get('t')?.lastRunStatus).toBe('executing');
      expect(store.runs.get('r')).toMatchObject({ status: 'executing', usage: { inputTokens: 10 } });
      expect(store.runs.unfinished().map((run) => run.status)).toEqual(['executing']);
      store.runs.addUsage('r', 1, 1);
    });
    expect(onDisk()).toMatchObject({ status: 'executing', input_tokens: 11, output_tokens: 6 });
  });

  it('drops the changes of a group that failed, and writes again what a read inside it wrote', async () => {
    await store.writes.step(async () => {
      store.runs.setStatus('r', 'planning', NOW);
      store.runs.addUsage('r', 10, 5);
      expect(() =>
        store.transaction(() => {
          store.runs.setStatus('r', 'executing', LATER);
          store.runs.addUsage('r', 100, 100);
          // The read writes the gathered changes inside the group, which then goes back.
          expect(store.runs.get('r')?.status).toBe('executing');
          throw new Error('the tool call failed');
        }),
      ).toThrow('the tool call failed');
      expect(store.runs.get('r')).toMatchObject({ status: 'planning', usage: { inputTokens: 10 } });
    });
    expect(onDisk()).toMatchObject({ status: 'planning', input_tokens: 10, output_tokens: 5 });
  });

  it('writes what was gathered before an ending, which is not overwritten at the commit', async () => {
    const ending: RunEnding = {
      status: 'completed',
      mode: 'assistant_text',
      summary: 'Done.',
      decision: 'ANSWER',
      outcome: 'SUCCESS',
      errorCode: null,
      errorMessage: null,
    };
    await store.writes.step(async () => {
      step();
      store.runs.end('r', ending, LATER);
      store.runs.setStatus('r', 'completed', LATER);
    });
    expect(onDisk()).toMatchObject({ status: 'completed', input_tokens: 10, output_tokens: 5 });
    // The step's own status, then the ending's; the status event after the ending writes no status again.
    expect(statusWrites()).toBe(2);
    expect(store.runs.unfinished()).toEqual([]);
  });

  it('is written at once outside a step', () => {
    store.runs.setStatus('r', 'planning', NOW);
    store.runs.addUsage('r', 3, 4);
    expect(onDisk()).toMatchObject({ status: 'planning', input_tokens: 3, output_tokens: 4 });
  });
});
