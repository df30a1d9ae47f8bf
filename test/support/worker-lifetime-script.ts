/**
 * Run as a process of its own by worker-lifetime.test.ts: a script that uses both worker threads and then
 * closes them, with nothing else keeping its event loop alive. It must get to the end and print "done".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openContextDb } from '../../electron/context/context-db';
import { IndexWorker } from '../../electron/context/index-worker-client';
import { Store } from '../../electron/store/store';
import { WalKeeper } from '../../electron/store/wal-keeper-client';

const dir = mkdtempSync(join(tmpdir(), 'deputy-worker-lifetime-'));
const store = Store.open(join(dir, 'deputy.db'));
const keeper = new WalKeeper(store, (message) => console.error(message));
openContextDb(join(dir, 'context.db')).close();
const worker = new IndexWorker(join(dir, 'context.db'), (message) => console.error(message));
// Enough people that the worker takes a while (tens of milliseconds) to answer.
const people = Array.from({ length: 5_000 }, (_, n) => ({
  address: `person${n}@example.com`,
  name: `Person ${n}`,
  dealtCount: 1,
  seenCount: 1,
  lastAt: '2026-11-26T09:00:00.000Z',
  evidence: ['test'],
}));
const merged = await worker.merge(people, 10_000);
await worker.close();
store.close();
await keeper.close();
rmSync(dir, { recursive: true, force: true });
console.log(`done: ${merged}`);
