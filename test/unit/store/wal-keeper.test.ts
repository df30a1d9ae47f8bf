import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../electron/store/store';
import { WalKeeper } from '../../../electron/store/wal-keeper-client';
import { useTempStores } from '../../support/fixture-copies';

const openStore = useTempStores();

const autocheckpoint = (store: Store): number =>
  store.db.pragma('wal_autocheckpoint', { simple: true }) as number;

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Commits `count` small transactions, each a thread row of its own. */
function commit(store: Store, count: number): void {
  for (let index = 0; index < count; index += 1)
    store.transaction(() => store.threads.create(`t-${index}-${Math.random()}`, 'x'.repeat(2_000), 'now'));
}

describe('the WAL keeper', () => {
  it('takes the checkpoints off the main connection once its thread has loaded, and copies the log in', async () => {
    const store = openStore();
    const errors: unknown[] = [];
    const keeper = new WalKeeper(store, (_message, error) => errors.push(error));
    expect(autocheckpoint(store)).toBe(1_000);
    await until(() => autocheckpoint(store) === 0, 'the hand-over');
    expect(store.writes.onCommits).not.toBeNull();

    const before = statSync(store.db.name).size;
    commit(store, 64); // more than one nudge's worth of commits
    await until(() => statSync(store.db.name).size > before, 'the log to reach the database file');
    await keeper.close();
    store.close();
    expect(errors).toEqual([]);
  });

  it('gives the checkpoints back to the main connection when its thread stops', async () => {
    const store = openStore();
    const errors: string[] = [];
    const keeper = new WalKeeper(store, (message) => errors.push(message));
    await until(() => autocheckpoint(store) === 0, 'the hand-over');
    await (keeper as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await until(() => autocheckpoint(store) === 1_000, 'the checkpoints to come back');
    expect(store.writes.onCommits).toBeNull();
    await keeper.close();
    store.close();
  });

  it('counts the tables on its own thread as the main connection counts them, committed rows only', async () => {
    const store = openStore();
    const keeper = new WalKeeper(store, () => {});
    commit(store, 5);
    store.transaction(() => {
      store.threads.create('t-run', 'x', 'now');
      store.runs.create({ id: 'r-1', threadId: 't-run', model: 'm', prompt: 'p' }, 'now');
    });
    await until(() => autocheckpoint(store) === 0, 'the hand-over');
    const counted = await keeper.counts();
    expect(counted).toEqual(store.data.counts());
    expect(counted).toMatchObject({ threads: 6, runs: 1 });
    // Rows the main connection has not committed yet are not counted there.
    store.db.prepare('BEGIN').run();
    commit(store, 1);
    expect((await keeper.counts())?.threads).toBe(6);
    store.db.prepare('ROLLBACK').run();
    await keeper.close();
    store.close();
  });

  it('answers null when its thread is not running, so the caller counts on the main connection', async () => {
    const store = openStore();
    const keeper = new WalKeeper(store, () => {});
    await until(() => autocheckpoint(store) === 0, 'the hand-over');
    await (keeper as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await until(() => autocheckpoint(store) === 1_000, 'the checkpoints to come back');
    expect(await keeper.counts()).toBeNull();
    await keeper.close();
    expect(await keeper.counts()).toBeNull();
    store.close();
  });

  it('leaves the main connection checkpointing when its thread cannot start, and says so', async () => {
    const store = openStore();
    const errors: string[] = [];
    const keeper = new WalKeeper(
      store,
      (message) => errors.push(message),
      new URL('file:///no/such/keeper.js'),
    );
    await until(() => errors.length > 0, 'the failure to be reported');
    expect(errors[0]).toMatch(/WAL keeper/);
    expect(autocheckpoint(store)).toBe(1_000);
    await keeper.close();
    store.close();
  });
});
