import { isPlanCancelledWords } from '../../shared/rejection-words';
import { TASKS_THREAD_ID } from '../../shared/tasks-thread';
import { redactSecrets } from '../vault/redactor';
import { DeputyError, type MessageRecord, type RunStatus, type ThreadSummary } from '../../shared/contract';
import type { Db } from './database';

export interface ThreadRow {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  last_run_status: RunStatus | null;
  last_run_error_code: string | null;
  /** The last run's error words, read only when it was cancelled (to tell a cancelled plan from Stop). */
  last_run_cancelled_words: string | null;
}

interface MessageRow {
  id: string;
  thread_id: string;
  run_id: string | null;
  role: 'user' | 'assistant';
  text: string;
  created_at: string;
}

export const toThread = (row: ThreadRow): ThreadSummary => ({
  id: row.id,
  title: row.title,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  lastRunStatus: row.last_run_status,
  // A failed last run says why: the list tells a run the person stopped (`cancelled`) from one that went wrong.
  ...(row.last_run_status === 'failed' && { lastRunErrorCode: row.last_run_error_code }),
  // A cancelled run says whether its plan was cancelled by its stored words: the same code as a pressed Stop.
  ...(row.last_run_status === 'failed' &&
    isPlanCancelledWords(row.last_run_cancelled_words) && { isLastRunPlanCancelled: true }),
});

const toMessage = (row: MessageRow): MessageRecord => ({
  id: row.id,
  threadId: row.thread_id,
  runId: row.run_id,
  role: row.role,
  text: row.text,
  createdAt: row.created_at,
});

const LAST_RUN = 'FROM runs r WHERE r.thread_id = t.id ORDER BY r.created_at DESC, r.rowid DESC LIMIT 1';
export const THREAD_COLUMNS = `t.id, t.title, t.created_at, t.updated_at,
  (SELECT status ${LAST_RUN}) AS last_run_status, (SELECT error_code ${LAST_RUN}) AS last_run_error_code,
  (SELECT CASE WHEN error_code = 'cancelled' THEN error_message END ${LAST_RUN}) AS last_run_cancelled_words`;

export class ThreadsRepo {
  private readonly insertThread;
  private readonly touchThread;
  private readonly renameThread;
  private readonly selectThread;
  private readonly selectPage;
  private readonly selectPageBefore;
  private readonly insertMessage;
  private readonly selectMessages;
  private readonly selectRecentMessages;

  /** `readRuns`: brings the runs table up to date before a read of the runs' status (see `RunsRepo`). */
  constructor(
    db: Db,
    private readonly readRuns: () => void = () => {},
  ) {
    this.insertThread = db.prepare(
      'INSERT INTO threads (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)',
    );
    this.touchThread = db.prepare('UPDATE threads SET updated_at = ? WHERE id = ?');
    // A new title does not move the conversation in the list: updated_at stays.
    this.renameThread = db.prepare('UPDATE threads SET title = ? WHERE id = ?');
    this.selectThread = db.prepare<[string], ThreadRow>(
      `SELECT ${THREAD_COLUMNS} FROM threads t WHERE t.id = ?`,
    );
    this.selectPage = db.prepare<[number], ThreadRow>(
      `SELECT ${THREAD_COLUMNS} FROM threads t WHERE t.id <> '${TASKS_THREAD_ID}'
       ORDER BY t.updated_at DESC, t.id DESC LIMIT ?`,
    );
    // Keyset pagination: the cursor is "updatedAt|id" of the last row of the previous page.
    this.selectPageBefore = db.prepare<[string, string, string, number], ThreadRow>(
      `SELECT ${THREAD_COLUMNS} FROM threads t
       WHERE (t.updated_at < ? OR (t.updated_at = ? AND t.id < ?)) AND t.id <> '${TASKS_THREAD_ID}'
       ORDER BY t.updated_at DESC, t.id DESC LIMIT ?`,
    );
    this.insertMessage = db.prepare(
      'INSERT INTO messages (id, thread_id, run_id, role, text, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.selectMessages = db.prepare<[string], MessageRow>(
      'SELECT id, thread_id, run_id, role, text, created_at FROM messages WHERE thread_id = ? ORDER BY seq',
    );
    this.selectRecentMessages = db.prepare<[string, number], MessageRow>(
      `SELECT * FROM (SELECT seq, id, thread_id, run_id, role, text, created_at FROM messages
       WHERE thread_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq`,
    );
  }

  create(id: string, title: string, now: string): void {
    this.insertThread.run(id, redactSecrets(title), now, now);
  }

  touch(id: string, now: string): void {
    this.touchThread.run(now, id);
  }

  /** Answers the renamed conversation, or null when there is none with this id. */
  rename(id: string, title: string): ThreadSummary | null {
    const { changes } = this.renameThread.run(redactSecrets(title), id);
    return changes === 0 ? null : this.get(id);
  }

  get(id: string): ThreadSummary | null {
    this.readRuns();
    const row = this.selectThread.get(id);
    return row ? toThread(row) : null;
  }

  list(limit: number, before?: string): { threads: ThreadSummary[]; nextBefore: string | null } {
    const cursor = before ? parseCursor(before) : null;
    this.readRuns();
    const rows = cursor
      ? this.selectPageBefore.all(cursor.updatedAt, cursor.updatedAt, cursor.id, limit + 1)
      : this.selectPage.all(limit + 1);
    const page = rows.slice(0, limit).map(toThread);
    const last = page.at(-1);
    return { threads: page, nextBefore: rows.length > limit && last ? `${last.updatedAt}|${last.id}` : null };
  }

  addMessage(message: MessageRecord): void {
    this.insertMessage.run(
      message.id,
      message.threadId,
      message.runId,
      message.role,
      redactSecrets(message.text),
      message.createdAt,
    );
  }

  messages(threadId: string): MessageRecord[] {
    return this.selectMessages.all(threadId).map(toMessage);
  }

  recentMessages(threadId: string, limit: number): MessageRecord[] {
    return this.selectRecentMessages.all(threadId, limit).map(toMessage);
  }
}

function parseCursor(cursor: string): { updatedAt: string; id: string } {
  const at = cursor.lastIndexOf('|');
  if (at <= 0) throw new DeputyError('invalid_input', 'The page cursor is not one this list handed out.');
  return { updatedAt: cursor.slice(0, at), id: cursor.slice(at + 1) };
}
