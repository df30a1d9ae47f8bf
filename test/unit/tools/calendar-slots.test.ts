import { describe, expect, it } from 'vitest';
import {
  alignUp,
  findFreeSlots,
  formatInZone,
  instantOf,
  mergeIntervals,
  offsetMinutesAt,
  type Interval,
  type SlotSearch,
} from '../../../electron/tools/calendar/calendar-slots';
import { isValidTimeZone } from '../../../shared/contract';

const at = (iso: string): number => Date.parse(iso);
const span = (start: string, end: string): Interval => ({ start: at(start), end: at(end) });
const WEEKDAYS_9_TO_6 = { startMinute: 9 * 60, endMinute: 18 * 60, includeWeekends: false };

function slotsIn(timeZone: string, search: Partial<SlotSearch> & Pick<SlotSearch, 'window'>): string[] {
  return findFreeSlots({
    busy: [],
    durationMinutes: 60,
    hours: WEEKDAYS_9_TO_6,
    timeZone,
    maxSlots: 50,
    ...search,
  }).map((slot) => `${formatInZone(slot.start, timeZone)}/${formatInZone(slot.end, timeZone).slice(11, 16)}`);
}

describe('time zones', () => {
  it('reads the offset in force at an instant, on both sides of a DST change', () => {
    expect(offsetMinutesAt(at('2026-01-15T12:00:00Z'), 'Europe/Berlin')).toBe(60);
    expect(offsetMinutesAt(at('2026-07-15T12:00:00Z'), 'Europe/Berlin')).toBe(120);
    expect(offsetMinutesAt(at('2026-03-08T06:59:00Z'), 'America/New_York')).toBe(-300);
    expect(offsetMinutesAt(at('2026-03-08T07:00:00Z'), 'America/New_York')).toBe(-240);
    expect(offsetMinutesAt(at('2026-01-15T12:00:00Z'), 'Asia/Kathmandu')).toBe(345);
  });

  it('places a wall-clock time in its zone, including the skipped and the repeated hour', () => {
    const day = { year: 2026, month: 3, day: 9, hour: 9, minute: 0 };
    expect(instantOf(day, 'America/New_York')).toBe(at('2026-03-09T13:00:00Z'));
    expect(instantOf({ ...day, day: 6 }, 'America/New_York')).toBe(at('2026-03-06T14:00:00Z'));
    // 02:30 does not exist on 8 March in New York: it is read as 03:30 EDT.
    expect(instantOf({ ...day, day: 8, hour: 2, minute: 30 }, 'America/New_York')).toBe(
      at('2026-03-08T07:30:00Z'),
    );
    // 01:30 happens twice on 1 November: the first (EDT) is taken.
    expect(instantOf({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, 'America/New_York')).toBe(
      at('2026-11-01T05:30:00Z'),
    );
    expect(instantOf(day, 'Asia/Kathmandu')).toBe(at('2026-03-09T03:15:00Z'));
  });

  it('writes RFC 3339 with the local offset', () => {
    expect(formatInZone(at('2026-03-09T13:00:00Z'), 'America/New_York')).toBe('2026-03-09T09:00:00-04:00');
    expect(formatInZone(at('2026-03-06T14:00:00Z'), 'America/New_York')).toBe('2026-03-06T09:00:00-05:00');
    expect(formatInZone(at('2026-03-09T03:15:00Z'), 'Asia/Kathmandu')).toBe('2026-03-09T09:00:00+05:45');
    expect(formatInZone(at('2026-03-09T09:00:00Z'), 'UTC')).toBe('2026-03-09T09:00:00+00:00');
  });

  it('knows which zone names are real', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
  });

  it('aligns to the quarter hour of the local clock', () => {
    expect(formatInZone(alignUp(at('2026-03-09T13:07:00Z'), 15, 'America/New_York'), 'UTC')).toBe(
      '2026-03-09T13:15:00+00:00',
    );
    expect(alignUp(at('2026-03-09T13:15:00Z'), 15, 'UTC')).toBe(at('2026-03-09T13:15:00Z'));
    // Kathmandu is 5:45 ahead, so its quarter hours are the UTC quarter hours too; 03:16Z is 09:01 there.
    expect(formatInZone(alignUp(at('2026-03-09T03:16:00Z'), 15, 'Asia/Kathmandu'), 'Asia/Kathmandu')).toBe(
      '2026-03-09T09:15:00+05:45',
    );
  });
});

describe('mergeIntervals', () => {
  it('sorts, joins overlapping and touching intervals and drops empty ones', () => {
    expect(
      mergeIntervals([
        { start: 50, end: 60 },
        { start: 10, end: 20 },
        { start: 15, end: 30 },
        { start: 30, end: 40 },
        { start: 45, end: 45 },
        { start: 70, end: 65 },
      ]),
    ).toEqual([
      { start: 10, end: 40 },
      { start: 50, end: 60 },
    ]);
  });
});

describe('findFreeSlots', () => {
  it('keeps 09:00 local across the spring DST change (New York, 8 March 2026)', () => {
    expect(
      slotsIn('America/New_York', {
        window: span('2026-03-06T00:00:00-05:00', '2026-03-10T23:59:00-04:00'),
        durationMinutes: 540,
      }),
    ).toEqual([
      '2026-03-06T09:00:00-05:00/18:00',
      '2026-03-09T09:00:00-04:00/18:00',
      '2026-03-10T09:00:00-04:00/18:00',
    ]);
  });

  it('merges overlapping busy time from several people and honours the duration and the grid', () => {
    const busy = [
      span('2026-03-11T10:00:00Z', '2026-03-11T11:00:00Z'), // one attendee
      span('2026-03-11T10:30:00Z', '2026-03-11T12:00:00Z'), // another, overlapping
      span('2026-03-11T13:00:00Z', '2026-03-11T13:10:00Z'),
      span('2026-03-11T09:00:00Z', '2026-03-11T09:00:00Z'), // empty: ignored
    ];
    expect(slotsIn('UTC', { window: span('2026-03-11T00:00:00Z', '2026-03-12T00:00:00Z'), busy })).toEqual([
      '2026-03-11T09:00:00+00:00/10:00',
      '2026-03-11T12:00:00+00:00/13:00',
      '2026-03-11T13:15:00+00:00/14:15',
      '2026-03-11T14:15:00+00:00/15:15',
      '2026-03-11T15:15:00+00:00/16:15',
      '2026-03-11T16:15:00+00:00/17:15',
    ]);
  });

  it('skips gaps shorter than the meeting and steps by the meeting rounded to the grid', () => {
    const busy = [
      span('2026-03-11T09:45:00Z', '2026-03-11T16:00:00Z'),
      span('2026-03-11T16:45:00Z', '2026-03-11T18:00:00Z'),
    ];
    const window = span('2026-03-11T00:00:00Z', '2026-03-12T00:00:00Z');
    expect(slotsIn('UTC', { window, busy, durationMinutes: 60 })).toEqual([]);
    expect(slotsIn('UTC', { window, busy, durationMinutes: 45 })).toEqual([
      '2026-03-11T09:00:00+00:00/09:45',
      '2026-03-11T16:00:00+00:00/16:45',
    ]);
    expect(
      slotsIn('UTC', { window: span('2026-03-11T09:00:00Z', '2026-03-11T12:00:00Z'), durationMinutes: 50 }),
    ).toEqual([
      '2026-03-11T09:00:00+00:00/09:50',
      '2026-03-11T10:00:00+00:00/10:50',
      '2026-03-11T11:00:00+00:00/11:50',
    ]);
  });

  it('clips to the window and to custom working hours in the user’s zone', () => {
    expect(
      slotsIn('Europe/Berlin', {
        window: span('2026-03-11T09:07:00+01:00', '2026-03-11T13:00:00+01:00'),
        hours: { startMinute: 8 * 60, endMinute: 12 * 60 + 30, includeWeekends: false },
      }),
    ).toEqual([
      '2026-03-11T09:15:00+01:00/10:15',
      '2026-03-11T10:15:00+01:00/11:15',
      '2026-03-11T11:15:00+01:00/12:15',
    ]);
  });

  it('offers nothing at the weekend unless asked to', () => {
    const weekend = span('2026-03-14T00:00:00Z', '2026-03-16T00:00:00Z');
    expect(slotsIn('UTC', { window: weekend })).toEqual([]);
    const withWeekends = slotsIn('UTC', {
      window: weekend,
      durationMinutes: 540,
      hours: { ...WEEKDAYS_9_TO_6, includeWeekends: true },
    });
    expect(withWeekends).toEqual(['2026-03-14T09:00:00+00:00/18:00', '2026-03-15T09:00:00+00:00/18:00']);
  });

  it('returns nothing when everyone is never free at once, and stops at maxSlots', () => {
    const window = span('2026-03-11T00:00:00Z', '2026-03-13T00:00:00Z');
    const busy = [
      span('2026-03-11T08:00:00Z', '2026-03-11T13:00:00Z'),
      span('2026-03-11T12:30:00Z', '2026-03-11T19:00:00Z'),
      span('2026-03-12T09:00:00Z', '2026-03-12T18:00:00Z'),
    ];
    expect(slotsIn('UTC', { window, busy })).toEqual([]);
    expect(slotsIn('UTC', { window, maxSlots: 2 })).toEqual([
      '2026-03-11T09:00:00+00:00/10:00',
      '2026-03-11T10:00:00+00:00/11:00',
    ]);
  });
});
