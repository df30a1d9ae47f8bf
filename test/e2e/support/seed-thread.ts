import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Writes a conversation of `count` messages (questions and markdown answers, alternating) straight into a
 * stopped host's database, as if it had grown over months. Answers its id.
 */
export function seedLongThread(dataDir: string, count: number, title = 'A long conversation'): string {
  const db = new Database(join(dataDir, 'deputy.db'));
  try {
    const threadId = `thread-long-${count}`;
    const start = Date.parse('2026-01-01T09:00:00Z');
    const at = (i: number) => new Date(start + i * 60_000).toISOString();
    const insertMessage = db.prepare(
      'INSERT INTO messages (id, thread_id, run_id, role, text, created_at) VALUES (?, ?, NULL, ?, ?, ?)',
    );
    db.transaction(() => {
      db.prepare('INSERT INTO threads (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)').run(
        threadId,
        title,
        at(0),
        at(count),
      );
      for (let i = 0; i < count; i += 1) {
        const isUser = i % 2 === 0;
        const text = isUser
          ? `Question number ${i}: what is on my list for day ${i}?`
          : `Answer number ${i}. You have **three** things:\n\n- buy milk\n- call Sam about item ${i}\n- send the report\n\nAnything else?`;
        insertMessage.run(`${threadId}-m${i}`, threadId, isUser ? 'user' : 'assistant', text, at(i));
      }
    })();
    return threadId;
  } finally {
    db.close();
  }
}
