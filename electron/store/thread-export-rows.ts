import { TASKS_THREAD_ID } from '../../shared/tasks-thread';
import type { Db } from './database';

/** A conversation as the export reads it: `position` is its place in the store, which only grows. */
export interface ExportThreadRow {
  position: number;
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * What the conversation shows as said, in its order: a message (`seq` its place) or the summary a run answered
 * with when it said nothing itself (`seq` null). `agent` names the delegated agent a child run's words are from.
 */
export interface ExportEntryRow {
  seq: number | null;
  runId: string | null;
  role: 'user' | 'assistant';
  text: string;
  createdAt: string;
  agent: string | null;
}

/** A message, which has its place. */
export type ExportMessageRow = ExportEntryRow & { seq: number };

interface EntrySqlRow {
  seq: number | null;
  run_id: string | null;
  role: 'user' | 'assistant';
  text: string;
  created_at: string;
  agent: string | null;
}

const toEntry = (row: EntrySqlRow): ExportEntryRow => ({
  seq: row.seq,
  runId: row.run_id,
  role: row.role,
  text: row.text,
  createdAt: row.created_at,
  agent: row.agent,
});

/** The agent of a delegated (child) run; a top-level run, an agent's too, speaks as Deputy in the conversation. */
const CHILD_AGENT = (runId: string) =>
  `(SELECT l.role FROM agent_lineage l WHERE l.run_id = ${runId} AND l.parent_run_id IS NOT NULL)`;

/**
 * The reads of "Export conversations": conversations in the order they were started (the rowid, which only grows,
 * so a cursor stays good while conversations are added or deleted), and each one's messages a bounded batch at a
 * time by their `seq`, never a whole conversation at once.
 */
export class ThreadExportRows {
  private readonly selectNextThread;
  private readonly selectThreadAt;
  private readonly selectMessageTime;
  private readonly selectMessages;
  private readonly selectAnswers;
  private readonly selectMessagePlace;
  private readonly selectLastSeq;

  /** `readRuns`: brings the runs table up to date before a read of the runs' answers (see `RunsRepo`). */
  constructor(
    db: Db,
    private readonly readRuns: () => void,
  ) {
    const columns = 'rowid AS position, id, title, created_at AS createdAt, updated_at AS updatedAt';
    this.selectNextThread = db.prepare<[number], ExportThreadRow>(
      `SELECT ${columns} FROM threads WHERE rowid > ? AND id <> '${TASKS_THREAD_ID}' ORDER BY rowid LIMIT 1`,
    );
    this.selectThreadAt = db.prepare<[number], ExportThreadRow>(
      `SELECT ${columns} FROM threads WHERE rowid = ?`,
    );
    this.selectMessageTime = db
      .prepare<[number, string], string>('SELECT created_at FROM messages WHERE seq = ? AND thread_id = ?')
      .pluck();
    this.selectMessages = db.prepare<[string, number], EntrySqlRow>(
      `SELECT m.seq, m.run_id, m.role, m.text, m.created_at, ${CHILD_AGENT('m.run_id')} AS agent
       FROM messages m WHERE m.thread_id = ? AND m.seq > ? ORDER BY m.seq`,
    );
    // As the conversation shows it (stored-thread.ts): a run that completed with no words of its own answered
    // with its summary, when it ended.
    this.selectAnswers = db.prepare<{ threadId: string; after: string; until: string | null }, EntrySqlRow>(
      `SELECT NULL AS seq, r.id AS run_id, 'assistant' AS role, r.summary AS text, r.updated_at AS created_at,
         ${CHILD_AGENT('r.id')} AS agent
       FROM runs r
       WHERE r.thread_id = @threadId AND r.status = 'completed' AND r.summary IS NOT NULL AND r.summary <> ''
         AND r.updated_at >= @after AND (@until IS NULL OR r.updated_at < @until)
         AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.run_id = r.id AND m.role = 'assistant')
       ORDER BY r.updated_at, r.rowid`,
    );
    this.selectMessagePlace = db
      .prepare<[number], number>(
        'SELECT t.rowid FROM messages m JOIN threads t ON t.id = m.thread_id WHERE m.seq = ?',
      )
      .pluck();
    this.selectLastSeq = db
      .prepare<[], number>("SELECT seq FROM sqlite_sequence WHERE name = 'messages'")
      .pluck();
  }

  /** Where the conversation holding message `seq` is (its `position`); null when there is no such message. */
  messagePlace(seq: number): number | null {
    return this.selectMessagePlace.get(seq) ?? null;
  }

  /** The highest `seq` a message was ever given (messages' seq is never given twice), 0 before the first. */
  lastMessageSeq(): number {
    return this.selectLastSeq.get() ?? 0;
  }

  /** The first conversation started after the one at `position` (0: the first of all). */
  nextThread(position: number): ExportThreadRow | null {
    return this.selectNextThread.get(position) ?? null;
  }

  threadAt(position: number): ExportThreadRow | null {
    return this.selectThreadAt.get(position) ?? null;
  }

  /** When message `seq` of the conversation was written; null when the conversation has no such message. */
  messageTime(threadId: string, seq: number): string | null {
    return this.selectMessageTime.get(seq, threadId) ?? null;
  }

  /**
   * The conversation's messages after `seq`, at most `limit`, stopping after the one that brings their text to
   * `chars` (one message always comes, however long); `isEnd` when there were no more.
   */
  messagesAfter(
    threadId: string,
    seq: number,
    limit: number,
    chars: number,
  ): { messages: ExportMessageRow[]; isEnd: boolean } {
    const messages: ExportMessageRow[] = [];
    let size = 0;
    for (const row of this.selectMessages.iterate(threadId, seq)) {
      messages.push({ ...toEntry(row), seq: row.seq ?? seq });
      size += row.text.length;
      // Stopping here leaves the statement's other rows unread: a page never holds more than it shows.
      if (messages.length >= limit || size >= chars) return { messages, isEnd: false };
    }
    return { messages, isEnd: true };
  }

  /**
   * The runs' answers given from `after` on and before `until` (no end when null), oldest first. An answer given
   * at the very time of a page's last message goes after every message of that time, so the next page has it.
   */
  answersBetween(threadId: string, after: string, until: string | null): ExportEntryRow[] {
    this.readRuns();
    return this.selectAnswers.all({ threadId, after, until }).map(toEntry);
  }
}
