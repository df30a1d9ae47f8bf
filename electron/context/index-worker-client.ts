import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { endWorker } from '../store/end-worker';
import type { Contact } from './contacts-index';
import {
  parseReply,
  type WorkerReply,
  type WorkerRequest,
  type WorkerRequestBody,
} from './index-worker-protocol';

/** The worker's file in the built app (its own bundle entry, beside main.js) and in the sources. */
const BUILT = new URL('./context-index-worker.js', import.meta.url);
const SOURCE = new URL('./index-worker.ts', import.meta.url);
/** Contacts per message to the worker: each is copied on the main thread in well under a millisecond. */
const MERGE_CHUNK = 1_000;
const isLoadedNotice = (message: unknown): boolean =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'loaded-module';
/** A worker that died is started again this many times; then the index is built on the main thread. */
const RESTARTS = 1;

/** The worker cannot do this (it failed to start, died too often, or Deputy is closing): build in-thread. */
export class WorkerUnavailable extends Error {}

export interface LoadedCodes {
  slots: number;
  bits: Uint32Array;
  bytes: Int8Array;
}

type Waiting = {
  onReply: (reply: WorkerReply) => void;
  fail: (error: Error) => void;
};

/**
 * The main thread's side of the index worker (index-worker.ts): requests go out, replies come back by id. A
 * worker that fails to start or dies is started again once; after that every request answers
 * WorkerUnavailable, and the callers build in time slices on the main thread as before.
 */
export class IndexWorker {
  private worker: Worker | null = null;
  /** Settles once the current worker has loaded (its first message); see close(). */
  private isLoaded: Promise<void> = Promise.resolve();
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private deaths = 0;
  private isClosed = false;
  /** Called once when requests stop going to a worker for good because it died too often (not on close). */
  onUnavailable: () => void = () => {};

  constructor(
    private readonly file: string,
    private readonly logError: (message: string, error: unknown) => void,
    private readonly entry: URL = existsSync(fileURLToPath(BUILT)) ? BUILT : SOURCE,
  ) {}

  /** Whether requests still go to a worker (false once it died too often or Deputy closed). */
  get isAvailable(): boolean {
    return !this.isClosed && this.deaths <= RESTARTS;
  }

  /** Reads one kind's vectors and their search codes; `onRefs` gets the refs and hashes in slot order, in chunks. */
  loadVectors(
    kind: string,
    dims: number,
    onRefs: (refs: string[], hashes: string[]) => void,
  ): Promise<LoadedCodes> {
    return this.request({ op: 'load', kind, dims }, (reply, done, fail) => {
      if (reply.type === 'refs') onRefs(reply.refs, reply.hashes);
      else if (reply.type === 'loaded') done({ slots: reply.slots, bits: reply.bits, bytes: reply.bytes });
      else fail(reply);
    });
  }

  /**
   * Merges contacts into context.db on the worker's connection, a message of MERGE_CHUNK at a time (copying a
   * message to the worker is the main thread's work); answers how many contacts the table then holds. Once
   * `signal` aborts (the index was cleared), no further chunk is sent: a big workspace's thousands of members
   * would otherwise be written back into the index just emptied.
   */
  async merge(contacts: Contact[], maxContacts: number, signal?: AbortSignal): Promise<number> {
    let count = 0;
    for (let start = 0; start === 0 || start < contacts.length; start += MERGE_CHUNK) {
      if (signal?.aborted) break;
      const chunk = contacts.slice(start, start + MERGE_CHUNK);
      count = await this.request<number>(
        { op: 'merge', contacts: chunk, maxContacts },
        (reply, done, fail) => {
          if (reply.type === 'merged') done(reply.count);
          else fail(reply);
        },
      );
    }
    return count;
  }

  /**
   * Empties the contacts table again in the worker's own order: a merge chunk it was handed before the index was
   * cleared (being written, or waiting its turn) lands before this and is removed by it. A worker not running
   * holds no chunk: nothing to do.
   */
  async clearContacts(): Promise<void> {
    if (!this.worker) return;
    await this.request<null>({ op: 'clear-contacts' }, (reply, done, fail) => {
      if (reply.type === 'cleared') done(null);
      else fail(reply);
    });
  }

  /**
   * Ends the worker: once it has loaded (ending a thread while it loads SQLite's native module aborts the whole
   * process), it closes its connection and leaves by itself; one that does neither in time is terminated.
   */
  async close(): Promise<void> {
    this.isClosed = true;
    this.failAll(new WorkerUnavailable('Deputy is closing.'));
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const hasExited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    await endWorker(worker, { isLoaded: this.isLoaded, hasExited, closeMessage: { id: 0, op: 'close' } });
  }

  private request<T>(
    body: WorkerRequestBody,
    handle: (reply: WorkerReply, done: (value: T) => void, fail: (reply: WorkerReply) => void) => void,
  ): Promise<T> {
    const worker = this.started();
    if (!worker) return Promise.reject(new WorkerUnavailable('The index worker is not available.'));
    const id = this.nextId++;
    // An idle worker does not keep the process alive; one with a request out does, until it answers.
    worker.ref();
    return new Promise<T>((resolve, reject) => {
      const finish = (): boolean => {
        const wasWaiting = this.waiting.delete(id);
        if (this.waiting.size === 0) worker.unref();
        return wasWaiting;
      };
      this.waiting.set(id, {
        onReply: (reply) =>
          handle(
            reply,
            (value) => finish() && resolve(value),
            (failed) => {
              finish();
              reject(
                new Error(failed.type === 'failed' ? failed.message : `unexpected ${failed.type} reply`),
              );
            },
          ),
        fail: (error) => finish() && reject(error),
      });
      const request: WorkerRequest = { ...body, id };
      worker.postMessage(request);
    });
  }

  private started(): Worker | null {
    if (this.worker) return this.worker;
    if (!this.isAvailable) return null;
    let worker: Worker;
    try {
      worker = new Worker(this.entry, { workerData: { file: this.file } });
    } catch (error) {
      this.died(error);
      return this.isAvailable ? this.started() : null;
    }
    worker.unref();
    this.isLoaded = new Promise<void>((resolve) => {
      worker.once('message', () => resolve());
      worker.once('exit', () => resolve());
    });
    worker.on('message', (message: unknown) => {
      if (isLoadedNotice(message)) return;
      const reply = parseReply(message);
      if (!reply) {
        this.logError(
          'the context index worker sent a message that was ignored',
          new Error('malformed reply'),
        );
        return;
      }
      this.waiting.get(reply.id)?.onReply(reply);
    });
    worker.on('error', (error) => {
      if (this.worker === worker) this.died(error);
    });
    worker.on('exit', (code) => {
      if (this.worker === worker && !this.isClosed) this.died(new Error(`it stopped with exit code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  /** What it was doing is lost (each caller redoes it in-thread); the next request starts a new worker. */
  private died(error: unknown): void {
    this.deaths += 1;
    const worker = this.worker;
    this.worker = null;
    void worker?.terminate();
    this.logError(
      this.isAvailable
        ? 'the context index worker stopped; it is started again'
        : 'the context index worker stopped again; the index is built on the main thread from now on',
      error,
    );
    this.failAll(new WorkerUnavailable('The index worker stopped.'));
    if (!this.isAvailable) this.onUnavailable();
  }

  private failAll(error: Error): void {
    for (const waiting of [...this.waiting.values()]) waiting.fail(error);
  }
}
