import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openContextDb } from '../../electron/context/context-db';
import { ContactsIndex, type Contact } from '../../electron/context/contacts-index';
import { OBSERVE_CHUNK } from '../../electron/context/context-refresh';
import { memoryCorpus } from '../../electron/context/corpora';
import { SemanticIndex } from '../../electron/context/semantic-index';
import { toBlob } from '../../electron/context/vector-codes';
import type { Embedder } from '../../electron/llm/gemini-embedder';
import { Store } from '../../electron/store/store';
import { createRng } from '../chaos/prng';
import { summarize } from './stats';

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
  /** How long each step of building the indexes took: loading vectors, merging contacts. */
  loadSteps: ReturnType<typeof summarize>;
  mergeSteps: ReturnType<typeof summarize>;
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
    const mergeSteps: number[] = [];
    for (let start = 0; start < people.length; start += OBSERVE_CHUNK) {
      const began = performance.now();
      index.merge(people.slice(start, start + OBSERVE_CHUNK));
      mergeSteps.push(performance.now() - began);
    }

    let queryVector = vectorOf(0);
    const embedder: Embedder = { model: 'bench', dims: DIMS, embed: () => Promise.resolve([queryVector]) };
    const semantic = new SemanticIndex(db, memoryCorpus(store.memories), () => embedder, DIMS);
    const loadSteps = await semantic.load();

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
    return {
      memories,
      contacts,
      search: summarize(samples.slice(20)),
      loadSteps: summarize(loadSteps),
      mergeSteps: summarize(mergeSteps),
    };
  } finally {
    db.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
