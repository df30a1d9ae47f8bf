/**
 * The WAL keeper's worker thread: it copies deputy.db's write-ahead log into the database file (a passive
 * checkpoint), on a connection of its own, every few seconds. It also counts the tables for Settings → Data
 * when asked (data-counts.ts).
 * The main thread's connection then folds the log in only when it grows long between two of these (steps
 * committing back to back; see FOLD_ON_MAIN_AFTER_FRAMES): that copy is the one write that can take
 * milliseconds, and with SQLite's own checkpoint every 1,000 pages it was the slowest step in twenty.
 *
 * This file is loaded by Node itself (type stripping) when Deputy runs from its sources, and bundled as its
 * own entry for the app: it imports only erasable TypeScript.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { tableCounter, type TableCounts } from './data-counts.ts';
import { parseRequest, type KeeperReply } from './wal-keeper-protocol.ts';

const port = parentPort;
if (!port) throw new Error('wal-keeper.ts runs only as a worker thread');
const send = (reply: KeeperReply): void => port.postMessage(reply);
const { file, everyMs } = workerData as { file: string; everyMs: number };
const db = new Database(file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
// The main thread waits for this before it stops checkpointing: a thread ended while it loads SQLite's native
// module takes the whole process with it, so closing waits for it too.
send({ type: 'loaded' });

function checkpoint(): void {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or closing: the next one catches up.
  }
}

// Settings → Data's counts, read here so a large store does not hold the main process while they are counted.
let countTables: (() => TableCounts) | null = null;
const counts = (id: number): void => {
  try {
    countTables ??= tableCounter(db);
    send({ type: 'counts', id, counts: countTables() });
  } catch (error) {
    send({ type: 'countsFailed', id, message: error instanceof Error ? error.message : String(error) });
  }
};

const timer = setInterval(checkpoint, everyMs);
port.on('message', (message: unknown) => {
  const request = parseRequest(message);
  if (request?.type === 'counts') counts(request.id);
  if (request?.type !== 'close') return;
  clearInterval(timer);
  db.close();
  port.close();
});
