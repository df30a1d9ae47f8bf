import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ContactsIndex, type Contact } from '../../../electron/context/contacts-index';
import { openContextDb } from '../../../electron/context/context-db';
import { IndexWorker, WorkerUnavailable } from '../../../electron/context/index-worker-client';
import { SemanticIndex, type Corpus } from '../../../electron/context/semantic-index';
import { toBlob } from '../../../electron/context/vector-codes';
import type { Db } from '../../../electron/store/database';

const DIMS = 64;
const dirs: string[] = [];
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function contextFile(): { file: string; db: Db } {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-index-worker-'));
  dirs.push(dir);
  const file = join(dir, 'context.db');
  const db = openContextDb(file);
  closers.push(() => {
    db.close();
  });
  return { file, db };
}

/** Deterministic vectors, different enough that each is its own nearest neighbour. */
const vectorOf = (n: number): Float32Array =>
  Float32Array.from(
    { length: DIMS },
    (_, d) => Math.sin((n + 1) * (d + 1) * 0.37) + (d === n % DIMS ? 2 : 0),
  );

function storeVectors(db: Db, count: number): void {
  const insert = db.prepare(
    "INSERT INTO vectors (kind, ref, model, text_hash, vector) VALUES ('memory', ?, 'test', ?, ?)",
  );
  db.transaction(() => {
    for (let n = 0; n < count; n += 1)
      insert.run(`m${String(n).padStart(5, '0')}`, `h${n}`, toBlob(vectorOf(n)));
  })();
}

const noCorpus: Corpus<string> = {
  kind: 'memory',
  page: () => ({ items: [], next: null }),
  fullText: () => [],
  get: () => null,
  idOf: (item) => item,
};

function worker(file: string, entry?: URL, errors: string[] = []): IndexWorker {
  const client = new IndexWorker(file, (message) => errors.push(message), ...(entry ? [entry] : []));
  closers.push(() => client.close());
  return client;
}

/** `count` people, every other one dealt with, their addresses in mixed case as mail headers write them. */
const peopleOf = (count: number): Contact[] =>
  Array.from({ length: count }, (_, n) => ({
    address: `Person${n}@Example.com`,
    name: `Person ${n}`,
    dealtCount: n % 2,
    seenCount: 1,
    lastAt: '2026-11-20T09:00:00.000Z',
    evidence: ['test'],
  }));

describe('the context index worker', () => {
  it('loads vectors off the main thread into the same index an in-thread load builds', async () => {
    const { file, db } = contextFile();
    storeVectors(db, 5_000);
    const inThread = new SemanticIndex(db, noCorpus, () => null, DIMS);
    const slices = await inThread.load();
    const viaWorker = new SemanticIndex(db, noCorpus, () => null, DIMS, worker(file));
    const mainThreadSlices = await viaWorker.load();
    // The in-thread load worked in slices on this thread; the worker's left none here.
    expect(slices.length).toBeGreaterThan(0);
    expect(mainThreadSlices).toEqual([]);
    expect(viaWorker.count()).toBe(5_000);
    for (const n of [0, 17, 2_500, 4_999]) {
      const query = vectorOf(n);
      expect(viaWorker.index.search(query, 3)).toEqual(inThread.index.search(query, 3));
      expect(viaWorker.index.search(query, 1)[0]?.ref).toBe(`m${String(n).padStart(5, '0')}`);
    }
    // A vector set after adopting grows the adopted arrays and is found.
    viaWorker.index.set('late', vectorOf(9_000));
    expect(viaWorker.index.search(vectorOf(9_000), 1)[0]?.ref).toBe('late');
  });

  it('merges contacts on its own connection; the main thread reads them and counts them again', async () => {
    const { file, db } = contextFile();
    const contacts = new ContactsIndex(db);
    const client = worker(file);
    const people = peopleOf(120);
    expect(await client.merge(people, contacts.maxContacts)).toBe(120);
    // Merging is idempotent: the same again changes nothing.
    expect(await client.merge(people, contacts.maxContacts)).toBe(120);
    contacts.recount();
    expect(contacts.count()).toBe(120);
    expect(contacts.isDealtWith('person1@example.com')).toBe(true);
    expect(contacts.isDealtWith('person2@example.com')).toBe(false);
    expect(contacts.findByName('Person 7', 5).map((c) => c.address)).toContain('person7@example.com');
  });

  it('sends no further chunk of a merge once its signal aborts (the index was cleared)', async () => {
    const { file, db } = contextFile();
    const contacts = new ContactsIndex(db);
    const client = worker(file);
    const people = peopleOf(2_500);
    const cleared = new AbortController();
    // The first chunk is on its way when the index is cleared; the others are not sent.
    const merging = client.merge(people, contacts.maxContacts, cleared.signal);
    cleared.abort();
    await merging;
    contacts.recount();
    expect(contacts.count()).toBeLessThan(people.length);
  });

  it('is started again once after it dies, then reports itself unavailable and the load is done in-thread', async () => {
    const { file, db } = contextFile();
    storeVectors(db, 2_500);
    const dir = dirs[0] ?? '';
    const dying = join(dir, 'dying-worker.mjs');
    writeFileSync(
      dying,
      "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(7));\n",
    );
    const errors: string[] = [];
    const client = worker(file, pathToFileURL(dying), errors);
    let gone = 0;
    client.onUnavailable = () => (gone += 1);
    await expect(client.merge([], 10)).rejects.toBeInstanceOf(WorkerUnavailable);
    expect(client.isAvailable).toBe(true);
    expect(gone).toBe(0);
    // The second death is the last: the semantic index then loads on the main thread, with the same result.
    const semantic = new SemanticIndex(db, noCorpus, () => null, DIMS, client);
    const slices = await semantic.load();
    expect(client.isAvailable).toBe(false);
    expect(gone).toBe(1);
    expect(slices.length).toBeGreaterThan(0);
    expect(semantic.count()).toBe(2_500);
    expect(errors).toEqual([
      'the context index worker stopped; it is started again',
      'the context index worker stopped again; the index is built on the main thread from now on',
    ]);
    await expect(client.merge([], 10)).rejects.toBeInstanceOf(WorkerUnavailable);
  });

  it('ignores a reply that is not one of its shapes, and still answers the request', async () => {
    const { file } = contextFile();
    const dir = dirs[0] ?? '';
    const noisy = join(dir, 'noisy-worker.mjs');
    writeFileSync(
      noisy,
      [
        "import { parentPort } from 'node:worker_threads';",
        "parentPort.on('message', (request) => {",
        "  parentPort.postMessage({ id: request.id, type: 'loaded', slots: 'many' });",
        "  parentPort.postMessage('not even an object');",
        "  parentPort.postMessage({ id: request.id, type: 'merged', count: 3 });",
        '});',
      ].join('\n'),
    );
    const errors: string[] = [];
    const client = worker(file, pathToFileURL(noisy), errors);
    expect(await client.merge([], 10)).toBe(3);
    expect(errors).toEqual([
      'the context index worker sent a message that was ignored',
      'the context index worker sent a message that was ignored',
    ]);
  });

  it('closing while the worker still loads SQLite waits for it, so the process is never aborted', async () => {
    const { file, db } = contextFile();
    storeVectors(db, 100);
    for (let round = 0; round < 5; round += 1) {
      const client = new IndexWorker(file, () => {});
      const loading = client.loadVectors('memory', DIMS, () => {}).catch((error: unknown) => error);
      await client.close();
      const outcome = await loading;
      // Either it finished before the close, or it was told Deputy is closing: never a dead process.
      if (outcome instanceof Error) expect(outcome).toBeInstanceOf(WorkerUnavailable);
    }
  });

  it('close ends the worker and fails what still waits, without leaving the thread running', async () => {
    const { file } = contextFile();
    const dir = dirs[0] ?? '';
    const silent = join(dir, 'silent-worker.mjs');
    writeFileSync(
      silent,
      "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage({ type: 'loaded-module' });\n" +
        "parentPort.on('message', (m) => { if (m.op === 'close') parentPort.close(); });\n",
    );
    const client = worker(file, pathToFileURL(silent));
    const waiting = expect(client.merge([], 10)).rejects.toBeInstanceOf(WorkerUnavailable);
    await client.close();
    await waiting;
    expect(client.isAvailable).toBe(false);
  });
});
