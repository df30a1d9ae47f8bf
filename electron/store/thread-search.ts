import type { ThreadSearchHit } from '../../shared/contract';
import { TASKS_THREAD_ID } from '../../shared/tasks-thread';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';
import { THREAD_COLUMNS, toThread, type ThreadRow } from './threads-repo';

/** Marks FTS5 puts around a matched word in a snippet: control characters no message text holds. */
const OPEN = '\u0002';
const CLOSE = '\u0003';
/** Message matches read before they are grouped by conversation: enough for a page of conversations. */
const MESSAGE_HITS = 200;

/**
 * What a person typed, as an FTS5 query that cannot fail to parse: every word must appear, each as a prefix
 * ("lisb" finds Lisbon), quoted so FTS5's own syntax (AND, quotes, brackets) is only ever words.
 */
export function toPrefixQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const unique = [...new Set(words)].slice(0, 16);
  return unique.length === 0 ? null : unique.map((word) => `"${word}"*`).join(' ');
}

/** A snippet with its marks taken out, and where each marked word sits in what is left. */
export function unmark(marked: string): { text: string; highlights: [number, number][] } {
  let text = '';
  const highlights: [number, number][] = [];
  let start = -1;
  for (const char of marked) {
    if (char === OPEN) start = text.length;
    else if (char === CLOSE) {
      if (start >= 0) highlights.push([start, text.length]);
      start = -1;
    } else text += char;
  }
  return { text, highlights };
}

/** The conversation list's search: by title, and by the words of every message (migration 14's index). */
export class ThreadSearch {
  private readonly byMessage;
  private readonly byId;
  private readonly db: Db;
  /** One statement per number of words, made when first needed. */
  private readonly titleMatches = new Map<number, Statement<(string | number)[], ThreadRow>>();

  /** `readRuns`: brings the runs table up to date before a read of the runs' status (see `RunsRepo`). */
  constructor(
    db: Db,
    private readonly readRuns: () => void = () => {},
  ) {
    this.byMessage = db.prepare<[string, number], { thread_id: string; id: string; marked: string }>(
      `SELECT m.thread_id, m.id, snippet(messages_fts, 0, '${OPEN}', '${CLOSE}', '…', 16) AS marked
       FROM messages_fts JOIN messages m ON m.seq = messages_fts.rowid
       WHERE messages_fts MATCH ? AND m.thread_id <> '${TASKS_THREAD_ID}'
       ORDER BY bm25(messages_fts) LIMIT ?`,
    );
    this.byId = db.prepare<[string], ThreadRow>(`SELECT ${THREAD_COLUMNS} FROM threads t WHERE t.id = ?`);
    this.db = db;
  }

  /** Conversations whose title holds the words, then those whose messages do (best match first), one hit each. */
  search(text: string, limit: number): ThreadSearchHit[] {
    this.readRuns();
    const query = toPrefixQuery(text);
    if (!query) return [];
    const hits = new Map<string, ThreadSearchHit>();
    for (const row of this.byTitleWords(text, limit))
      hits.set(row.id, { thread: toThread(row), messageId: null, snippet: '', highlights: [] });
    for (const row of this.byMessage.all(query, MESSAGE_HITS)) {
      if (hits.size >= limit) break;
      if (hits.has(row.thread_id)) continue;
      const thread = this.byId.get(row.thread_id);
      if (!thread) continue;
      hits.set(row.thread_id, { thread: toThread(thread), messageId: row.id, ...snippetOf(row.marked) });
    }
    return [...hits.values()].slice(0, limit);
  }

  /** Conversations whose title holds every word, in any order and case, the newest first. */
  private byTitleWords(text: string, limit: number): ThreadRow[] {
    const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 16);
    if (words.length === 0) return [];
    let statement = this.titleMatches.get(words.length);
    if (!statement) {
      const each = words.map(() => 'instr(lower(t.title), ?) > 0').join(' AND ');
      statement = this.db.prepare<(string | number)[], ThreadRow>(
        `SELECT ${THREAD_COLUMNS} FROM threads t WHERE t.id <> '${TASKS_THREAD_ID}' AND ${each}
         ORDER BY t.updated_at DESC LIMIT ?`,
      );
    }
    this.titleMatches.set(words.length, statement);
    return statement.all(...words, limit);
  }
}

function snippetOf(marked: string): { snippet: string; highlights: [number, number][] } {
  const { text, highlights } = unmark(marked);
  return { snippet: text, highlights };
}
