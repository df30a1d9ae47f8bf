import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { join } from 'node:path';
import { openContextDb } from '../../electron/context/context-db';
import { ContactsIndex, type Contact } from '../../electron/context/contacts-index';
import { memoryCorpus } from '../../electron/context/corpora';
import { SemanticIndex } from '../../electron/context/semantic-index';
import { IndexWorker } from '../../electron/context/index-worker-client';
import { toBlob } from '../../electron/context/vector-codes';
import type { Embedder } from '../../electron/llm/gemini-embedder';
import { Store } from '../../electron/store/store';
import { createRng } from '../chaos/prng';
import { collectGarbageAndSettle, ms, summarize } from './stats';

const DIMS = 256;
const TOPICS = 50;
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tas',
  'vo',
  'ul',
  'bri',
  'sen',
  'dor',
  'fi',
  'gha',
  'ne',
  'pua',
  'ix',
];
/** A vocabulary of 3,375 made-up words, so each word is in a realistic share of the texts. */
const word = (n: number): string =>
  `${SYLLABLES[n % 15] ?? ''}${SYLLABLES[Math.floor(n / 15) % 15] ?? ''}${SYLLABLES[Math.floor(n / 225) % 15] ?? ''}`;
const VOCABULARY = 3_375;

export interface ContextSearchFigures {
  memories: number;
  contacts: number;
  search: ReturnType<typeof summarize>;
  /** Wall time of building in the index worker (the main thread meanwhile free): merging contacts, loading vectors. */
  mergeMs: number;
  loadMs: number;
  /** Re-embedding every memory: scanning for changed texts, and writing each batch of vectors. */
  syncSteps: ReturnType<typeof summarize>;
  /** The garbage collector's pauses while the index was built: a slice that contains one is longer by as much. */
  gcPauses: ReturnType<typeof summarize>;
  /** The main thread's event-loop delay while the index was built (merge, load, re-embed), in ms. */
  loopDelay: { max: number; p99: number; mean: number };
  /** The same, for merging contacts and loading vectors only (without the re-embedding sync). */
  loadDelay: { max: number; p99: number; mean: number };
}

/** Records the collector's pauses (minor and major) while it is watching. */
function watchGc(): { durations: number[]; stop: () => void; resume: () => void } {
  const durations: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) durations.push(entry.duration);
  });
  const resume = (): void => observer.observe({ entryTypes: ['gc'] });
  resume();
  return { durations, stop: () => observer.disconnect(), resume };
}

/**
 * Hybrid search over `memories` memories (FTS5 + vectors) and `contacts` contacts (FTS5), as query_context
 * runs it, with the query's embedding already made (the network call to Gemini is not Deputy's time).
 */
export async function benchContextSearch(
  memories: number,
  contacts: number,
  queries = 300,
): Promise<ContextSearchFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-bench-context-'));
  const store = Store.open(join(dir, 'deputy.db'));
  const db = openContextDb(join(dir, 'context.db'));
  try {
    const rng = createRng(11);
    const next = (): number => rng.next() - 0.5;
    const topics = Array.from({ length: TOPICS }, () => Float32Array.from({ length: DIMS }, next));
    const pick = (): string => word(Math.floor((next() + 0.5) * VOCABULARY));
    const vectorOf = (topic: number): Float32Array =>
      Float32Array.from({ length: DIMS }, (_, d) => (topics[topic]?.[d] ?? 0) + 0.7 * next());
    const insertVector = db.prepare(
      "INSERT INTO vectors (kind, ref, model, text_hash, vector) VALUES ('memory', ?, 'bench', 'h', ?)",
    );
    store.transaction(() => {
      for (let index = 0; index < memories; index += 1) {
        store.memories.add(
          {
            id: `m${index}`,
            text: Array.from({ length: 10 }, pick).join(' '),
            sourceRunId: null,
            origin: 'person',
            source: null,
            isConfirmed: true,
          },
          '2026-11-23T07:00:00.000Z',
        );
      }
    });
    db.transaction(() => {
      for (let index = 0; index < memories; index += 1)
        insertVector.run(`m${index}`, toBlob(vectorOf(index % TOPICS)));
    })();

    const index = new ContactsIndex(db, contacts + 1);
    const people: Contact[] = Array.from({ length: contacts }, (_, n) => ({
      address: `person${n}@example${n % 97}.com`,
      name: `${pick()} ${pick()}`,
      dealtCount: n % 3,
      seenCount: 1,
      lastAt: '2026-11-20T09:00:00.000Z',
      evidence: ['bench'],
    }));
    await collectGarbageAndSettle();
    const pauses = watchGc();
    // What a person feels: how late the main thread's event loop ran while the index was built (1 ms sampling).
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    // As a refresh writes them and the service loads vectors at start: in the index worker.
    const worker = new IndexWorker(join(dir, 'context.db'), (message, error) => {
      throw new Error(`${message}: ${String(error)}`);
    });
    // As the context service runs it: the worker checkpoints the WAL, this connection does not.
    db.pragma('wal_autocheckpoint = 0');
    const mergeBegan = performance.now();
    const merged = await worker.merge(people, index.maxContacts);
    const mergeMs = performance.now() - mergeBegan;
    index.recount();
    if (merged !== contacts || index.count() !== contacts)
      throw new Error(`the bench merged ${merged} contacts`);

    let queryVector = vectorOf(0);
    let isSyncing = false;
    const embedder: Embedder = {
      model: 'bench',
      dims: DIMS,
      embed: (texts) =>
        Promise.resolve(isSyncing ? texts.map((_, n) => vectorOf(n % TOPICS)) : [queryVector]),
    };
    const semantic = new SemanticIndex(db, memoryCorpus(store.memories), () => embedder, DIMS, worker);
    const loadBegan = performance.now();
    const loadSteps = await semantic.load();
    const loadMs = performance.now() - loadBegan;
    if (loadSteps.length > 0)
      throw new Error('the bench loaded vectors on the main thread, not in the worker');
    if (semantic.count() !== memories) throw new Error(`the bench loaded ${semantic.count()} vectors`);
    pauses.stop();
    loop.disable();
    const loadDelay = { max: loop.max / 1e6, p99: loop.percentile(99) / 1e6, mean: loop.mean / 1e6 };
    loop.reset();

    const samples: number[] = [];
    for (let q = 0; q < queries; q += 1) {
      queryVector = vectorOf(q % TOPICS);
      const began = performance.now();
      const found = await semantic.search(`${pick()} ${pick()} ${pick()}`, 10);
      index.findByName(pick(), 10);
      samples.push(performance.now() - began);
      if (found.mode !== 'hybrid' || found.matches.length === 0)
        throw new Error('the bench search was not hybrid');
    }
    // Then a sync finds every memory's text changed (the bench stored no real hashes) and embeds them all again.
    isSyncing = true;
    await collectGarbageAndSettle();
    pauses.resume();
    loop.enable();
    const sync = await semantic.sync(new AbortController().signal);
    loop.disable();
    pauses.stop();
    await worker.close();
    if (sync.embedded !== memories) throw new Error(`the bench sync embedded ${sync.embedded} memories`);
    return {
      memories,
      contacts,
      search: summarize(samples.slice(20)),
      mergeMs,
      loadMs,
      syncSteps: summarize(sync.steps),
      gcPauses: summarize(pauses.durations),
      loadDelay,
      loopDelay: { max: loop.max / 1e6, p99: loop.percentile(99) / 1e6, mean: loop.mean / 1e6 },
    };
  } finally {
    db.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The context figures as `npm run bench` prints them. */
export function printContextFigures(context: ContextSearchFigures): void {
  console.log(
    `hybrid search over ${context.memories} memories (FTS5 + vectors) and ${context.contacts} contacts (FTS5), ` +
      `query embedding given: median ${ms(context.search.median)}, p95 ${ms(context.search.p95)}, max ${ms(context.search.max)} ` +
      `over ${context.search.n} searches (target p95 ≤ 10 ms)`,
  );
  const step = (figures: ReturnType<typeof summarize>, unit = 'steps'): string =>
    `median ${ms(figures.median)}, p95 ${ms(figures.p95)}, max ${ms(figures.max)} over ${figures.n} ${unit}`;
  console.log(
    `building the index in its worker thread (wall time; the main thread is free meanwhile): merging ` +
      `${context.contacts} contacts ${ms(context.mergeMs)}, loading ${context.memories} vectors ${ms(context.loadMs)}; ` +
      `on the main thread, re-embedding ${context.memories} memories per time slice ${step(context.syncSteps)}`,
  );
  console.log(
    `garbage-collector pauses while building (inside the slices above): ${step(context.gcPauses, 'pauses')}`,
  );
  const delay = (figures: ContextSearchFigures['loopDelay']): string =>
    `mean ${ms(figures.mean)}, p99 ${ms(figures.p99)}, max ${ms(figures.max)}`;
  console.log(
    `main-thread event-loop delay (monitorEventLoopDelay, 1 ms sampling included; target max ≤ 10 ms): ` +
      `merging contacts and loading vectors ${delay(context.loadDelay)}; re-embedding sync ${delay(context.loopDelay)}`,
  );
}
