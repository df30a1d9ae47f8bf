import { describe, expect, it } from 'vitest';
import { openContextDb } from '../../../electron/context/context-db';
import { isUpcoming, UpcomingEvents, type UpcomingEvent } from '../../../electron/context/upcoming-events';

/** Sunday 22 November 2026, 23:00 in Los Angeles: Monday 07:00 UTC. */
const NOW = new Date('2026-11-23T07:00:00.000Z');

const event = (id: string, start: string): UpcomingEvent => ({ id, title: id, start, attendees: [] });

describe('the next events, whatever offset the calendar wrote them with', () => {
  it('orders by the instant each begins and keeps one later tonight in a zone behind UTC', () => {
    const upcoming = new UpcomingEvents(openContextDb(':memory:'));
    upcoming.replace([
      event('London lunch', '2026-11-23T12:00:00Z'),
      // 09:00 UTC: before the London lunch, though its text sorts after it.
      event('Tokyo standup', '2026-11-23T18:00:00+09:00'),
      // 07:30 UTC, half an hour from now: its text's date is the day before NOW's UTC date.
      event('Late call', '2026-11-22T23:30:00-08:00'),
      // Began an hour ago.
      event('Past call', '2026-11-22T22:00:00-08:00'),
      event('Holiday', '2026-11-23'),
      event('Tomorrow', '2026-11-24T09:00:00+01:00'),
    ]);

    expect(upcoming.next(NOW, 10, 'UTC').map((found) => found.id)).toEqual([
      'Holiday',
      'Late call',
      'Tokyo standup',
      'London lunch',
      'Tomorrow',
    ]);
    expect(upcoming.next(NOW, 2, 'UTC').map((found) => found.id)).toEqual(['Holiday', 'Late call']);
  });
});

describe('an all-day event’s day is the person’s, in their time zone', () => {
  const upcoming = new UpcomingEvents(openContextDb(':memory:'));
  upcoming.replace([
    event('Sunday off', '2026-11-22'),
    event('Late call', '2026-11-22T23:30:00-08:00'),
    event('Monday holiday', '2026-11-23'),
    event('Tuesday trip', '2026-11-24'),
  ]);
  const titles = (timeZone: string): string[] => upcoming.next(NOW, 10, timeZone).map((found) => found.id);

  it('at 23:00 on Sunday in Los Angeles, Sunday’s is still today’s and Monday’s comes after tonight’s call', () => {
    expect(isUpcoming('2026-11-22', NOW, 'America/Los_Angeles')).toBe(true);
    expect(titles('America/Los_Angeles')).toEqual([
      'Sunday off',
      'Late call',
      'Monday holiday',
      'Tuesday trip',
    ]);
  });

  it('at 16:00 on Monday in Tokyo, Sunday’s is over and Monday’s began at midnight there', () => {
    expect(isUpcoming('2026-11-22', NOW, 'Asia/Tokyo')).toBe(false);
    expect(titles('Asia/Tokyo')).toEqual(['Monday holiday', 'Late call', 'Tuesday trip']);
  });
});
