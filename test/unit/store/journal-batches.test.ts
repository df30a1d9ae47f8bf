import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../shared/contract';
import type { Store } from '../../../electron/store/store';
import { storeWithRun } from '../../support/memory-store';

const NOW = '2026-11-26T12:00:00.000Z';
let store: Store;
beforeEach(() => {
  store = storeWithRun(NOW);
  store.runs.create({ id: 'other', threadId: 't', model: 'm', prompt: 'p' }, NOW);
});
afterEach(() => store.close());

const status = (status: 'planning' | 'executing', runId = 'r'): RunEvent => ({
  type: 'status',
  runId,
  threadId: 't',
  status,
});
const append = (event: RunEvent): void => store.events.appendRedacted(event, NOW);
const stored = (): { run: number; seq: number }[] =>
  store.db.prepare<[], { run: number; seq: number }>('SELECT run, seq FROM journal ORDER BY run, seq').all();
const statuses = (runId = 'r'): unknown[] =>
  store.events.byRun(runId).map((event) => (event as { status?: string }).status);

describe('the journal inside a step’s unit of work', () => {
  it('writes a step’s rows when the unit commits, numbered in order, and a read in between sees them', async () => {
    await store.writes.step(async () => {
      append(status('planning'));
      append(status('executing'));
      append(status('planning', 'other'));
      expect(stored()).toEqual([]);
      expect(statuses()).toEqual(['planning', 'executing']);
      append(status('planning'));
    });
    expect(stored()).toEqual([
      { run: 1, seq: 1 },
      { run: 1, seq: 2 },
      { run: 1, seq: 3 },
      { run: 2, seq: 1 },
    ]);
    expect(statuses()).toEqual(['planning', 'executing', 'planning']);
  });

  it('writes more rows than one statement takes, all of them', async () => {
    await store.writes.step(async () => {
      for (let index = 0; index < 40; index += 1) append(status(index % 2 === 0 ? 'planning' : 'executing'));
    });
    expect(stored().map((row) => row.seq)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
  });

  it('lets a row go back with the group that failed, as a written row would, and keeps counting after it', async () => {
    await store.writes.step(async () => {
      append(status('planning'));
      expect(() =>
        store.writes.transaction(() => {
          append(status('executing'));
          throw new Error('the group failed');
        }),
      ).toThrow('the group failed');
      append(status('planning'));
    });
    expect(statuses()).toEqual(['planning', 'planning']);
    expect(stored().map((row) => row.seq)).toEqual([1, 2]);
  });

  it('undoes an inner group’s rows when the group around it fails, and a key made there', async () => {
    await store.writes.step(async () => {
      expect(() =>
        store.writes.transaction(() => {
          store.writes.transaction(() => append(status('planning', 'other')));
          throw new Error('the outer group failed');
        }),
      ).toThrow('the outer group failed');
      append(status('executing', 'other'));
    });
    expect(statuses('other')).toEqual(['executing']);
    expect(store.db.prepare('SELECT run_id FROM run_keys').all()).toEqual([{ run_id: 'other' }]);
  });

  it('puts rows written by a read inside a group that fails back in line', async () => {
    await store.writes.step(async () => {
      append(status('planning'));
      expect(() =>
        store.writes.transaction(() => {
          expect(statuses()).toEqual(['planning']);
          throw new Error('the group failed after reading');
        }),
      ).toThrow('after reading');
    });
    expect(statuses()).toEqual(['planning']);
    expect(stored()).toEqual([{ run: 1, seq: 1 }]);
  });

  it('keeps rows the disk refused waiting for the next commit, instead of losing them', async () => {
    append(status('planning'));
    store.db.exec('ALTER TABLE journal RENAME TO journal_away');
    await expect(store.writes.step(async () => append(status('executing')))).rejects.toThrow(/journal/);
    store.db.exec('ALTER TABLE journal_away RENAME TO journal');
    expect(statuses()).toEqual(['planning', 'executing']);
    expect(stored()).toEqual([
      { run: 1, seq: 1 },
      { run: 1, seq: 2 },
    ]);
  });

  it('writes at once outside a step', () => {
    append(status('planning'));
    expect(stored()).toEqual([{ run: 1, seq: 1 }]);
  });
});
