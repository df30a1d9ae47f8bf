import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TableCounts } from './data-counts';
import { endWorker } from './end-worker';
import type { Store } from './store';
import { parseReply, type KeeperRequest } from './wal-keeper-protocol';

/** The worker's file in the built app (its own bundle entry, beside main.js) and in the sources. */
const BUILT = new URL('./deputy-wal-keeper.js', import.meta.url);
const SOURCE = new URL('./wal-keeper.ts', import.meta.url);
/** How often the keeper folds the log in. */
const EVERY_MS = 2_000;
/**
 * With the keeper running, the main connection still folds the log in (SQLite's own checkpoint after a commit)
 * once it passes this many frames, 8 MiB at 4 KiB pages: when more than that is written between two of the
 * keeper's folds, as when steps commit back to back.
 *
 * Why: SQLite starts the log over from its first frame only when a write begins with every frame already in the
 * database. With steps committing back to back, a checkpoint on another thread never catches up at that moment,
 * so the log only grew (330 MB over 3,000 steps of the peer bench), and a commit that appends to a growing file
 * costs about 95 µs where one that writes over the log's first frames costs 55 µs (25-page commits, measured).
 * Nudging the keeper every few commits did not help: the steps that ran beside its checkpoints were slower
 * (p95 0.67–0.75 ms with a nudge every 16 or 64 commits, 0.53–0.70 ms without; six runs of 2,000 steps each).
 * The main connection folds in between two of its own commits, so the write after it usually starts the log
 * over; at 8 MiB that is one step in about 80. Not always: while the keeper is copying, the fold is skipped and
 * tried again at the next commit, and while the keeper reads (a count for Settings → Data), the fold stops at
 * what it reads. The log then grows a little more before it starts over.
 */
export const FOLD_ON_MAIN_AFTER_FRAMES = 2_048;
/** What SQLite does by itself when nobody else checkpoints: fold the log in once it passes this many pages. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1_000;
/**
 * How long a count may take on the thread before the caller counts on the main connection instead: counting a
 * year's journal takes a fraction of a second; a thread that has not answered by then is stuck on something.
 */
const COUNT_WITHIN_MS = 10_000;

/**
 * Moves deputy.db's WAL checkpoints off the main thread (see wal-keeper.ts), except past a long log. Until the
 * worker has loaded, and again if it stops, the main connection checkpoints by itself as SQLite does by default:
 * the log never grows without end.
 */
export class WalKeeper {
  private readonly worker: Worker | null;
  private readonly isLoaded: Promise<void>;
  private readonly hasExited: Promise<void>;
  private isClosed = false;
  private isRunning = false;
  /** Count requests waiting for the thread's answer, by id: each is answered once, with null if it stops. */
  private readonly waiting = new Map<number, (counts: TableCounts | null) => void>();
  private nextId = 0;

  constructor(
    private readonly store: Store,
    private readonly logError: (message: string, error: unknown) => void,
    entry: URL = existsSync(fileURLToPath(BUILT)) ? BUILT : SOURCE,
    private readonly countWithinMs = COUNT_WITHIN_MS,
    everyMs = EVERY_MS,
  ) {
    let worker: Worker | null = null;
    try {
      worker = new Worker(entry, { workerData: { file: store.db.name, everyMs } });
    } catch (error) {
      logError('the WAL keeper did not start; the database checkpoints on the main thread', error);
    }
    this.worker = worker;
    if (!worker) {
      this.isLoaded = Promise.resolve();
      this.hasExited = Promise.resolve();
      return;
    }
    this.hasExited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.unref();
    this.isLoaded = new Promise<void>((resolve) => {
      worker.once('message', () => {
        this.isRunning = true;
        if (!this.isClosed) this.handOver(true);
        resolve();
      });
      worker.once('exit', () => resolve());
    });
    worker.on('message', (message: unknown) => this.answer(message));
    worker.on('error', (error) =>
      logError('the WAL keeper stopped; the database checkpoints on the main thread', error),
    );
    worker.on('exit', () => {
      this.isRunning = false;
      for (const id of [...this.waiting.keys()]) this.settle(id, null);
      if (!this.isClosed) this.handOver(false);
    });
  }

  /** For tests only: the keeper's thread, so a test can stop it as a crash would. Null when it could not start. */
  internalsForTests(): { thread: Worker | null } {
    return { thread: this.worker };
  }

  /**
   * Every table's rows for Settings → Data, counted on the thread's own connection (what is committed), so the
   * main process is not held while a large store is read. Null when the thread is not running or cannot answer:
   * the caller counts on the main connection instead.
   */
  counts(): Promise<TableCounts | null> {
    const worker = this.worker;
    if (!worker || !this.isRunning || this.isClosed) return Promise.resolve(null);
    const id = (this.nextId += 1);
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.settle(id, null), this.countWithinMs);
      timer.unref();
      this.waiting.set(id, (counts) => {
        clearTimeout(timer);
        resolve(counts);
      });
      this.post({ type: 'counts', id });
    });
  }

  private answer(message: unknown): void {
    const reply = parseReply(message);
    if (reply?.type === 'counts') this.settle(reply.id, reply.counts);
    if (reply?.type === 'countsFailed') {
      this.logError(
        'the WAL keeper could not count the tables; they are counted on the main thread',
        reply.message,
      );
      this.settle(reply.id, null);
    }
  }

  /** Answers a waiting count request once; a late or repeated reply finds nothing to answer. */
  private settle(id: number, counts: TableCounts | null): void {
    const resolve = this.waiting.get(id);
    this.waiting.delete(id);
    resolve?.(counts);
  }

  private post(request: KeeperRequest): void {
    this.worker?.postMessage(request);
  }

  /** Ends the worker once it has loaded (see wal-keeper.ts): it closes its connection and leaves by itself. */
  async close(): Promise<void> {
    this.isClosed = true;
    const worker = this.worker;
    if (!worker) return;
    await endWorker(worker, {
      isLoaded: this.isLoaded,
      hasExited: this.hasExited,
      closeMessage: { type: 'close' } satisfies KeeperRequest,
    });
  }

  /** With the worker going, the main connection leaves checkpoints to it; without, it takes them back. */
  private handOver(toWorker: boolean): void {
    const { db, writes } = this.store;
    if (!db.open) return;
    db.pragma(`wal_autocheckpoint = ${toWorker ? FOLD_ON_MAIN_AFTER_FRAMES : SQLITE_DEFAULT_AUTOCHECKPOINT}`);
    writes.isLogKeptElsewhere = toWorker;
  }
}
