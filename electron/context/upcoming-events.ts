import type { Db } from '../store/database';

/** An event of the coming days, kept from the last refresh so a run can be told of it before its first turn. */
export interface UpcomingEvent {
  id: string;
  title: string;
  /** ISO date-time, or a date for an all-day event. */
  start: string;
  /** The other attendees' addresses. */
  attendees: string[];
}

interface EventRow {
  id: string;
  title: string;
  start: string;
  attendees: string;
}

export class UpcomingEvents {
  private readonly insert;
  private readonly selectAfter;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(
      'INSERT OR REPLACE INTO upcoming_events (id, title, start, attendees) VALUES (?, ?, ?, ?)',
    );
    this.selectAfter = db.prepare<[string, number], EventRow>(
      'SELECT * FROM upcoming_events WHERE start >= ? ORDER BY start LIMIT ?',
    );
  }

  /** Replaces what was known with what the calendar says now. */
  replace(events: readonly UpcomingEvent[]): void {
    this.db.transaction(() => {
      this.db.exec('DELETE FROM upcoming_events');
      for (const event of events)
        this.insert.run(event.id, event.title, event.start, JSON.stringify(event.attendees));
    })();
  }

  next(after: Date, limit: number): UpcomingEvent[] {
    // A date-only start ("2026-11-24") sorts before that day's times, so the day's all-day events are kept.
    return this.selectAfter
      .all(after.toISOString().slice(0, 10), limit * 4)
      .flatMap((row) => {
        const isPast = row.start.length > 10 && Date.parse(row.start) < after.getTime();
        if (isPast) return [];
        return [{ ...row, attendees: JSON.parse(row.attendees) as string[] }];
      })
      .slice(0, limit);
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM upcoming_events').get() as { n: number }).n;
  }
}
