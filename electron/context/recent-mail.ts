import type { Db } from '../store/database';
import type { Corpus } from './semantic-index';

/** One received mail as the index keeps it: who, what about, its first words, when. */
export interface MailItem {
  id: string;
  sender: string;
  subject: string;
  snippet: string;
  /** ISO time it arrived. */
  at: string;
}

/** How many of the newest received mails are kept (and embedded) while the person has opted in. */
export const RECENT_MAIL_KEPT = 200;

/** The text a mail is embedded and searched by: its subject and snippet, nothing else of its body. */
export const mailText = (mail: MailItem): string => `${mail.subject}\n${mail.snippet}`.trim();

/** The newest received mail's subjects and snippets in context.db, with full-text search (opt-in). */
export class RecentMail {
  private readonly insert;
  private readonly selectAll;
  private readonly selectOne;
  private readonly match;
  private readonly countAll;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(
      'INSERT INTO recent_mail (id, sender, subject, snippet, at) VALUES (@id, @sender, @subject, @snippet, @at)',
    );
    this.selectAll = db.prepare<[], MailItem>(
      'SELECT id, sender, subject, snippet, at FROM recent_mail ORDER BY at DESC',
    );
    this.selectOne = db.prepare<[string], MailItem>(
      'SELECT id, sender, subject, snippet, at FROM recent_mail WHERE id = ?',
    );
    this.countAll = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM recent_mail');
    this.match = db.prepare<[string, number], MailItem>(
      `SELECT id, sender, subject, snippet, at FROM recent_mail WHERE recent_mail MATCH ?
       ORDER BY bm25(recent_mail) LIMIT ?`,
    );
  }

  /** Keeps exactly these (the newest RECENT_MAIL_KEPT of them), in one small transaction. */
  replace(items: readonly MailItem[]): void {
    const newest = [...items].sort((a, b) => (a.at < b.at ? 1 : -1)).slice(0, RECENT_MAIL_KEPT);
    this.db.transaction(() => {
      this.db.exec('DELETE FROM recent_mail');
      for (const item of newest) this.insert.run(item);
    })();
  }

  all(): MailItem[] {
    return this.selectAll.all();
  }

  get(id: string): MailItem | null {
    return this.selectOne.get(id) ?? null;
  }

  /** Mails matching any of the query's words (each a prefix), best first. */
  search(query: string, limit: number): MailItem[] {
    const words = query.match(/[\p{L}\p{N}]{2,}/gu) ?? [];
    if (words.length === 0) return [];
    return this.match.all(words.map((word) => `"${word}"*`).join(' OR '), limit);
  }

  count(): number {
    return this.countAll.get()?.n ?? 0;
  }

  clear(): void {
    this.db.exec('DELETE FROM recent_mail');
  }
}

export function mailCorpus(mail: RecentMail): Corpus<MailItem> {
  return {
    kind: 'mail',
    page: () => ({ items: mail.all().map((item) => ({ id: item.id, text: mailText(item) })), next: null }),
    fullText: (query, limit) => mail.search(query, limit),
    get: (id) => mail.get(id),
    idOf: (item) => item.id,
  };
}
