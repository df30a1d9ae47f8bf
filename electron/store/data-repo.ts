import { statSync } from 'node:fs';
import type { DataCounts } from '../../shared/contract';
import { tableCounter } from './data-counts';
import { TEMP_STORE_WHILE_RUNNING, type Db } from './database';

/** The database as a whole: how big it is, what it holds, deleting whole conversations, compacting. */
export class DataRepo {
  private readonly deleteThreadStmt;
  private readonly deleteKeptWordsStmt;
  private readonly selectRunIds;
  private readonly selectOlder;
  private readonly countTables;

  constructor(private readonly db: Db) {
    // Runs, messages, actions, approvals, events (the journal) and checkpoints go with the thread (ON DELETE CASCADE);
    // model usage (the hour's budget) and the audit trail are kept on purpose.
    this.deleteThreadStmt = db.prepare('DELETE FROM threads WHERE id = ?');
    // The policy log keeps decisions, not words, with one exception: an MCP answer cut to size for the model
    // is kept whole there. It is the conversation's own content, so it goes with the conversation.
    this.deleteKeptWordsStmt = db.prepare(
      "DELETE FROM audit WHERE event = 'mcp_full_result' AND run_id IN (SELECT id FROM runs WHERE thread_id = ?)",
    );
    this.selectRunIds = db.prepare<[string], string>('SELECT id FROM runs WHERE thread_id = ?').pluck();
    this.selectOlder = db
      .prepare<[string], string>('SELECT id FROM threads WHERE updated_at < ? ORDER BY updated_at')
      .pluck();
    this.countTables = tableCounter(db);
  }

  /** Deletes a thread and everything of it; false when there was no such thread. */
  deleteThread(threadId: string): boolean {
    this.deleteKeptWordsStmt.run(threadId);
    return this.deleteThreadStmt.run(threadId).changes > 0;
  }

  runIdsOf(threadId: string): string[] {
    return this.selectRunIds.all(threadId);
  }

  /** Threads whose last activity (a message, a run) is older than `before`, oldest first. */
  threadsLastActiveBefore(before: string): string[] {
    return this.selectOlder.all(before);
  }

  /** Every table's rows, counted here on the main connection (the WAL keeper counts off the main thread). */
  counts(): DataCounts {
    return this.countTables();
  }

  /** The database's pages and its write-ahead log on disk, in bytes. */
  sizes(): { databaseBytes: number; walBytes: number } {
    const pages = this.db.pragma('page_count', { simple: true }) as number;
    const pageSize = this.db.pragma('page_size', { simple: true }) as number;
    return { databaseBytes: pages * pageSize, walBytes: fileSize(`${this.db.name}-wal`) };
  }

  /**
   * Gives the space of deleted rows back to the disk: VACUUM rewrites the file without free pages, and the
   * checkpoint folds the write-ahead log in and truncates it. Neither may run inside a transaction.
   */
  compact(): void {
    // VACUUM builds the new file as a temporary database: on disk, not in memory, where a large store would
    // take as much memory as its own size. There are no temporary tables to lose in switching.
    this.db.pragma('temp_store = FILE');
    try {
      this.db.exec('VACUUM');
    } finally {
      this.db.pragma(`temp_store = ${TEMP_STORE_WHILE_RUNNING}`);
    }
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    // No WAL file (an in-memory database, or none written yet) takes no space.
    return 0;
  }
}
