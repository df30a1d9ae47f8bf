import type { calendar_v3 } from '@googleapis/calendar';
import { deleteOnGoogle, isGoneOnGoogle } from '../google-call';
import { z } from 'zod';
import type { CalendarCall, CalendarToolOptions } from './calendar-api';
import {
  DEPUTY_KEY_PROPERTY,
  EventView,
  MAX_ATTENDEES,
  attendeeSchema,
  describeEvent,
  describeWhen,
  eventOrigin,
  eventTimeSchema,
  eventTimesProblem,
  eventView,
  timeZoneSchema,
  toGoogleTime,
  uniqueEmails,
} from './calendar-events';
import { toldOfUpdate, updatePreview } from './calendar-update-preview';
import { ToolError, type Tool, type ToolContext } from '../tool';

const attendeeList = z.array(attendeeSchema).max(MAX_ATTENDEES);

const EventFields = {
  summary: z.string().trim().min(1).max(300),
  start: eventTimeSchema.describe(
    'A date-time with offset (2026-03-09T14:00:00+01:00), or a date (2026-03-09) for an all-day event.',
  ),
  end: eventTimeSchema.describe('A date-time with offset, or for an all-day event its last day (inclusive).'),
  description: z.string().trim().max(8_000),
  location: z.string().trim().max(500),
  timeZone: timeZoneSchema.describe("IANA zone for the event; the user's time zone by default."),
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
    notify: z
      .boolean()
      .optional()
      .describe('false to change the event without telling anyone; attendees are told by default.'),
  })
  .strict()
  .superRefine((input, context) => {
    const { eventId: _eventId, timeZone: _timeZone, notify: _notify, ...changes } = input;
    if (Object.values(changes).every((value) => value === undefined)) {
      context.addIssue({ code: 'custom', message: 'give at least one field to change' });
    }
    if ((input.start === undefined) !== (input.end === undefined)) {
      context.addIssue({ code: 'custom', message: 'give start and end together', path: ['end'] });
    }
    const problem = input.start && input.end ? eventTimesProblem(input.start, input.end) : null;
    if (problem) context.addIssue({ code: 'custom', message: problem, path: ['end'] });
  });

type CreateInput = z.infer<typeof CreateInput>;
type UpdateInput = z.infer<typeof UpdateInput>;

const CreateOutput = z.object({
  event: EventView,
  /** The same call had already created this event (a retry or a resumed run), so nothing new was made. */
  wasAlreadyCreated: z.boolean(),
});
type CreateOutput = z.infer<typeof CreateOutput>;
const UpdateOutput = z.object({ before: EventView, after: EventView });

/** The Calendar tools with side effects: calendar_event_create and calendar_event_update. */
export function createCalendarWriteTools(call: CalendarCall, options: CalendarToolOptions): Tool[] {
  /**
   * The event this call already created, as calendar_event_create reports it, or null. Every event Deputy
   * creates carries the call's idempotency key as a private extended property, so a retried or resumed call
   * finds it instead of making another. Only reads.
   */
  const findCreated = (context: ToolContext): Promise<CreateOutput | null> =>
    call('looking for the event this call already created', async (client) => {
      const { data } = await client.events.list(
        {
          calendarId: 'primary',
          privateExtendedProperty: [`${DEPUTY_KEY_PROPERTY}=${context.idempotencyKey}`],
          maxResults: 1,
        },
        { signal: context.signal },
      );
      const found = data.items?.[0];
      return found ? { event: eventView(found), wasAlreadyCreated: true } : null;
    });

  /** The event as it is now, or null once it is deleted (cancelled, or gone). */
  const readEvent = (eventId: string | null): Promise<EventView | null> =>
    call('reading the event as it is now', async (client) => {
      if (!eventId) return null;
      try {
        const { data } = await client.events.get({ calendarId: 'primary', eventId });
        return data.status === 'cancelled' ? null : eventView(data);
      } catch (error) {
        if (isGoneOnGoogle(error)) return null;
        throw error;
      }
    });

  const createEvent: Tool<CreateInput, CreateOutput> = {
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
    reach: (input) => ({
      recipients: uniqueEmails(input.attendees ?? []).map((address) => ({ address, role: 'invited' })),
    }),
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
    execute: async (input, context) => {
      const timeZone = input.timeZone ?? options.timezone();
      assertEventTimes(input.start, input.end, timeZone);
      const attendees = uniqueEmails(input.attendees ?? []);
      const existing = await findCreated(context);
      if (existing) return existing;
      return call('creating the calendar event', async (client) => {
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
    reconcile: (_input, context) => findCreated(context),
    effect: (_input, output) => ({
      entityType: 'calendar_event',
      entityId: output.event.id,
      before: null,
      after: output.event,
    }),
    current: ({ entityId }) => readEvent(entityId),
    // Deleting the event it created; its guests are told, as they were told of the invitation.
    undo: ({ output }) => {
      const { event } = CreateOutput.parse(output);
      return call('deleting the event it created', async (client) => {
        const remove = () =>
          client.events.delete({
            calendarId: 'primary',
            eventId: event.id,
            sendUpdates: event.attendees.length > 0 ? 'all' : 'none',
          });
        return { deleted: event.id, ...(await deleteOnGoogle(remove)) };
      });
    },
  };

  const updateEvent: Tool<UpdateInput, z.infer<typeof UpdateOutput>> = {
    name: 'calendar_event_update',
    description:
      "Change an event in the user's Google Calendar: only the fields given change. Attendees are sent the update.",
    input: UpdateInput,
    output: UpdateOutput,
    category: 'update',
    risk: 'medium',
    hasSideEffects: true,
    requires: 'google',
    actionKind: 'calendar.update',
    isExternal: true,
    recipients: (input) => uniqueEmails(input.addAttendees ?? []),
    reach: (input, context) =>
      call('reading the event to see who would be told', async (client) => {
        const { data } = await client.events.get(
          { calendarId: 'primary', eventId: input.eventId },
          { signal: context.signal },
        );
        return {
          recipients: toldOfUpdate(data, input),
          target: describeEvent(eventView(data), options.timezone()),
        };
      }),
    preview: (input, reach) => updatePreview(input, reach, options.timezone()),
    provenance: (output) => [eventOrigin(output.before)],
    effect: (input, output) => ({
      entityType: 'calendar_event',
      entityId: input.eventId,
      before: output.before,
      after: output.after,
    }),
    current: ({ input }) => readEvent(input.eventId),
    // Puts back what the update changed, from the event as it was before (`entityBefore`).
    undo: ({ input, output }) => {
      const { before } = UpdateOutput.parse(output);
      return call('restoring the event as it was', async (client) => {
        const { data } = await client.events.patch({
          calendarId: 'primary',
          eventId: input.eventId,
          sendUpdates: before.attendees.length > 0 && input.notify !== false ? 'all' : 'none',
          requestBody: restoredEvent(before),
        });
        return { restored: eventView(data) };
      });
    },
    execute: (input, context) => {
      return call('updating the calendar event', async (client) => {
        const { data: before } = await client.events.get(
          { calendarId: 'primary', eventId: input.eventId },
          { signal: context.signal },
        );
        // Read local times as the preview did, so what was approved is what is written.
        const timeZone = input.timeZone ?? options.timezone();
        const patch: calendar_v3.Schema$Event = {};
        if (input.summary !== undefined) patch.summary = input.summary;
        if (input.description !== undefined) patch.description = input.description;
        if (input.location !== undefined) patch.location = input.location;
        if (input.start !== undefined && input.end !== undefined) {
          assertEventTimes(input.start, input.end, timeZone);
          patch.start = patchedTime(toGoogleTime(input.start, 'start', timeZone));
          patch.end = patchedTime(toGoogleTime(input.end, 'end', timeZone));
        }
        const attendees = before.attendees ?? [];
        if (input.addAttendees || input.removeAttendees) patch.attendees = changedAttendees(attendees, input);
        const isShared = attendees.length > 0 || (patch.attendees?.length ?? 0) > 0;
        // The person can choose a quiet change: nobody gets mail about it (the reach was read the same way).
        const shouldTell = isShared && input.notify !== false;
        const { data: after } = await client.events.patch(
          {
            calendarId: 'primary',
            eventId: input.eventId,
            sendUpdates: shouldTell ? 'all' : 'none',
            requestBody: patch,
          },
          { signal: context.signal },
        );
        return { before: eventView(before), after: eventView(after) };
      });
    },
  };

  return [createEvent, updateEvent];
}

/**
 * Google's patch merges start and end field by field, so switching an event between all-day and timed would
 * keep the old kind beside the new one: the other kind is cleared with an explicit null.
 */
function patchedTime(time: calendar_v3.Schema$EventDateTime): calendar_v3.Schema$EventDateTime {
  return time.date ? { date: time.date, dateTime: null, timeZone: null } : { ...time, date: null };
}

/** The fields an update can change, as they were: what an undo writes back. */
function restoredEvent(before: EventView): calendar_v3.Schema$Event {
  const time = (value: string, edge: 'start' | 'end'): calendar_v3.Schema$EventDateTime =>
    patchedTime(before.isAllDay ? toGoogleTime(value, edge, 'UTC') : { dateTime: value });
  return {
    summary: before.summary,
    description: before.description,
    location: before.location,
    start: time(before.start, 'start'),
    end: time(before.end, 'end'),
    attendees: before.attendees.map((attendee) => ({
      email: attendee.email,
      responseStatus: attendee.responseStatus,
    })),
  };
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

const field = (label: string, value: string | null | undefined): { label: string; value: string }[] =>
  value ? [{ label, value }] : [];
