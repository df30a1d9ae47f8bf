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
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

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

/** An embedder that answers at once, as a cache or a local model does: it gives the event loop no turn. */
const instantEmbedder: Embedder = {
  model: 'test',
  dims: DIMS,
  embed: (texts) =>
    Promise.resolve(
      texts.map((_, n) => Float32Array.from({ length: DIMS }, (_, d) => (d === n % DIMS ? 1 : 0.1))),
    ),
};

describe('the semantic index sync', () => {
  it('takes a turn of the event loop before each batch it writes, even when the embedder answers at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deputy-semantic-sync-'));
    dirs.push(dir);
    const db = openContextDb(join(dir, 'context.db'));
    let turns = 0;
    let isTicking = true;
    const tick = (): void => {
      turns += 1;
      if (isTicking) setImmediate(tick);
    };
    setImmediate(tick);
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
    }) as Db;
    try {
      const semantic = new SemanticIndex(watched, pagedCorpus(450), () => instantEmbedder, DIMS);
      const sync = await semantic.sync(new AbortController().signal);
      expect(sync.embedded).toBe(450);
      expect(semantic.count()).toBe(450);
      const stored = db.prepare('SELECT count(*) AS n FROM vectors').get() as { n: number };
      expect(stored.n).toBe(450);
      // Batches of 50: nine writes, and no two of them in one turn of the loop.
      expect(writeTurns).toHaveLength(9);
      for (let n = 1; n < writeTurns.length; n += 1)
        expect(writeTurns[n], `write ${n + 1} ran in the same turn as write ${n}`).toBeGreaterThan(
          writeTurns[n - 1] ?? Infinity,
        );
    } finally {
      isTicking = false;
      db.close();
    }
  });
});
