import { statSync } from 'node:fs';
import type { DataCounts } from '../../shared/contract';
import { TEMP_STORE_WHILE_RUNNING, type Db } from './database';

const COUNTED = ['threads', 'messages', 'runs', 'actions', 'approvals', 'events', 'checkpoints'] as const;

/** The database as a whole: how big it is, what it holds, deleting whole conversations, compacting. */
export class DataRepo {
  private readonly deleteThreadStmt;
  private readonly deleteKeptWordsStmt;
  private readonly selectRunIds;
  private readonly selectOlder;
  private readonly countStmts;

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
    // A run's events are in the journal (migration 15) and, when written before it, in the old events table.
    const countOf = (table: (typeof COUNTED)[number]): string =>
      table === 'events'
        ? 'SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM journal)'
        : `SELECT count(*) FROM ${table}`;
    this.countStmts = COUNTED.map(
      (table) => [table, db.prepare<[], number>(countOf(table)).pluck()] as const,
    );
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

  counts(): DataCounts {
    return Object.fromEntries(this.countStmts.map(([table, stmt]) => [table, stmt.get() ?? 0])) as DataCounts;
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
