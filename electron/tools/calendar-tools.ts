import { calendar, type calendar_v3 } from '@googleapis/calendar';
import { z } from 'zod';
import type { GoogleAccess } from '../connections/access';
import {
  DEPUTY_KEY_PROPERTY,
  EventView,
  describeWhen,
  eventTimeSchema,
  eventTimesProblem,
  eventView,
  instantIn,
  parseEventTime,
  timeZoneSchema,
  toGoogleTime,
} from './calendar-events';
import { findFreeSlots, formatInZone, instantOf, type Interval } from './calendar-slots';
import { googleToolError } from './google-errors';
import { ToolError, type Tool } from './tool';

export { DEPUTY_KEY_PROPERTY } from './calendar-events';

export interface CalendarToolOptions {
  now: () => Date;
  /** The user's IANA time zone: working hours, local times without an offset and previews are read in it. */
  timezone: () => string;
}

const DAY = 86_400_000;
const DEFAULT_SEARCH_DAYS = 7;
const MAX_WINDOW_DAYS = 62;
const MAX_ATTENDEES = 50;
const MAX_RESULTS = 50;

const email = z.email().max(320);
const attendeeList = z.array(email).max(MAX_ATTENDEES);
const boundSchema = eventTimeSchema.describe(
  'A date-time (2026-03-09T09:00:00+01:00; without an offset it is read in the user\u2019s time zone) or a date (the whole day).',
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
      .array(z.union([z.literal('primary'), email]))
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

const EventFields = {
  summary: z.string().trim().min(1).max(300),
  start: eventTimeSchema.describe(
    'A date-time with offset (2026-03-09T14:00:00+01:00), or a date (2026-03-09) for an all-day event.',
  ),
  end: eventTimeSchema.describe('A date-time with offset, or for an all-day event its last day (inclusive).'),
  description: z.string().trim().max(8_000),
  location: z.string().trim().max(500),
  timeZone: timeZoneSchema.describe('IANA zone for the event; the user\u2019s time zone by default.'),
};

const CreateInput = z
  .object({
    summary: EventFields.summary.describe('The event title.'),
    start: EventFields.start,
    end: EventFields.end,
    description: EventFields.description.optional(),
    location: EventFields.location.optional(),
    attendees: attendeeList.optional().describe('Guests to invite by email; they are sent an invitation.'),
    timeZone: EventFields.timeZone.optional(),
  })
  .strict()
  .superRefine((input, context) => {
    const problem = eventTimesProblem(input.start, input.end);
    if (problem) context.addIssue({ code: 'custom', message: problem, path: ['end'] });
  });

const UpdateInput = z
  .object({
    eventId: z.string().trim().min(1).max(1_024).describe('The event id, as calendar_search returns it.'),
    summary: EventFields.summary.optional(),
    start: EventFields.start.optional().describe('New start; give end with it.'),
    end: EventFields.end.optional().describe('New end; give start with it.'),
    description: EventFields.description
      .nullable()
      .optional()
      .describe('New description, or null to clear it.'),
    location: EventFields.location.nullable().optional().describe('New location, or null to clear it.'),
    addAttendees: attendeeList.optional().describe('Guests to invite.'),
    removeAttendees: attendeeList.optional().describe('Guests to take off the event.'),
    timeZone: EventFields.timeZone.optional(),
  })
  .strict()
  .superRefine((input, context) => {
    const { eventId: _eventId, timeZone: _timeZone, ...changes } = input;
    if (Object.values(changes).every((value) => value === undefined)) {
      context.addIssue({ code: 'custom', message: 'give at least one field to change' });
    }
    if ((input.start === undefined) !== (input.end === undefined)) {
      context.addIssue({ code: 'custom', message: 'give start and end together', path: ['end'] });
    }
    const problem = input.start && input.end ? eventTimesProblem(input.start, input.end) : null;
    if (problem) context.addIssue({ code: 'custom', message: problem, path: ['end'] });
  });

type SearchInput = z.infer<typeof SearchInput>;
type AvailabilityInput = z.infer<typeof AvailabilityInput>;
type CreateInput = z.infer<typeof CreateInput>;
type UpdateInput = z.infer<typeof UpdateInput>;

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
const CreateOutput = z.object({
  event: EventView,
  /** The same call had already created this event (a retry or a resumed run), so nothing new was made. */
  wasAlreadyCreated: z.boolean(),
});
const UpdateOutput = z.object({ before: EventView, after: EventView });

/** Google Calendar for the agent: search, free slots across people, create and update events. */
export function createCalendarTools(access: GoogleAccess, options: CalendarToolOptions): Tool[] {
  const api = async (): Promise<calendar_v3.Calendar> =>
    calendar({
      version: 'v3',
      auth: await access.authClient(),
      ...(access.apiRoot && { rootUrl: access.apiRoot }),
      // Retries belong to the engine's retry layer, which knows about idempotency and the run's budget.
      retry: false,
    });
  const call = async <T>(what: string, run: (client: calendar_v3.Calendar) => Promise<T>): Promise<T> => {
    try {
      return await run(await api());
    } catch (error) {
      throw googleToolError(error, what, options.now());
    }
  };
  const bound = (value: string, edge: 'start' | 'end', timeZone: string): number => {
    const time = parseEventTime(value);
    if (!time) throw new ToolError('invalid_arguments', `"${value}" is not a date or date-time.`);
    if (time.kind === 'dateTime') return instantIn(time, timeZone);
    const day = new Date(time.day + (edge === 'end' ? DAY : 0));
    const wall = {
      year: day.getUTCFullYear(),
      month: day.getUTCMonth() + 1,
      day: day.getUTCDate(),
      hour: 0,
      minute: 0,
    };
    return instantOf(wall, timeZone);
  };
  const timeRange = (start: string | undefined, end: string | undefined, timeZone: string): Interval => {
    const from = start === undefined ? options.now().getTime() : bound(start, 'start', timeZone);
    const to = end === undefined ? from + DEFAULT_SEARCH_DAYS * DAY : bound(end, 'end', timeZone);
    if (to <= from)
      throw new ToolError('invalid_arguments', 'The end of the time range must be after its start.');
    if (to - from > MAX_WINDOW_DAYS * DAY) {
      throw new ToolError('invalid_arguments', `Search at most ${MAX_WINDOW_DAYS} days at a time.`);
    }
    return { start: from, end: to };
  };

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
    isExternal: true,
    execute: (input, context) => {
      const timeZone = options.timezone();
      const range = timeRange(input.timeMin, input.timeMax, timeZone);
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
      'Find meeting slots when every attendee is free, from their Google Calendar free/busy, within working hours (weekdays 09:00–18:00 in the user\u2019s time zone by default).',
    input: AvailabilityInput,
    output: AvailabilityOutput,
    category: 'compute',
    risk: 'low',
    hasSideEffects: false,
    requires: 'google',
    isExternal: true,
    execute: (input, context) => {
      const timeZone = options.timezone();
      const span = timeRange(input.start, input.end, timeZone);
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

  const createEvent: Tool<CreateInput, z.infer<typeof CreateOutput>> = {
    name: 'calendar_event_create',
    description:
      "Create an event in the user's Google Calendar; attendees are sent an invitation. All-day events take dates, and their end is the last day.",
    input: CreateInput,
    output: CreateOutput,
    category: 'create',
    risk: 'medium',
    hasSideEffects: true,
    requires: 'google',
    actionKind: 'calendar.create',
    // Every call reaches Google; with attendees it also reaches other people (see recipients).
    isExternal: true,
    recipients: (input) => uniqueEmails(input.attendees ?? []),
    preview: (input) => ({
      title: `Create an event: ${input.summary}`,
      fields: [
        {
          label: 'When',
          value: describeWhen(
            input.start,
            input.end,
            input.timeZone ?? options.timezone(),
            options.timezone(),
          ),
        },
        ...field('Attendees', uniqueEmails(input.attendees ?? []).join(', ')),
        ...field('Location', input.location),
      ],
      ...(input.description && { body: input.description }),
    }),
    alwaysAllowScopes: (input) => {
      const [only, ...others] = uniqueEmails(input.attendees ?? []);
      return only && others.length === 0
        ? [{ field: 'recipients', pattern: only, label: `Always allow creating events with ${only}` }]
        : [];
    },
    execute: (input, context) => {
      const timeZone = input.timeZone ?? options.timezone();
      assertEventTimes(input.start, input.end, timeZone);
      const attendees = uniqueEmails(input.attendees ?? []);
      return call('creating the calendar event', async (client) => {
        // The key makes a retried or resumed call find the event it already made instead of making another.
        const existing = await client.events.list(
          {
            calendarId: 'primary',
            privateExtendedProperty: [`${DEPUTY_KEY_PROPERTY}=${context.idempotencyKey}`],
            maxResults: 1,
          },
          { signal: context.signal },
        );
        const found = existing.data.items?.[0];
        if (found) return { event: eventView(found), wasAlreadyCreated: true };
        const { data } = await client.events.insert(
          {
            calendarId: 'primary',
            sendUpdates: attendees.length > 0 ? 'all' : 'none',
            requestBody: {
              summary: input.summary,
              start: toGoogleTime(input.start, 'start', timeZone),
              end: toGoogleTime(input.end, 'end', timeZone),
              ...(input.description && { description: input.description }),
              ...(input.location && { location: input.location }),
              ...(attendees.length > 0 && { attendees: attendees.map((address) => ({ email: address })) }),
              extendedProperties: { private: { [DEPUTY_KEY_PROPERTY]: context.idempotencyKey } },
            },
          },
          { signal: context.signal },
        );
        return { event: eventView(data), wasAlreadyCreated: false };
      });
    },
  };

  const updateEvent: Tool<UpdateInput, z.infer<typeof UpdateOutput>> = {
    name: 'calendar_event_update',
    description:
      'Change an event in the user\u2019s Google Calendar: only the fields given change. Attendees are sent the update.',
    input: UpdateInput,
    output: UpdateOutput,
    category: 'update',
    risk: 'medium',
    hasSideEffects: true,
    requires: 'google',
    actionKind: 'calendar.update',
    isExternal: true,
    recipients: (input) => uniqueEmails(input.addAttendees ?? []),
    preview: (input) => ({
      title: input.summary ? `Change the event "${input.summary}"` : 'Change a calendar event',
      fields: [{ label: 'Event', value: input.eventId }],
      changes: requestedChanges(input, options.timezone()),
    }),
    execute: (input, context) => {
      return call('updating the calendar event', async (client) => {
        const { data: before } = await client.events.get(
          { calendarId: 'primary', eventId: input.eventId },
          { signal: context.signal },
        );
        const timeZone = input.timeZone ?? before.start?.timeZone ?? options.timezone();
        const patch: calendar_v3.Schema$Event = {};
        if (input.summary !== undefined) patch.summary = input.summary;
        if (input.description !== undefined) patch.description = input.description;
        if (input.location !== undefined) patch.location = input.location;
        if (input.start !== undefined && input.end !== undefined) {
          assertEventTimes(input.start, input.end, timeZone);
          patch.start = toGoogleTime(input.start, 'start', timeZone);
          patch.end = toGoogleTime(input.end, 'end', timeZone);
        }
        const attendees = before.attendees ?? [];
        if (input.addAttendees || input.removeAttendees) patch.attendees = changedAttendees(attendees, input);
        const isShared = attendees.length > 0 || (patch.attendees?.length ?? 0) > 0;
        const { data: after } = await client.events.patch(
          {
            calendarId: 'primary',
            eventId: input.eventId,
            sendUpdates: isShared ? 'all' : 'none',
            requestBody: patch,
          },
          { signal: context.signal },
        );
        return { before: eventView(before), after: eventView(after) };
      });
    },
  };

  return [calendarSearch, checkAvailability, createEvent, updateEvent];
}

function assertEventTimes(start: string, end: string, timeZone: string): void {
  const problem = eventTimesProblem(start, end, timeZone);
  if (problem) throw new ToolError('invalid_arguments', `Cannot schedule that: ${problem}.`);
}

function changedAttendees(
  current: calendar_v3.Schema$EventAttendee[],
  input: Pick<UpdateInput, 'addAttendees' | 'removeAttendees'>,
): calendar_v3.Schema$EventAttendee[] {
  const removed = new Set(uniqueEmails(input.removeAttendees ?? []));
  const kept = current.filter((attendee) => !removed.has((attendee.email ?? '').toLowerCase()));
  const present = new Set(kept.map((attendee) => (attendee.email ?? '').toLowerCase()));
  const added = uniqueEmails(input.addAttendees ?? []).filter((address) => !present.has(address));
  const next = [...kept, ...added.map((address) => ({ email: address }))];
  if (next.length > MAX_ATTENDEES) {
    throw new ToolError('invalid_arguments', `An event can have at most ${MAX_ATTENDEES} attendees here.`);
  }
  return next;
}

/** The preview cannot read the event, so "before" is the current value and "after" is what was asked for. */
function requestedChanges(
  input: UpdateInput,
  timeZone: string,
): { label: string; before: string; after: string }[] {
  const current = '(current)';
  const change = (label: string, after: string | null | undefined) =>
    after === undefined ? [] : [{ label, before: current, after: after ?? '(none)' }];
  return [
    ...change('Title', input.summary),
    ...change(
      'When',
      input.start && input.end
        ? describeWhen(input.start, input.end, input.timeZone ?? timeZone, timeZone)
        : undefined,
    ),
    ...change('Location', input.location),
    ...change('Description', input.description),
    ...change('Invite', input.addAttendees?.length ? uniqueEmails(input.addAttendees).join(', ') : undefined),
    ...change(
      'Remove',
      input.removeAttendees?.length ? uniqueEmails(input.removeAttendees).join(', ') : undefined,
    ),
  ];
}

function uniqueEmails(addresses: readonly string[]): string[] {
  return [...new Set(addresses.map((address) => address.trim().toLowerCase()))];
}

function minutesOf(clockTime: string): number {
  const [hours, minutes] = clockTime.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

const field = (label: string, value: string | null | undefined): { label: string; value: string }[] =>
  value ? [{ label, value }] : [];
