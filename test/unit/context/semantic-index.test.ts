import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openContextDb } from '../../../electron/context/context-db';
import { SemanticIndex, type Corpus } from '../../../electron/context/semantic-index';
import type { Embedder } from '../../../electron/llm/gemini-embedder';
import type { Db } from '../../../electron/store/database';

const DIMS = 32;
const PAGE = 100;
const ITEMS = 450;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function contextDb(): Db {
  const dir = mkdtempSync(join(tmpdir(), 'deputy-semantic-index-'));
  const db = openContextDb(join(dir, 'context.db'));
  cleanups.push(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return db;
}

/** `count` texts, read `PAGE` at a time, as the memories corpus pages them. */
function pagedCorpus(count: number): Corpus<string> {
  const ids = Array.from({ length: count }, (_, n) => `m${String(n).padStart(5, '0')}`);
  return {
    kind: 'memory',
    page: (cursor) => {
      const start = cursor === undefined ? 0 : Number(cursor);
      const end = Math.min(start + PAGE, count);
      return {
        items: ids.slice(start, end).map((id) => ({ id, text: `note ${id}` })),
        next: end < count ? String(end) : null,
      };
    },
    fullText: () => [],
    get: () => null,
    idOf: (item) => item,
  };
}

/**
 * An embedder that answers at once, as a cache or a local model does: it gives the event loop no turn.
 * `onCall` runs on each call (1, 2, …) before the answer.
 */
function instantEmbedder(onCall: (call: number) => void = () => {}): Embedder {
  let calls = 0;
  return {
    model: 'test',
    dims: DIMS,
    embed: (texts) => {
      calls += 1;
      onCall(calls);
      return Promise.resolve(
        texts.map((_, n) => Float32Array.from({ length: DIMS }, (_, d) => (d === n % DIMS ? 1 : 0.1))),
      );
    },
  };
}

const storedRows = (db: Db): number =>
  (db.prepare('SELECT count(*) AS n FROM vectors').get() as { n: number }).n;

describe('the semantic index sync', () => {
  it('takes a turn of the event loop before each batch it writes, even when the embedder answers at once', async () => {
    const db = contextDb();
    let turns = 0;
    let isTicking = true;
    const tick = (): void => {
      turns += 1;
      if (isTicking) setImmediate(tick);
    };
    setImmediate(tick);
    cleanups.push(() => {
      isTicking = false;
    });
    // Which turn of the loop each of the sync's write transactions ran in.
    const writeTurns: number[] = [];
    const watched = new Proxy(db, {
      get(target, key) {
        if (key === 'transaction')
          return (work: () => void) =>
            target.transaction(() => {
              writeTurns.push(turns);
              work();
            });
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const semantic = new SemanticIndex(watched, pagedCorpus(ITEMS), () => instantEmbedder(), DIMS);
    const sync = await semantic.sync(new AbortController().signal);
    expect(sync.embedded).toBe(ITEMS);
    expect(semantic.count()).toBe(ITEMS);
    expect(storedRows(db)).toBe(ITEMS);
    // Batches of 50: nine writes, and no two of them in one turn of the loop.
    expect(writeTurns).toHaveLength(9);
    for (let n = 1; n < writeTurns.length; n += 1)
      expect(writeTurns[n], `write ${n + 1} ran in the same turn as write ${n}`).toBeGreaterThan(
        writeTurns[n - 1] ?? Infinity,
      );
  });

  it('stops without writing when it is stopped while waiting for its turn; the next sync embeds the rest', async () => {
    const db = contextDb();
    const stop = new AbortController();
    // Stopped during the third batch's wait, as closing Deputy stops it: two batches were written.
    const embedder = instantEmbedder((call) => {
      if (call === 3) setImmediate(() => stop.abort());
    });
    const semantic = new SemanticIndex(db, pagedCorpus(ITEMS), () => embedder, DIMS);
    const stopped = await semantic.sync(stop.signal);
    expect(stopped.embedded).toBe(100);
    expect(storedRows(db)).toBe(100);
    expect(semantic.count()).toBe(100);

    const rest = await semantic.sync(new AbortController().signal);
    expect(rest.embedded).toBe(ITEMS - 100);
    expect(storedRows(db)).toBe(ITEMS);
    expect(semantic.count()).toBe(ITEMS);
  });

  it('writes nothing more once the index is cleared while it runs', async () => {
    const db = contextDb();
    let semantic: SemanticIndex<string> | null = null;
    // The person clears the index during the third batch's wait (Settings → Context → Clear).
    const embedder = instantEmbedder((call) => {
      if (call === 3) setImmediate(() => semantic?.clear());
    });
    semantic = new SemanticIndex(db, pagedCorpus(ITEMS), () => embedder, DIMS);
    const sync = await semantic.sync(new AbortController().signal);
    expect(sync.embedded).toBe(100);
    expect(storedRows(db)).toBe(0);
    expect(semantic.count()).toBe(0);
  });
});

describe('why a search matched by words only', () => {
  it('says Gemini could not be reached, not that the index is being built, when embedding failed', async () => {
    let isDown = true;
    const embedder: Embedder = {
      ...instantEmbedder(),
      embed: (texts, task, signal) =>
        isDown ? Promise.reject(new Error('fetch failed')) : instantEmbedder().embed(texts, task, signal),
    };
    const index = new SemanticIndex(contextDb(), pagedCorpus(3), () => embedder, DIMS);
    expect(index.whyWordsOnly()).toBe('The semantic index is still being built: matched by words only.');

    await expect(index.sync(new AbortController().signal)).rejects.toThrow('fetch failed');
    const unreachable = 'Semantic search could not reach Gemini: matched by words only.';
    expect(index.whyWordsOnly()).toBe(unreachable);
    expect(await index.search('note', 5)).toMatchObject({ mode: 'fts', note: unreachable });

    isDown = false;
    await index.sync(new AbortController().signal);
    expect(index.whyWordsOnly()).toBeNull();
  });
});

describe('the text hashes stored beside the vectors', () => {
  it('still match hashes written by earlier versions, so an upgrade embeds nothing again', async () => {
    const db = contextDb();
    // Frozen: the first 16 hex digits of SHA-256 of each text, as every version so far has stored them.
    const insert = db.prepare(
      "INSERT INTO vectors (kind, ref, model, text_hash, vector) VALUES ('memory', ?, 'test', ?, ?)",
    );
    const vector = Buffer.from(Float32Array.from({ length: DIMS }, () => 0.5).buffer);
    insert.run('m00000', '6f09bb8410ae9520', vector);
    insert.run('m00001', '602dc8ec3ff0ef4b', vector);
    let calls = 0;
    const embedder = instantEmbedder(() => (calls += 1));
    const semantic = new SemanticIndex(db, pagedCorpus(2), () => embedder, DIMS);
    const sync = await semantic.sync(new AbortController().signal);
    expect(calls).toBe(0);
    expect(sync.embedded).toBe(0);
    expect(semantic.count()).toBe(2);
  });
});
