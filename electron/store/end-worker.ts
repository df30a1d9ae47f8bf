import type { Worker } from 'node:worker_threads';

/** How long ending waits for a starting worker to load, and then for it to leave by itself. */
const WAIT_MS = 5_000;
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * Ends a worker thread that holds a SQLite connection: once it has loaded (ending a thread while it loads
 * SQLite's native module aborts the whole process), it is sent `closeMessage`, closes its connection and leaves
 * by itself; one that does neither in time is terminated. Until it has left, it keeps the process alive.
 */
export async function endWorker(
  worker: Worker,
  {
    isLoaded,
    hasExited,
    closeMessage,
  }: { isLoaded: Promise<void>; hasExited: Promise<void>; closeMessage: unknown },
): Promise<void> {
  worker.ref();
  await Promise.race([isLoaded, hasExited, delay(WAIT_MS)]);
  worker.postMessage(closeMessage);
  await Promise.race([hasExited, delay(WAIT_MS)]);
  await worker.terminate();
}
