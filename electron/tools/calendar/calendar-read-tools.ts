import { z } from 'zod';
import { timeRange, type CalendarCall, type CalendarToolOptions } from './calendar-api';
import {
  EventView,
  attendeeSchema,
  eventOrigin,
  eventTimeSchema,
  eventView,
  MAX_ATTENDEES,
} from './calendar-events';
import { findFreeSlots, formatInZone, type Interval } from './calendar-slots';
import type { Tool } from '../tool';

const MAX_RESULTS = 50;

const boundSchema = eventTimeSchema.describe(
  "A date-time (2026-03-09T09:00:00+01:00; without an offset it is read in the user's time zone) or a date (the whole day).",
);
const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'use HH:MM, e.g. 09:00' });

const SearchInput = z
  .object({
    timeMin: boundSchema.optional().describe('Start of the range; now by default.'),
    timeMax: boundSchema.optional().describe('End of the range; 7 days after the start by default.'),
    q: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('Words to find in titles, descriptions, places, attendees.'),
    maxResults: z.number().int().min(1).max(MAX_RESULTS).optional().describe('At most 50; 25 by default.'),
  })
  .strict();

const AvailabilityInput = z
  .object({
    attendees: z
      .array(z.union([z.literal('primary'), attendeeSchema]))
      .min(1)
      .max(MAX_ATTENDEES)
      .describe(
        'Email addresses whose calendars to check; "primary" is the user. Include it when the user attends.',
      ),
    start: boundSchema.describe('Start of the window to search.'),
    end: boundSchema.describe('End of the window to search.'),
    durationMinutes: z.number().int().min(5).max(720).describe('How long the meeting is.'),
    workingHours: z
      .object({ start: clock, end: clock })
      .strict()
      .refine((hours) => hours.start < hours.end, { message: 'working hours must end after they start' })
      .optional()
      .describe('Local working hours; 09:00–18:00 by default.'),
    includeWeekends: z.boolean().optional().describe('Also offer Saturdays and Sundays; false by default.'),
    maxSlots: z.number().int().min(1).max(50).optional().describe('How many slots to return; 10 by default.'),
  })
  .strict();

type SearchInput = z.infer<typeof SearchInput>;
type AvailabilityInput = z.infer<typeof AvailabilityInput>;

const SearchOutput = z.object({
  timeMin: z.string(),
  timeMax: z.string(),
  events: z.array(EventView),
  isTruncated: z.boolean(),
});
const AvailabilityOutput = z.object({
  timeZone: z.string(),
  slots: z.array(z.object({ start: z.string(), end: z.string() })),
  /** Calendars free/busy could not read (not shared, unknown address): the slots do not account for them. */
  unknown: z.array(z.object({ attendee: z.string(), reason: z.string() })),
});
/** The read-only Calendar tools: calendar_search and check_availability. */
export function createCalendarReadTools(call: CalendarCall, options: CalendarToolOptions): Tool[] {
  const calendarSearch: Tool<SearchInput, z.infer<typeof SearchOutput>> = {
    name: 'calendar_search',
    description:
      "Find events in the user's Google Calendar between two times (the next 7 days by default), optionally matching words.",
    input: SearchInput,
    output: SearchOutput,
    category: 'query',
    risk: 'low',
    hasSideEffects: false,
    requires: 'google',
    provenance: (output) => output.events.map(eventOrigin),
    execute: (input, context) => {
      const timeZone = options.timezone();
      const range = timeRange(input.timeMin, input.timeMax, timeZone, options.now());
      const maxResults = input.maxResults ?? 25;
      return call('searching the calendar', async (client) => {
        const { data } = await client.events.list(
          {
            calendarId: 'primary',
            timeMin: new Date(range.start).toISOString(),
            timeMax: new Date(range.end).toISOString(),
            singleEvents: true,
            orderBy: 'startTime',
            maxResults,
            ...(input.q && { q: input.q }),
          },
          { signal: context.signal },
        );
        const items = data.items ?? [];
        return {
          timeMin: formatInZone(range.start, timeZone),
          timeMax: formatInZone(range.end, timeZone),
          events: items.slice(0, maxResults).map(eventView),
          isTruncated: Boolean(data.nextPageToken) || items.length > maxResults,
        };
      });
    },
  };

  const checkAvailability: Tool<AvailabilityInput, z.infer<typeof AvailabilityOutput>> = {
    name: 'check_availability',
    description:
      "Find meeting slots when every attendee is free, from their Google Calendar free/busy, within working hours (weekdays 09:00–18:00 in the user's time zone by default).",
    input: AvailabilityInput,
    output: AvailabilityOutput,
    category: 'compute',
    risk: 'low',
    hasSideEffects: false,
    // Free/busy is times Google worked out, not text anyone wrote: a slot from it is not steered content.
    provenance: () => [],
    requires: 'google',
    execute: (input, context) => {
      const timeZone = options.timezone();
      const span = timeRange(input.start, input.end, timeZone, options.now());
      const attendees = [...new Set(input.attendees.map((attendee) => attendee.toLowerCase()))];
      return call('checking availability', async (client) => {
        const { data } = await client.freebusy.query(
          {
            requestBody: {
              timeMin: new Date(span.start).toISOString(),
              timeMax: new Date(span.end).toISOString(),
              timeZone,
              items: attendees.map((id) => ({ id })),
            },
          },
          { signal: context.signal },
        );
        const busy: Interval[] = [];
        const unknown: { attendee: string; reason: string }[] = [];
        for (const attendee of attendees) {
          const entry = data.calendars?.[attendee];
          const failure = entry ? entry.errors?.[0] : { reason: 'notFound' };
          if (failure) {
            unknown.push({ attendee, reason: failure.reason ?? 'unknown' });
            continue;
          }
          for (const interval of entry?.busy ?? []) {
            busy.push({ start: Date.parse(interval.start ?? ''), end: Date.parse(interval.end ?? '') });
          }
        }
        const hours = input.workingHours ?? { start: '09:00', end: '18:00' };
        const slots = findFreeSlots({
          window: span,
          busy: busy.filter((interval) => !Number.isNaN(interval.start) && !Number.isNaN(interval.end)),
          durationMinutes: input.durationMinutes,
          hours: {
            startMinute: minutesOf(hours.start),
            endMinute: minutesOf(hours.end),
            includeWeekends: input.includeWeekends ?? false,
          },
          timeZone,
          maxSlots: input.maxSlots ?? 10,
        });
        return {
          timeZone,
          slots: slots.map((slot) => ({
            start: formatInZone(slot.start, timeZone),
            end: formatInZone(slot.end, timeZone),
          })),
          unknown,
        };
      });
    },
  };

  return [calendarSearch, checkAvailability];
}

function minutesOf(clockTime: string): number {
  const [hours, minutes] = clockTime.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}
