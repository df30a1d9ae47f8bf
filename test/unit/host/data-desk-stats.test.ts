import { describe, expect, it, vi } from 'vitest';
import { DataDesk } from '../../../electron/host/data-desk';
import { asTableCounts, COUNTED } from '../../../electron/store/data-counts';
import { useTempStores } from '../../support/fixture-copies';

const openStore = useTempStores();

function deskWith(countOffThread: () => Promise<ReturnType<typeof asTableCounts>>) {
  const store = openStore();
  store.transaction(() => store.threads.create('t-1', 'x', 'now'));
  const desk = new DataDesk({
    store,
    now: () => new Date(),
    stopRunsIn: () => Promise.resolve(0),
    hasRunsIn: () => false,
    approvalsChanged: () => {},
    countOffThread,
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
    store.close();
  });

  it('count on the main connection when nothing off the main thread can', async () => {
    const { store, desk } = deskWith(() => Promise.resolve(null));
    const stats = await desk.stats();
    expect(stats.counts).toMatchObject({ threads: 1, runs: 0 });
    store.close();
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
