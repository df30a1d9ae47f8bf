import { hash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Embedder } from '../llm/gemini-embedder';
import type { Db } from '../store/database';
import { fromBlob, toBlob } from './vector-codes';
import { WorkerUnavailable, type IndexWorker } from './index-worker-client';
import { inSlices } from './time-slices';
import { VectorIndex } from './vector-index';

/** Rows read per step when loading vectors into memory: a step is well under a millisecond once warm. */
export const LOAD_CHUNK = 32;
const EMBED_BATCH = 50;
/** Stored vectors from which loading goes to the index worker: fewer take a few milliseconds here. */
export const WORKER_MIN_VECTORS = 2_000;
/** Reciprocal rank fusion's constant: a hit's weight is 1 / (60 + its rank) in each list. */
const RRF_K = 60;
const CANDIDATES = 20;
/** Why a search matched by words only when Gemini failed: the embedding of the query, or of the items, failed. */
const UNREACHABLE = 'Semantic search could not reach Gemini: matched by words only.';
/** What a corpus holds, in the person's words: the newest of them may not be embedded yet. */
const NOUNS: Record<Corpus<unknown>['kind'], string> = { memory: 'memories', task: 'tasks', mail: 'mails' };

/** What can be searched by meaning: the person's memories, their tasks, their recent mail (opt-in). */
export interface Corpus<T> {
  /** The `kind` of its rows in the vectors table. */
  kind: 'memory' | 'task' | 'mail';
  /** Every item's id and text, a page at a time (`cursor` from the previous page). */
  page(cursor: string | undefined): { items: { id: string; text: string }[]; next: string | null };
  /** Full-text matches, best first. */
  fullText(query: string, limit: number): T[];
  get(id: string): T | null;
  idOf(item: T): string;
}

export interface SemanticMatch<T> {
  item: T;
  score: number;
}

export interface SemanticSearch<T> {
  matches: SemanticMatch<T>[];
  /**
   * `hybrid`: full-text and vectors fused (a `note` then says that the newest items are not embedded yet);
   * `fts`: full-text alone, and `note` says why.
   */
  mode: 'hybrid' | 'fts';
  note: string | null;
}

type Stale = { id: string; text: string; hash: string };

// One-shot: a Hash object per text leaves a weak handle that every young-generation GC must visit; with tens of
// thousands of texts per sync those visits were two thirds of each GC pause, in the middle of the sync's slices.
const hashOf = (text: string): string => hash('sha256', text, 'hex').slice(0, 16);

/** Items found by meaning as well as by words: vectors in context.db, searched in memory, fused with full text. */
export class SemanticIndex<T> {
  readonly index: VectorIndex;
  private readonly selectChunk;
  private readonly upsert;
  private readonly remove;
  private readonly countStored;
  private readonly hashes = new Map<string, string>();
  private isLoaded = false;
  /** Counts `clear` calls: a sync that began before one writes nothing after it, so what was cleared stays so. */
  private clears = 0;
  private loading: Promise<number[]> | null = null;
  /** The last sync could not embed (Gemini down, the key refused): until one does, that is why words alone match. */
  private hasSyncFailed = false;
  /**
   * Counts `changed` calls; `indexedChanges` is the count the last complete sync began with. Changes an earlier
   * session left unembedded (its sync failed, or it stopped first) count as one, read from `unindexed_changes`.
   */
  private changes = 0;
  private indexedChanges = 0;
  /** Whether `unindexed_changes` holds this kind's row: written at the first change after a complete sync. */
  private isMarked: boolean;
  private readonly mark;
  private readonly unmark;

  constructor(
    private readonly db: Db,
    private readonly corpus: Corpus<T>,
    private readonly embedder: () => Embedder | null,
    dims: number,
    /** Where the stored vectors are read and coded; without one (or once it fails), in time slices here. */
    private readonly worker: IndexWorker | null = null,
  ) {
    this.index = new VectorIndex(dims);
    this.selectChunk = db.prepare<
      [string, string, number],
      { ref: string; text_hash: string; vector: Buffer }
    >('SELECT ref, text_hash, vector FROM vectors WHERE kind = ? AND ref > ? ORDER BY ref LIMIT ?');
    this.upsert = db.prepare(
      'INSERT OR REPLACE INTO vectors (kind, ref, model, text_hash, vector) VALUES (?, ?, ?, ?, ?)',
    );
    this.remove = db.prepare('DELETE FROM vectors WHERE kind = ? AND ref = ?');
    this.countStored = db.prepare<[string], { n: number }>(
      'SELECT count(*) AS n FROM vectors WHERE kind = ?',
    );
    this.mark = db.prepare('INSERT OR IGNORE INTO unindexed_changes (kind) VALUES (?)');
    this.unmark = db.prepare('DELETE FROM unindexed_changes WHERE kind = ?');
    this.isMarked =
      db
        .prepare<[string], { kind: string }>('SELECT kind FROM unindexed_changes WHERE kind = ?')
        .get(corpus.kind) !== undefined;
    if (this.isMarked) this.changes = 1;
  }

  /**
   * Reads the stored vectors into the search index: in the index worker when there is one, else in time slices
   * here. Answers how long each slice of main-thread work took (ms; none when the worker did it). A load
   * already under way is joined, not doubled.
   */
  load(signal?: AbortSignal): Promise<number[]> {
    this.loading ??= this.loadOnce(signal).finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async loadOnce(signal?: AbortSignal): Promise<number[]> {
    // A few vectors load in a slice or two here; a worker pays off (and is started) only for many.
    const stored = this.countStored.get(this.corpus.kind)?.n ?? 0;
    if (this.worker?.isAvailable && this.index.size === 0 && stored >= WORKER_MIN_VECTORS) {
      try {
        await this.loadInWorker(this.worker);
        this.isLoaded = !signal?.aborted;
        return [];
      } catch (error) {
        if (!(error instanceof WorkerUnavailable)) throw error;
        // The worker stopped: what it had sent is dropped, and the vectors are read here instead.
        this.hashes.clear();
      }
    }
    return this.loadInSlices(signal);
  }

  /** The worker codes the vectors; here only the maps are filled, a chunk of refs per message, then swapped in. */
  private async loadInWorker(worker: IndexWorker): Promise<void> {
    const refs: string[] = [];
    const slotOf = new Map<string, number>();
    const codes = await worker.loadVectors(this.corpus.kind, this.index.dims, (chunk, hashes) => {
      chunk.forEach((ref, position) => {
        slotOf.set(ref, refs.length);
        refs.push(ref);
        this.hashes.set(ref, hashes[position] ?? '');
      });
    });
    if (codes.slots !== refs.length || this.index.size > 0)
      throw new WorkerUnavailable('the loaded vectors cannot be taken over as they are');
    this.index.adopt(refs, slotOf, codes.bits, codes.bytes);
  }

  private async loadInSlices(signal?: AbortSignal): Promise<number[]> {
    let after = '';
    let isReserved = false;
    const slices = await inSlices(() => {
      if (!isReserved) {
        this.index.reserve(this.index.size + (this.countStored.get(this.corpus.kind)?.n ?? 0));
        isReserved = true;
        return true;
      }
      const rows = this.selectChunk.all(this.corpus.kind, after, LOAD_CHUNK);
      for (const row of rows) {
        const vector = fromBlob(row.vector);
        if (vector.length !== this.index.dims) continue;
        this.index.set(row.ref, vector);
        this.hashes.set(row.ref, row.text_hash);
      }
      const last = rows.at(-1);
      if (!last || rows.length < LOAD_CHUNK) return false;
      after = last.ref;
      return true;
    }, signal);
    this.isLoaded = !signal?.aborted;
    return slices;
  }

  /**
   * Embeds items that have no vector or whose text changed, and forgets the vectors of deleted ones. Answers how
   * many it embedded and how long each slice of its own work took (ms; the wait for Gemini is not a slice).
   * The corpus is read a batch of stale items at a time, embedded and written before reading on: nothing of a
   * large corpus is held on the main thread's heap but the ids seen.
   */
  async sync(signal: AbortSignal): Promise<{ embedded: number; steps: number[] }> {
    const embedder = this.embedder();
    if (!embedder) return { embedded: 0, steps: [] };
    if (!this.isLoaded) await this.load(signal);
    const clears = this.clears;
    const changes = this.changes;
    // The person cleared the index (or turned recent mail off) while the sync waited: it stops, writing nothing.
    const isStopped = (): boolean => signal.aborted || this.clears !== clears;
    const present = new Set<string>();
    const steps: number[] = [];
    const pending: Stale[] = [];
    let cursor: string | undefined;
    let isRead = false;
    let embedded = 0;
    while (!isStopped() && (!isRead || pending.length > 0)) {
      if (!isRead && pending.length < EMBED_BATCH) {
        steps.push(
          ...(await inSlices(() => {
            const page = this.corpus.page(cursor);
            for (const item of page.items) {
              present.add(item.id);
              const hash = hashOf(item.text);
              if (this.hashes.get(item.id) !== hash) pending.push({ ...item, hash });
            }
            cursor = page.next ?? undefined;
            isRead = cursor === undefined;
            return !isRead && pending.length < EMBED_BATCH;
          }, signal)),
        );
      }
      const batch = pending.splice(0, EMBED_BATCH);
      if (batch.length === 0 || isStopped()) continue;
      const vectors = await this.embedBatch(embedder, batch, signal);
      // An embedder that answers at once (a cache, a local model) gives the loop no turn: each batch's write
      // takes its own, so the main thread is never held for several batches in a row.
      await yieldToLoop();
      if (isStopped()) break;
      const began = performance.now();
      this.db.transaction(() => {
        batch.forEach((item, position) => {
          const vector = vectors[position];
          if (!vector) return;
          this.upsert.run(this.corpus.kind, item.id, embedder.model, item.hash, toBlob(vector));
          this.index.set(item.id, vector);
          this.hashes.set(item.id, item.hash);
        });
      })();
      steps.push(performance.now() - began);
      embedded += batch.length;
    }
    if (isStopped() || !isRead) return { embedded, steps };
    const gone = [...this.hashes.keys()].filter((ref) => !present.has(ref));
    steps.push(
      ...(await inSlices(() => {
        const ref = gone.pop();
        if (ref !== undefined) this.forget(ref);
        return gone.length > 0;
      }, signal)),
    );
    if (!isStopped()) this.indexedChanges = changes;
    if (!isStopped() && this.changes === changes && this.isMarked) {
      this.unmark.run(this.corpus.kind);
      this.isMarked = false;
    }
    return { embedded, steps };
  }

  private async embedBatch(embedder: Embedder, batch: Stale[], signal: AbortSignal): Promise<Float32Array[]> {
    try {
      const vectors = await embedder.embed(
        batch.map((item) => item.text),
        'document',
        signal,
      );
      this.hasSyncFailed = false;
      return vectors;
    } catch (error) {
      if (!signal.aborted) this.hasSyncFailed = true;
      throw error;
    }
  }

  /**
   * Full-text hits and vector hits fused by reciprocal rank. With no key, no network or no vectors yet, the
   * full-text hits alone come back, and the answer says so.
   */
  async search(query: string, limit: number, signal?: AbortSignal): Promise<SemanticSearch<T>> {
    const fts = this.corpus.fullText(query, CANDIDATES);
    const embedder = this.embedder();
    let vectorRefs: string[] = [];
    let isByMeaning = false;
    let note = this.whyWordsOnly();
    if (embedder && !note) {
      try {
        const [vector] = await embedder.embed([query], 'query', signal);
        vectorRefs = vector ? this.index.search(vector, CANDIDATES).map((hit) => hit.ref) : [];
        isByMeaning = true;
        // Changed since the last complete sync: those items are found by their words until they are embedded.
        if (this.changes !== this.indexedChanges)
          note = `The newest ${NOUNS[this.corpus.kind]} are not indexed by meaning yet: they are matched by words only.`;
      } catch {
        note = UNREACHABLE;
      }
    }
    const byId = new Map<string, T>(fts.map((item) => [this.corpus.idOf(item), item]));
    const fused = fuse([...byId.keys()], vectorRefs);
    const matches = fused.flatMap(({ ref, score }) => {
      const item = byId.get(ref) ?? this.corpus.get(ref);
      return item ? [{ item, score }] : [];
    });
    return { matches: matches.slice(0, limit), mode: isByMeaning ? 'hybrid' : 'fts', note };
  }

  /** Why a search now would match by words only (no key, no vectors yet), or null when it can search by meaning. */
  whyWordsOnly(): string | null {
    if (!this.embedder()) return 'Semantic search is off (no Gemini key): matched by words only.';
    // Not "still being built" when building failed: that would wait forever on a key Gemini refuses.
    if (this.index.size === 0)
      return this.hasSyncFailed
        ? UNREACHABLE
        : 'The semantic index is still being built: matched by words only.';
    return null;
  }

  /**
   * An item was added, edited or deleted: until a sync that begins after this one ends, a search says the newest
   * items are matched by words only.
   */
  changed(): void {
    this.changes += 1;
    if (this.isMarked) return;
    this.mark.run(this.corpus.kind);
    this.isMarked = true;
  }

  count(): number {
    return this.index.size;
  }

  clear(): void {
    this.clears += 1;
    this.db.prepare('DELETE FROM vectors WHERE kind = ?').run(this.corpus.kind);
    this.index.clear();
    this.hashes.clear();
  }

  private forget(ref: string): void {
    this.remove.run(this.corpus.kind, ref);
    this.index.delete(ref);
    this.hashes.delete(ref);
  }
}

/** Reciprocal rank fusion of ranked lists: what ranks well in either, or in both, comes first. */
export function fuse(...lists: readonly (readonly string[])[]): { ref: string; score: number }[] {
  const scores = new Map<string, number>();
  for (const list of lists)
    list.forEach((ref, rank) => scores.set(ref, (scores.get(ref) ?? 0) + 1 / (RRF_K + rank + 1)));
  return [...scores.entries()].map(([ref, score]) => ({ ref, score })).sort((a, b) => b.score - a.score);
}
