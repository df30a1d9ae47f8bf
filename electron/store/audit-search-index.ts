import type { AuditInbox } from './audit-inbox';
import type { Db } from './database';
import { AUDIT_FTS_COLUMNS as COLUMNS } from './migration-16-audit-search';

/**
 * Brings the audit trail's viewer indexes up to date with the entries noted in `audit_fts_pending`: the
 * full-text index (migration 16: what it had for an entry is taken out, the entry as it is now goes in) and
 * the filter indexes (migration 17: a new entry is listed). The entries a step held in the inbox (migration 21)
 * are filed before: a few at a time in the background, every one before a read.
 */
export class AuditSearchIndex {
  private readonly selectUpTo;
  private readonly removeStale;
  private readonly addCurrent;
  private readonly list;
  private readonly forget;
  private readonly inTransaction: (upTo: number) => number;

  constructor(
    private readonly db: Db,
    private readonly inbox: AuditInbox,
  ) {
    this.selectUpTo = db
      .prepare<[number], number>(
        'SELECT max(seq) FROM (SELECT seq FROM audit_fts_pending ORDER BY seq LIMIT CAST(? AS INTEGER))',
      )
      .pluck();
    this.removeStale = db.prepare<[number]>(
      `INSERT INTO audit_fts (audit_fts, rowid, ${COLUMNS})
       SELECT 'delete', seq, ${COLUMNS} FROM audit_fts_pending WHERE is_new = 0 AND seq <= CAST(? AS INTEGER)`,
    );
    // CROSS JOIN keeps the noted entries as the outer loop. Left to itself the planner walked audit_entries up
    // to the batch's last seq, the whole trail, and probed the noted ones for each: 56–79 ms of the main thread
    // per batch at 300,000 entries, against 2 ms this way.
    this.addCurrent = db.prepare<[number]>(
      `INSERT INTO audit_fts (rowid, ${COLUMNS})
       SELECT e.seq, ${COLUMNS.split(', ')
         .map((column) => `e.${column}`)
         .join(', ')}
       FROM audit_fts_pending AS p CROSS JOIN audit_entries AS e ON e.seq = p.seq WHERE p.seq <= CAST(? AS INTEGER)`,
    );
    this.list = db.prepare<[number]>(
      `UPDATE audit_entries SET is_listed = 1
       WHERE is_listed = 0
         AND seq IN (SELECT seq FROM audit_fts_pending WHERE is_new = 1 AND seq <= CAST(? AS INTEGER))`,
    );
    this.forget = db.prepare<[number]>('DELETE FROM audit_fts_pending WHERE seq <= CAST(? AS INTEGER)');
    this.inTransaction = db.transaction((upTo: number) => {
      this.removeStale.run(upTo);
      this.addCurrent.run(upTo);
      this.list.run(upTo);
      return this.forget.run(upTo).changes;
    });
  }

  /**
   * Keeps the trail up with what is written, outside any step: the entries steps held are filed ten times every
   * `everyMs`, a few at a time for at most a few milliseconds each time (so a backlog left by steps back to back
   * goes within seconds once they stop), and the indexes catch up once every `everyMs`; answers how to stop. A
   * read does not wait for this: it files and catches up first.
   */
  keepUp(everyMs: number, onError: (error: unknown) => void): () => void {
    const every = (ms: number, work: () => void): NodeJS.Timeout => {
      const timer = setInterval(() => {
        // A step's unit is open across a wait (its turn among other runs): what this batch wrote would join
        // that unit's commit, and a failure that rolled it back would take the step's writes with it.
        if (this.db.inTransaction) return;
        try {
          work();
        } catch (error) {
          onError(error);
        }
      }, ms);
      timer.unref();
      return timer;
    };
    const timers = [
      every(everyMs / 10, () => {
        const until = performance.now() + FILING_MS;
        while (this.inbox.file(FILE_BATCH) > 0 && performance.now() < until);
      }),
      every(everyMs, () => this.catchUp(BATCH)),
    ];
    return () => timers.forEach(clearInterval);
  }

  /** Indexes up to `limit` of the noted entries, oldest first, in one transaction; answers how many. */
  catchUp(limit: number): number {
    const upTo = this.selectUpTo.get(limit);
    if (upTo === null || upTo === undefined) return 0;
    return this.inTransaction(upTo);
  }

  /**
   * Indexes every noted entry (before a search or a filtered page, which must not miss one), in large transactions:
   * FTS5 writes a segment per transaction and merges them as they pile up, so 5,000 at a time index ten times
   * faster than 200 at a time (measured: 100,000 entries in 0.5 s against 5 s).
   */
  catchUpAll(): void {
    // Every held entry is filed first: filing notes it for the indexes.
    this.inbox.file();
    while (this.catchUp(LARGE_BATCH) > 0);
  }
}

/** Entries per background transaction: well under a millisecond of the main thread each second. */
const BATCH = 200;
/**
 * Held entries filed per background transaction: about a millisecond of the main thread (an entry goes into
 * eight B-trees, 40–60 µs on this 2-core machine while it was busy).
 */
const FILE_BATCH = 20;
/**
 * How long one background filing goes on while entries are held, in batches: one batch more at most, so the
 * main thread is never held near the 10 ms its event loop may be late.
 */
const FILING_MS = 4;
const LARGE_BATCH = 5_000;
