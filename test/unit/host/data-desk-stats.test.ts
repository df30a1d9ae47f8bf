import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataDesk } from '../../../electron/host/data-desk';
import { asTableCounts, COUNTED } from '../../../electron/store/data-counts';
import type { Store } from '../../../electron/store/store';
import { useTempStores } from '../../support/fixture-copies';

const openStore = useTempStores();
const cleanups: (() => void)[] = [];
const afterTest = (cleanup: () => void): void => {
  cleanups.push(cleanup);
};
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function deskWith(countOffThread: (store: Store) => Promise<ReturnType<typeof asTableCounts>>) {
  const store = openStore();
  afterTest(() => {
    if (store.db.open) store.close();
  });
  store.transaction(() => store.threads.create('t-1', 'x', 'now'));
  const desk = new DataDesk({
    store,
    now: () => new Date(),
    stopRunsIn: () => Promise.resolve(0),
    hasRunsIn: () => false,
    approvalsChanged: () => {},
    countOffThread: () => countOffThread(store),
  });
  return { store, desk };
}

describe('Settings → Data stats', () => {
  it('take the counts from off the main thread when they come, and do not count on the main connection', async () => {
    const offThread = Object.fromEntries(COUNTED.map((table, n) => [table, n + 10]));
    const { store, desk } = deskWith(() => Promise.resolve(asTableCounts(offThread)));
    const mainCounts = vi.spyOn(store.data, 'counts');
    const stats = await desk.stats();
    expect(stats.counts).toEqual(offThread);
    expect(mainCounts).not.toHaveBeenCalled();
    expect(stats.totalBytes).toBe(stats.databaseBytes + stats.walBytes);
  });

  it('count on the main connection when nothing off the main thread can', async () => {
    const { store, desk } = deskWith(() => Promise.resolve(null));
    const mainCounts = vi.spyOn(store.data, 'counts');
    const stats = await desk.stats();
    expect(stats.counts).toMatchObject({ threads: 1, runs: 0 });
    expect(mainCounts).toHaveBeenCalledOnce();
  });

  it('say Deputy is shutting down when the store closed while the counts were being made elsewhere', async () => {
    const { desk } = deskWith((store) => {
      store.close();
      return Promise.resolve(null);
    });
    await expect(desk.stats()).rejects.toMatchObject({
      code: 'conflict',
      message: 'Deputy is shutting down.',
    });
  });
});

describe('counts received from another thread', () => {
  const whole = Object.fromEntries(COUNTED.map((table) => [table, 3]));

  it('are taken when every table has a whole, non-negative count, and only those tables', () => {
    expect(asTableCounts({ ...whole, extra: 'x' })).toEqual(whole);
  });

  it.each([
    ['nothing', null],
    ['a string', 'counts'],
    ['a missing table', { ...whole, journal: 1, events: undefined }],
    ['a fraction', { ...whole, runs: 1.5 }],
    ['a negative count', { ...whole, threads: -1 }],
    ['a count as text', { ...whole, messages: '4' }],
  ])('are refused with %s', (_what, value) => {
    expect(asTableCounts(value)).toBeNull();
  });
});
