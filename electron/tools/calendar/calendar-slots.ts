/**
 * Time-zone arithmetic and free-slot search for check_availability. Pure functions over epoch milliseconds:
 * the zone rules come from Intl (the ICU data Node ships), so there is no date library and DST is handled by
 * asking the zone for its offset at each instant rather than assuming a fixed one.
 */

/** A half-open span of time [start, end) in epoch milliseconds. */
export interface Interval {
  start: number;
  end: number;
}

/** A wall-clock reading in some zone; month is 1..12. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** What a clock in `timeZone` shows at `instant`. */
export function wallTimeAt(
  instant: number,
  timeZone: string,
): WallTime & { second: number; weekday: number } {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS[parts.weekday ?? ''] ?? 0,
  };
}

/** The zone's offset from UTC at `instant`, in minutes (east positive: +60 for Paris in winter). */
export function offsetMinutesAt(instant: number, timeZone: string): number {
  const wall = wallTimeAt(instant, timeZone);
  const wallAsUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return Math.round((wallAsUtc - Math.floor(instant / 1000) * 1000) / MINUTE);
}

/**
 * The instant a wall-clock time names in a zone. Around a DST change a wall time can name two instants (the
 * hour repeated in autumn: the earlier is taken) or none (the hour skipped in spring: it is read with the
 * offset from before the change, so 02:30 becomes 03:30), the same choice as Temporal's "compatible".
 */
export function instantOf(wall: WallTime, timeZone: string): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  // At most one transition lies within a day of any wall time, so these are the offsets on either side of it.
  const before = offsetMinutesAt(asUtc - DAY, timeZone);
  const after = offsetMinutesAt(asUtc + DAY, timeZone);
  const candidates = [before, after]
    .map((offset) => asUtc - offset * MINUTE)
    .filter((instant) => asUtc - offsetMinutesAt(instant, timeZone) * MINUTE === instant);
  return candidates.length > 0 ? Math.min(...candidates) : asUtc - before * MINUTE;
}

const pad = (value: number, width = 2): string => String(Math.abs(value)).padStart(width, '0');

/** RFC 3339 with the zone's offset at that instant: 2026-03-09T09:00:00-04:00. */
export function formatInZone(instant: number, timeZone: string): string {
  const wall = wallTimeAt(instant, timeZone);
  const offset = offsetMinutesAt(instant, timeZone);
  const sign = offset < 0 ? '-' : '+';
  const zone = `${sign}${pad(Math.trunc(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}${zone}`;
}

/** Sorts intervals and joins the ones that overlap or touch; empty or inverted ones are dropped. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals
    .filter((interval) => interval.end > interval.start)
    .sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged.at(-1);
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push({ ...interval });
  }
  return merged;
}

/** The parts of `span` not covered by `busy` (which must be merged and sorted). */
export function subtractIntervals(span: Interval, busy: readonly Interval[]): Interval[] {
  const free: Interval[] = [];
  let cursor = span.start;
  for (const interval of busy) {
    if (interval.end <= cursor) continue;
    if (interval.start >= span.end) break;
    if (interval.start > cursor) free.push({ start: cursor, end: interval.start });
    cursor = Math.max(cursor, interval.end);
  }
  if (cursor < span.end) free.push({ start: cursor, end: span.end });
  return free;
}

export interface WorkingHours {
  /** Minutes after local midnight, e.g. 540 for 09:00. */
  startMinute: number;
  endMinute: number;
  includeWeekends: boolean;
}

/** The working hours of every local day the window touches, as instants, clipped to the window. */
export function workingSpans(window: Interval, hours: WorkingHours, timeZone: string): Interval[] {
  const first = wallTimeAt(window.start, timeZone);
  const last = wallTimeAt(window.end, timeZone);
  const firstDay = Date.UTC(first.year, first.month - 1, first.day);
  const lastDay = Date.UTC(last.year, last.month - 1, last.day);
  const spans: Interval[] = [];
  // Calendar days are stepped in UTC, where every day has 24 hours; each day's hours are then placed in the zone.
  for (let day = firstDay; day <= lastDay; day += DAY) {
    const date = new Date(day);
    const weekday = date.getUTCDay();
    if (!hours.includeWeekends && (weekday === 0 || weekday === 6)) continue;
    const on = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
    const atMinute = (minute: number): number =>
      instantOf({ ...on, hour: Math.floor(minute / 60), minute: minute % 60 }, timeZone);
    const start = Math.max(atMinute(hours.startMinute), window.start);
    const end = Math.min(atMinute(hours.endMinute), window.end);
    if (end > start) spans.push({ start, end });
  }
  return spans;
}

/** Rounds up to the next multiple of `stepMinutes` on the zone's clock (so 09:07 becomes 09:15 locally). */
export function alignUp(instant: number, stepMinutes: number, timeZone: string): number {
  const offset = offsetMinutesAt(instant, timeZone) * MINUTE;
  const step = stepMinutes * MINUTE;
  const local = instant + offset;
  return Math.ceil(local / step) * step - offset;
}

export interface SlotSearch {
  window: Interval;
  /** Everyone's busy time together; overlaps are fine. */
  busy: readonly Interval[];
  durationMinutes: number;
  hours: WorkingHours;
  timeZone: string;
  maxSlots: number;
  /** Slots start on this grid of the local clock. */
  stepMinutes?: number;
}

/**
 * Meeting-length slots in which nobody is busy, inside working hours and the window, earliest first. Within one
 * free stretch the slots follow each other back to back (a 50-minute meeting steps by an hour on a 15-minute
 * grid), so the list offers distinct choices rather than the same hour shifted by a quarter.
 */
export function findFreeSlots(search: SlotSearch): Interval[] {
  const step = search.stepMinutes ?? 15;
  const duration = search.durationMinutes * MINUTE;
  const stride = Math.ceil(search.durationMinutes / step) * step * MINUTE;
  const busy = mergeIntervals(search.busy);
  const slots: Interval[] = [];
  for (const span of workingSpans(search.window, search.hours, search.timeZone)) {
    for (const free of subtractIntervals(span, busy)) {
      for (
        let start = alignUp(free.start, step, search.timeZone);
        start + duration <= free.end;
        start += stride
      ) {
        if (slots.length >= search.maxSlots) return slots;
        slots.push({ start, end: start + duration });
      }
    }
  }
  return slots;
}
