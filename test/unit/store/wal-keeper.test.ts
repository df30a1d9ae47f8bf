import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../electron/store/store';
import { FOLD_ON_MAIN_AFTER_FRAMES, WalKeeper } from '../../../electron/store/wal-keeper-client';
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

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function threadOf(keeper: WalKeeper): Worker {
  const { thread } = keeper.internalsForTests();
  if (!thread) throw new Error('the keeper has no thread');
  return thread;
}

/** A keeper on `store`, closed with it after the test, once its thread has taken the checkpoints over. */
async function keeperOf(
  store: Store,
  entry?: URL,
  errors: string[] = [],
  countWithinMs?: number,
  everyMs?: number,
): Promise<{ store: Store; keeper: WalKeeper }> {
  const keeper = new WalKeeper(
    store,
    (message, error) => errors.push(`${message}: ${String(error)}`),
    entry,
    countWithinMs,
    everyMs,
  );
  cleanups.push(
    () => store.close(),
    () => keeper.close(),
  );
  await until(() => autocheckpoint(store) === FOLD_ON_MAIN_AFTER_FRAMES, 'the hand-over');
  return { store, keeper };
}

/** A stand-in keeper thread, written to a file: it loads, then answers count requests with `onCounts`. */
function scriptedKeeper(onCounts: string): URL {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-keeper-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'keeper.mjs');
  writeFileSync(
    file,
    `import { parentPort } from 'node:worker_threads';
parentPort.postMessage({ type: 'loaded' });
parentPort.on('message', (message) => {
  if (message.type === 'counts') { ${onCounts} }
  if (message.type === 'close') parentPort.close();
});
`,
  );
  return pathToFileURL(file);
}

const silentKeeper = (): URL => scriptedKeeper('');
const failingKeeper = (): URL =>
  scriptedKeeper(
    "parentPort.postMessage({ type: 'countsFailed', id: message.id, message: 'no such table: journal' });",
  );

describe('the WAL keeper', () => {
  it('takes the checkpoints off the main connection once its thread has loaded, and copies the log in', async () => {
    const store = openStore();
    const errors: unknown[] = [];
    // Every 50 ms, so that the test need not wait for the app's interval.
    const keeper = new WalKeeper(store, (_message, error) => errors.push(error), undefined, undefined, 50);
    expect(autocheckpoint(store)).toBe(1_000);
    await until(() => autocheckpoint(store) === FOLD_ON_MAIN_AFTER_FRAMES, 'the hand-over');
    expect(store.writes.isLogKeptElsewhere).toBe(true);

    const before = statSync(store.db.name).size;
    commit(store, 64);
    await until(() => statSync(store.db.name).size > before, 'the log to reach the database file');
    await keeper.close();
    store.close();
    expect(errors).toEqual([]);
  });

  it('gives the checkpoints back to the main connection when its thread stops', async () => {
    const store = openStore();
    const errors: string[] = [];
    const keeper = new WalKeeper(store, (message) => errors.push(message));
    await until(() => autocheckpoint(store) === FOLD_ON_MAIN_AFTER_FRAMES, 'the hand-over');
    await threadOf(keeper).terminate();
    await until(() => autocheckpoint(store) === 1_000, 'the checkpoints to come back');
    expect(store.writes.isLogKeptElsewhere).toBe(false);
    await keeper.close();
    store.close();
  });

  it('counts the tables on its own thread as the main connection counts them, committed rows only', async () => {
    const { store, keeper } = await keeperOf(openStore());
    commit(store, 5);
    store.transaction(() => {
      store.threads.create('t-run', 'x', 'now');
      store.runs.create({ id: 'r-1', threadId: 't-run', model: 'm', prompt: 'p' }, 'now');
    });
    const counted = await keeper.counts();
    expect(counted).toEqual(store.data.counts());
    expect(counted).toMatchObject({ threads: 6, runs: 1 });
    // Rows the main connection has not committed yet are not counted there.
    store.db.prepare('BEGIN').run();
    commit(store, 1);
    expect((await keeper.counts())?.threads).toBe(6);
    store.db.prepare('ROLLBACK').run();
  });

  it('answers null when its thread is not running, so the caller counts on the main connection', async () => {
    const { store, keeper } = await keeperOf(openStore());
    await threadOf(keeper).terminate();
    await until(() => autocheckpoint(store) === 1_000, 'the checkpoints to come back');
    expect(await keeper.counts()).toBeNull();
    await keeper.close();
    expect(await keeper.counts()).toBeNull();
  });

  it('answers null for a count still waiting when its thread stops, or that it does not answer in time', async () => {
    const errors: string[] = [];
    // Given a minute to answer, only its thread stopping can answer this one within the test.
    const { keeper } = await keeperOf(openStore(), silentKeeper(), errors, 60_000);
    const waiting = keeper.counts();
    await threadOf(keeper).terminate();
    expect(await waiting).toBeNull();

    const { keeper: slow } = await keeperOf(openStore(), silentKeeper(), errors, 100);
    const began = Date.now();
    expect(await slow.counts()).toBeNull();
    expect(Date.now() - began).toBeGreaterThanOrEqual(90);
    expect(errors).toEqual([]);
  });

  it('says why when its thread could not count, and answers null', async () => {
    const errors: string[] = [];
    const { keeper } = await keeperOf(openStore(), failingKeeper(), errors);
    expect(await keeper.counts()).toBeNull();
    expect(errors).toEqual([
      'the WAL keeper could not count the tables; they are counted on the main thread: no such table: journal',
    ]);
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

  it('leaves a long log to the main connection, which folds it in so that the log starts over', async () => {
    // A keeper that would not fold the log in for a minute: steps committing back to back outrun it.
    const { store } = await keeperOf(openStore(), undefined, [], undefined, 60_000);
    /** How many times the log has started over: the checkpoint sequence number in its header. */
    const startsOver = (): number => readFileSync(`${store.db.name}-wal`).readUInt32BE(12);
    const before = startsOver();
    const frames = (): number => (statSync(`${store.db.name}-wal`).size - 32) / (4_096 + 24);
    // One commit at a time (about 5 frames each): ten at once can cross the threshold by themselves.
    while (frames() < FOLD_ON_MAIN_AFTER_FRAMES - 50) commit(store, 1);
    expect(startsOver()).toBe(before);
    commit(store, 100);
    expect(startsOver()).toBe(before + 1);
    // It started over from its first frame: the file did not grow past what the fold left it.
    expect(frames()).toBeLessThan(FOLD_ON_MAIN_AFTER_FRAMES + 100);
  });
});
