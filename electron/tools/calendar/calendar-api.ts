import { calendar, type calendar_v3 } from '@googleapis/calendar';
import type { GoogleAccess } from '../../connections/access';
import { instantIn, parseEventTime } from './calendar-events';
import { instantOf, type Interval } from './calendar-slots';
import { callGoogle } from '../google-call';
import { ToolError } from '../tool';

export interface CalendarToolOptions {
  now: () => Date;
  /** The user's IANA time zone: working hours, local times without an offset and previews are read in it. */
  timezone: () => string;
}

/** Runs one piece of work against Calendar; whatever it throws comes out as a ToolError naming `what`. */
export type CalendarCall = <T>(what: string, run: (client: calendar_v3.Calendar) => Promise<T>) => Promise<T>;

const DAY = 86_400_000;
const DEFAULT_RANGE_DAYS = 7;
const MAX_RANGE_DAYS = 62;

export function calendarCaller(access: GoogleAccess, now: () => Date): CalendarCall {
  return (what, run) =>
    callGoogle(access, (options) => calendar({ version: 'v3', ...options }), what, now, run);
}

/**
 * The span a search covers: from `start` (now by default) to `end` (a week later by default). A date bound
 * means the whole day in the user's zone, so an `end` date reaches the following midnight.
 */
export function timeRange(
  start: string | undefined,
  end: string | undefined,
  timeZone: string,
  now: Date,
): Interval {
  const from = start === undefined ? now.getTime() : bound(start, 'start', timeZone);
  const to = end === undefined ? from + DEFAULT_RANGE_DAYS * DAY : bound(end, 'end', timeZone);
  if (to <= from)
    throw new ToolError('invalid_arguments', 'The end of the time range must be after its start.');
  if (to - from > MAX_RANGE_DAYS * DAY) {
    throw new ToolError('invalid_arguments', `Search at most ${MAX_RANGE_DAYS} days at a time.`);
  }
  return { start: from, end: to };
}

function bound(value: string, edge: 'start' | 'end', timeZone: string): number {
  const time = parseEventTime(value);
  if (!time) throw new ToolError('invalid_arguments', `"${value}" is not a date or date-time.`);
  if (time.kind === 'dateTime') return instantIn(time, timeZone);
  const day = new Date(time.day + (edge === 'end' ? DAY : 0));
  const midnight = {
    year: day.getUTCFullYear(),
    month: day.getUTCMonth() + 1,
    day: day.getUTCDate(),
    hour: 0,
    minute: 0,
  };
  return instantOf(midnight, timeZone);
}
