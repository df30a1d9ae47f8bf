import type { Db } from '../store/database';
import { instantOf, wallTimeAt } from '../tools/calendar/calendar-slots';

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

const DAY = 86_400_000;

const isAllDay = (start: string): boolean => start.length <= 10;

/** The person's date at `now` in their time zone (2026-11-22 at 23:00 on Sunday in Los Angeles). */
function todayIn(now: Date, timeZone: string): string {
  const { year, month, day } = wallTimeAt(now.getTime(), timeZone);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** When an event begins, to order them: a timed one's instant, an all-day one's midnight in the person's zone. */
function startsAt(start: string, timeZone: string): number {
  if (!isAllDay(start)) return Date.parse(start);
  const [year = 0, month = 1, day = 1] = start.split('-').map(Number);
  return instantOf({ year, month, day, hour: 0, minute: 0 }, timeZone);
}

/**
 * Still to come at `now`: a timed event that has not begun, or an all-day event of the person's today or later.
 * Their today is the date in their time zone (`timeZone`), not in UTC: at 23:00 on Sunday in Los Angeles,
 * Sunday's all-day event is still today's. A timed start is compared as an instant, whatever offset the
 * calendar wrote it with ("2026-11-22T23:30:00-08:00" is after 07:00 UTC on the 23rd), never as text.
 */
export function isUpcoming(start: string, now: Date, timeZone: string): boolean {
  return isAllDay(start) ? start >= todayIn(now, timeZone) : Date.parse(start) >= now.getTime();
}

export class UpcomingEvents {
  private readonly insert;
  private readonly selectAfter;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(
      'INSERT OR REPLACE INTO upcoming_events (id, title, start, attendees) VALUES (?, ?, ?, ?)',
    );
    this.selectAfter = db.prepare<[string], EventRow>('SELECT * FROM upcoming_events WHERE start >= ?');
  }

  /** Replaces what was known with what the calendar says now. */
  replace(events: readonly UpcomingEvent[]): void {
    this.db.transaction(() => {
      this.db.exec('DELETE FROM upcoming_events');
      for (const event of events)
        this.insert.run(event.id, event.title, event.start, JSON.stringify(event.attendees));
    })();
  }

  /** The events still to come after `after`, first first; all-day ones by their day in `timeZone`. */
  next(after: Date, limit: number, timeZone: string): UpcomingEvent[] {
    // Starts keep the calendar's offsets, so their text neither sorts nor compares by time: the rows from the
    // day before on (an offset, and the person's zone, is at most a day away) are read, at most a refresh's
    // events, and ordered here.
    const since = new Date(after.getTime() - DAY).toISOString().slice(0, 10);
    return this.selectAfter
      .all(since)
      .filter((row) => isUpcoming(row.start, after, timeZone))
      .sort((a, b) => startsAt(a.start, timeZone) - startsAt(b.start, timeZone))
      .slice(0, limit)
      .map((row) => ({ ...row, attendees: JSON.parse(row.attendees) as string[] }));
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM upcoming_events').get() as { n: number }).n;
  }
}
