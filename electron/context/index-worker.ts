/**
 * The context index's worker thread: the CPU-heavy part of building the index runs here, on a connection of
 * its own to context.db, so the main process (windows, IPC, the HTTP API) never waits for it.
 * - `load`: reads one kind's stored vectors and computes their search codes (sign bits, int8 bytes); the refs
 *   and text hashes go back in small chunks, the codes as two transferred buffers (no copy).
 * - `merge`: writes what a refresh found about people into the contacts table, in small transactions.
 * - `clear-contacts`: empties that table again, after the merges sent before it (the index was cleared).
 * - and, every second, the WAL checkpoint the main thread's connection leaves to it.
 *
 * This file is loaded by Node itself (type stripping) when Deputy runs from its sources, and bundled as its
 * own entry for the app: it imports only erasable TypeScript, with explicit extensions.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { ContactsIndex, type Contact } from './contacts-index.ts';
import { fromBlob, norm, signBits, toInt8 } from './vector-codes.ts';
import type { WorkerReply, WorkerRequest } from './index-worker-protocol.ts';

/** Refs and hashes per message: each is cheap for the main thread to receive. */
const REFS_PER_MESSAGE = 2_000;
/** Contacts per transaction, so the main thread's own writes to context.db never wait long for the lock. */
const CONTACTS_PER_TRANSACTION = 50;

const port = parentPort;
if (!port) throw new Error('index-worker.ts runs only as a worker thread');
const { file } = workerData as { file: string };
const db = new Database(file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');

// The main thread's connection leaves checkpoints to this one (wal_autocheckpoint = 0 there): copying the WAL
// into the database file is the one write that can take several milliseconds, and here nobody waits for it.
const CHECKPOINT_EVERY_MS = 1_000;
setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or closing: the next one catches up.
  }
}, CHECKPOINT_EVERY_MS).unref();

const send = (reply: WorkerReply, transfer: ArrayBuffer[] = []): void => port.postMessage(reply, transfer);

function load(id: number, kind: string, dims: number): void {
  const words = dims / 32;
  const count = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM vectors WHERE kind = ?');
  const rows = db.prepare<[string], { ref: string; text_hash: string; vector: Buffer }>(
    'SELECT ref, text_hash, vector FROM vectors WHERE kind = ? ORDER BY ref',
  );
  // One read transaction: the count and the rows are the same snapshot while the main thread writes.
  db.transaction(() => {
    const capacity = count.get(kind)?.n ?? 0;
    const bits = new Uint32Array(capacity * words);
    const bytes = new Int8Array(capacity * dims);
    let refs: string[] = [];
    let hashes: string[] = [];
    let slots = 0;
    for (const row of rows.iterate(kind)) {
      const vector = fromBlob(row.vector);
      if (vector.length !== dims || slots >= capacity) continue;
      signBits(vector, words, bits, slots * words);
      toInt8(vector, dims, bytes, slots * dims, 1 / norm(vector));
      refs.push(row.ref);
      hashes.push(row.text_hash);
      slots += 1;
      if (refs.length === REFS_PER_MESSAGE) {
        send({ id, type: 'refs', refs, hashes });
        refs = [];
        hashes = [];
      }
    }
    if (refs.length > 0) send({ id, type: 'refs', refs, hashes });
    const usedBits = bits.slice(0, slots * words);
    const usedBytes = bytes.slice(0, slots * dims);
    send({ id, type: 'loaded', slots, bits: usedBits, bytes: usedBytes }, [
      usedBits.buffer,
      usedBytes.buffer,
    ]);
  })();
}

function merge(id: number, contacts: Contact[], maxContacts: number): void {
  // A fresh index per merge: it counts the table as it is now (the main thread may have cleared it).
  const index = new ContactsIndex(db, maxContacts);
  for (let start = 0; start < contacts.length; start += CONTACTS_PER_TRANSACTION)
    index.merge(contacts.slice(start, start + CONTACTS_PER_TRANSACTION));
  send({ id, type: 'merged', count: index.count() });
}

// The native module is loaded: from here the main thread may end this thread safely (see the client's close).
port.postMessage({ type: 'loaded-module' });

port.on('message', (request: WorkerRequest | { op: 'close' }) => {
  if (request.op === 'close') {
    db.close();
    port.close();
    return;
  }
  try {
    if (request.op === 'load') load(request.id, request.kind, request.dims);
    else if (request.op === 'merge') merge(request.id, request.contacts, request.maxContacts);
    else {
      // After every chunk sent before it: what they wrote once the main thread had cleared goes too.
      new ContactsIndex(db).clear();
      send({ id: request.id, type: 'cleared' });
    }
  } catch (error) {
    send({ id: request.id, type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
});
