import type { Memory, MemoryOrigin } from '../../shared/contract';
import { redactSecrets } from '../vault/redactor';
import { ChangeListeners } from '../../shared/change-listeners';
import type { Db } from './database';

interface MemoryRow {
  seq: number;
  id: string;
  text: string;
  origin: MemoryOrigin;
  source: string | null;
  confirmed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A memory to keep, with where its words came from and whether the person confirmed it. */
export interface NewMemory {
  id: string;
  text: string;
  sourceRunId?: string | null;
  origin: MemoryOrigin;
  source?: string | null;
  isConfirmed: boolean;
}

export interface MemoryHit extends Memory {
  /** The matching words in context, with the hits marked by «». */
  snippet: string;
  /** bm25: lower is a better match. */
  rank: number;
}

const toMemory = (row: MemoryRow): Memory => ({
  id: row.id,
  text: row.text,
  origin: row.origin,
  source: row.source,
  confirmedAt: row.confirmed_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * Turns what a person or a model typed into an FTS5 query that cannot fail to parse: each word becomes a
 * quoted term and the terms are OR-ed, so bm25 ranks memories that share more (and rarer) words higher.
 */
export function toMatchQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const unique = [...new Set(words.filter((word) => word.length > 1))].slice(0, 32);
  return unique.length === 0 ? null : unique.map((word) => `"${word}"`).join(' OR ');
}

/** What the assistant remembers about the user, searchable with SQLite FTS5. */
export class MemoriesRepo {
  private readonly insert;
  private readonly selectOne;
  private readonly updateText;
  private readonly remove;
  private readonly selectPage;
  private readonly selectMatches;
  private readonly listeners = new ChangeListeners();

  constructor(db: Db) {
    this.insert = db.prepare(
      `INSERT INTO memories (id, text, source_run_id, origin, source, confirmed_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectOne = db.prepare<[string], MemoryRow>('SELECT * FROM memories WHERE id = ?');
    // The person wrote the new text: from now on it is confirmed, whatever its words came from first.
    this.updateText = db.prepare(
      'UPDATE memories SET text = ?, updated_at = ?, confirmed_at = ? WHERE id = ?',
    );
    this.remove = db.prepare('DELETE FROM memories WHERE id = ?');
    this.selectPage = db.prepare<[number, number], MemoryRow>(
      'SELECT * FROM memories WHERE seq < ? ORDER BY seq DESC LIMIT ?',
    );
    this.selectMatches = db.prepare<[string, number], MemoryRow & { snippet: string; rank: number }>(
      `SELECT m.*, snippet(memories_fts, 0, '«', '»', '…', 12) AS snippet, bm25(memories_fts) AS rank
       FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid
       WHERE memories_fts MATCH ? ORDER BY rank LIMIT ?`,
    );
  }

  add(memory: NewMemory, now: string): Memory {
    this.insert.run(
      memory.id,
      redactSecrets(memory.text),
      memory.sourceRunId ?? null,
      memory.origin,
      memory.source ?? null,
      memory.isConfirmed ? now : null,
      now,
      now,
    );
    this.listeners.notify();
    return this.get(memory.id) as Memory;
  }

  get(id: string): Memory | null {
    const row = this.selectOne.get(id);
    return row ? toMemory(row) : null;
  }

  update(id: string, text: string, now: string): Memory | null {
    if (this.updateText.run(redactSecrets(text), now, now, id).changes === 0) return null;
    this.listeners.notify();
    return this.get(id);
  }

  delete(id: string): boolean {
    if (this.remove.run(id).changes !== 1) return false;
    this.listeners.notify();
    return true;
  }

  /**
   * Calls `listener` after each memory added, edited or deleted (the context index embeds it soon). Answers a
   * function that stops the calls.
   */
  onChange(listener: () => void): () => void {
    return this.listeners.add(listener);
  }

  /** Newest first, a page at a time; the cursor is the last row's position. */
  page(limit: number, cursor?: string): { memories: Memory[]; nextCursor: string | null } {
    const before = cursor ? Number.parseInt(cursor, 10) : Number.MAX_SAFE_INTEGER;
    const rows = this.selectPage.all(Number.isFinite(before) ? before : Number.MAX_SAFE_INTEGER, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      memories: page.map(toMemory),
      nextCursor: rows.length > limit && last ? String(last.seq) : null,
    };
  }

  /** Best matches first (bm25), each with a snippet. Words no memory contains simply find nothing. */
  search(text: string, limit: number): MemoryHit[] {
    const query = toMatchQuery(text);
    if (!query) return [];
    return this.selectMatches
      .all(query, limit)
      .map((row) => ({ ...toMemory(row), snippet: row.snippet, rank: row.rank }));
  }
}
