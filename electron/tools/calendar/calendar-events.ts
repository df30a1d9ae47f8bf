import type { calendar_v3 } from '@googleapis/calendar';
import { z } from 'zod';
import { isValidTimeZone } from '../../../shared/contract';
import { formatInZone, instantOf, type WallTime } from './calendar-slots';
import type { ContentOrigin } from '../tool';

/**
 * Every event Deputy creates carries this private extended property, set to the call's idempotency key, so
 * the event can be found again (`privateExtendedProperty=deputyKey=<key>`) and is never created twice.
 */
export const DEPUTY_KEY_PROPERTY = 'deputyKey';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const MAX_TIMED_EVENT_DAYS = 14;
const MAX_ALL_DAY_EVENT_DAYS = 366;
export const MAX_ATTENDEES = 50;

export const attendeeSchema = z.email().max(320);

/** Lower-cased and without repeats: Google treats addresses case-insensitively, and so do rules. */
export function uniqueEmails(addresses: readonly string[]): string[] {
  return [...new Set(addresses.map((address) => address.trim().toLowerCase()))];
}

/** An event time as the model writes it: a date (all-day), or a date-time with or without an offset. */
export type EventTime =
  | { kind: 'date'; date: string; day: number }
  | { kind: 'dateTime'; wall: WallTime & { second: number }; offsetMinutes: number | null };

export function parseEventTime(value: string): EventTime | null {
  const date = DATE.exec(value);
  if (date) {
    const [year, month, day] = date.slice(1, 4).map(Number) as [number, number, number];
    const utc = Date.UTC(year, month - 1, day);
    return isRealDate(utc, year, month, day) ? { kind: 'date', date: value, day: utc } : null;
  }
  const match = DATE_TIME.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!isRealDate(Date.UTC(year, month - 1, day), year, month, day) || hour > 23 || minute > 59) return null;
  return {
    kind: 'dateTime',
    wall: { year, month, day, hour, minute, second },
    offsetMinutes: offsetOf(match[7]),
  };
}

function offsetOf(zone: string | undefined): number | null {
  if (zone === undefined) return null;
  if (zone === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  return sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
}

function isRealDate(utc: number, year: number, month: number, day: number): boolean {
  const date = new Date(utc);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The instant a date-time names; one without an offset is read on the clock of `timeZone`. */
export function instantIn(time: Extract<EventTime, { kind: 'dateTime' }>, timeZone: string): number {
  const { wall } = time;
  if (time.offsetMinutes === null) return instantOf(wall, timeZone) + wall.second * 1000;
  return (
    Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) -
    time.offsetMinutes * MINUTE
  );
}

export const eventTimeSchema = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/, {
    message: 'use a date (2026-03-09) for all-day events or a date-time (2026-03-09T14:00:00+01:00)',
  })
  .refine((value) => parseEventTime(value) !== null, { message: 'not a real date or time' });

export const timeZoneSchema = z
  .string()
  .trim()
  .refine(isValidTimeZone, { message: 'use an IANA time zone name such as Europe/Berlin' });

/**
 * Why a start and end cannot make an event, or null when they can. Without `timeZone` (at schema time, before
 * the user's zone is known) a date-time without an offset is compared with one that has an offset only when
 * both are the same kind; the tool checks again with the zone before anything is sent.
 */
export function eventTimesProblem(start: string, end: string, timeZone?: string): string | null {
  const from = parseEventTime(start);
  const to = parseEventTime(end);
  if (!from || !to) return null;
  if (from.kind !== to.kind) return 'start and end must both be dates (all-day) or both be date-times';
  if (from.kind === 'date' && to.kind === 'date') {
    if (to.day < from.day) return 'end must be on or after start (all-day end is the last day)';
    if ((to.day - from.day) / DAY >= MAX_ALL_DAY_EVENT_DAYS)
      return 'an all-day event can last at most a year';
    return null;
  }
  if (from.kind !== 'dateTime' || to.kind !== 'dateTime') return null;
  const isComparable =
    timeZone !== undefined || (from.offsetMinutes === null) === (to.offsetMinutes === null);
  if (!isComparable) return null;
  const zone = timeZone ?? 'UTC';
  const length = instantIn(to, zone) - instantIn(from, zone);
  if (length <= 0) return 'end must be after start';
  if (length > MAX_TIMED_EVENT_DAYS * DAY) return `an event can last at most ${MAX_TIMED_EVENT_DAYS} days`;
  return null;
}

/**
 * An input time in Google's shape. All-day ends are inclusive for the model ("the 9th to the 10th") and
 * exclusive in Google, so a day is added; date-times are written with the offset of the event's zone.
 */
export function toGoogleTime(
  value: string,
  role: 'start' | 'end',
  timeZone: string,
): calendar_v3.Schema$EventDateTime {
  const time = parseEventTime(value);
  if (!time) throw new Error(`unparsed event time: ${value}`);
  if (time.kind === 'date') {
    return { date: role === 'end' ? new Date(time.day + DAY).toISOString().slice(0, 10) : time.date };
  }
  return { dateTime: formatInZone(instantIn(time, timeZone), timeZone), timeZone };
}

/** A Google time as the model reads it: the inverse of toGoogleTime (all-day ends back to the last day). */
function fromGoogleTime(time: calendar_v3.Schema$EventDateTime | undefined, role: 'start' | 'end'): string {
  if (time?.date) {
    return role === 'end'
      ? new Date(Date.parse(`${time.date}T00:00:00Z`) - DAY).toISOString().slice(0, 10)
      : time.date;
  }
  return time?.dateTime ?? '';
}

export const EventView = z.object({
  id: z.string(),
  summary: z.string().nullable(),
  start: z.string().describe('Date-time with offset, or for all-day events the first day.'),
  end: z.string().describe('Date-time with offset, or for all-day events the last day (inclusive).'),
  isAllDay: z.boolean(),
  location: z.string().nullable(),
  description: z.string().nullable(),
  attendees: z.array(z.object({ email: z.string(), responseStatus: z.string() })),
  organizer: z.string().nullable(),
  htmlLink: z.string().nullable(),
});
export type EventView = z.infer<typeof EventView>;

const MAX_DESCRIPTION_CHARS = 2_000;

export function eventView(event: calendar_v3.Schema$Event): EventView {
  const description = event.description ?? null;
  return {
    id: event.id ?? '',
    summary: event.summary ?? null,
    start: fromGoogleTime(event.start, 'start'),
    end: fromGoogleTime(event.end, 'end'),
    isAllDay: Boolean(event.start?.date),
    location: event.location ?? null,
    description:
      description && description.length > MAX_DESCRIPTION_CHARS
        ? `${description.slice(0, MAX_DESCRIPTION_CHARS)}…`
        : description,
    attendees: (event.attendees ?? []).map((attendee) => ({
      email: attendee.email ?? '',
      responseStatus: attendee.responseStatus ?? 'needsAction',
    })),
    organizer: event.organizer?.email ?? null,
    htmlLink: event.htmlLink ?? null,
  };
}

/** An event as content from outside the person: its title, description, place and guests, labelled by title. */
export function eventOrigin(event: EventView): ContentOrigin {
  const organizer = event.organizer ? ` organised by ${event.organizer}` : '';
  return {
    label: `the event “${event.summary ?? '(no title)'}”${organizer}`,
    text: [
      event.summary,
      event.description,
      event.location,
      event.organizer,
      ...event.attendees.map((attendee) => attendee.email),
    ]
      .filter(Boolean)
      .join('\n'),
  };
}

/** “Weekly sync”, Tue, 24 Nov 2026, 14:00 – 15:00 (Europe/Paris): how an approval names an event. */
export function describeEvent(event: EventView, displayZone: string): string {
  return `“${event.summary ?? '(no title)'}”, ${describeWhen(event.start, event.end, displayZone, displayZone)}`;
}

const readable = new Map<string, Intl.DateTimeFormat>();

/**
 * "Mon, 9 Mar 2026, 14:00 – 14:30 (Europe/Berlin)", or "Mon, 9 Mar 2026 (all day)": for approval previews. Times
 * without an offset are read in `timeZone` (the event's) and shown in `displayZone` (the user's).
 */
export function describeWhen(start: string, end: string, timeZone: string, displayZone = timeZone): string {
  const from = parseEventTime(start);
  const to = parseEventTime(end);
  if (!from || !to) return `${start} – ${end}`;
  if (from.kind === 'date' && to.kind === 'date') {
    const day = formatter('UTC', false);
    return from.day === to.day
      ? `${day.format(from.day)} (all day)`
      : `${day.format(from.day)} – ${day.format(to.day)} (all day)`;
  }
  if (from.kind !== 'dateTime' || to.kind !== 'dateTime') return `${start} – ${end}`;
  const startAt = instantIn(from, timeZone);
  const endAt = instantIn(to, timeZone);
  const day = formatter(displayZone, false);
  const endText =
    day.format(startAt) === day.format(endAt)
      ? formatInZone(endAt, displayZone).slice(11, 16)
      : formatter(displayZone, true).format(endAt);
  return `${formatter(displayZone, true).format(startAt)} – ${endText} (${displayZone})`;
}

/**
 * A date, or a date-time's day with its time as written, the way the cards say a day: "Thu, 10 Dec 2026",
 * "Thu, 10 Dec 2026, 09:00". Null for what is not a real date or date-time.
 */
export function describeWallTime(value: string): string | null {
  const time = parseEventTime(value);
  if (!time) return null;
  const days = formatter('UTC', false);
  if (time.kind === 'date') return days.format(time.day);
  const { year, month, day, hour, minute } = time.wall;
  const clock = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
  return `${days.format(Date.UTC(year, month - 1, day))}, ${clock}`;
}

function formatter(timeZone: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${timeZone}|${withTime}`;
  let format = readable.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      ...(withTime && { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    });
    readable.set(key, format);
  }
  return format;
}
