import type { calendar_v3 } from '@googleapis/calendar';
import type { ApprovalPreview } from '../../../shared/contract';
import { describeWhen, uniqueEmails } from './calendar-events';
import type { Reach, Recipient } from '../tool';
import { quoted } from '../../../shared/quote-words';

/** What calendar_event_update is asked to change (its checked input). */
export interface UpdateRequest {
  eventId: string;
  summary?: string | undefined;
  start?: string | undefined;
  end?: string | undefined;
  description?: string | null | undefined;
  location?: string | null | undefined;
  addAttendees?: string[] | undefined;
  removeAttendees?: string[] | undefined;
  timeZone?: string | undefined;
  notify?: boolean | undefined;
}

/**
 * Who an update reaches. With notifications on, Google mails every attendee of the changed event (the ones
 * taken off are told too) and invites the added ones; the person's own entry is not a recipient. With them
 * off, only the added guests are reached: they are on the event even if nobody mails them.
 */
export function toldOfUpdate(event: calendar_v3.Schema$Event, input: UpdateRequest): Recipient[] {
  const added = uniqueEmails(input.addAttendees ?? []).map((address) => ({ address, role: 'invited' }));
  if (input.notify === false) return added;
  const removed = new Set(uniqueEmails(input.removeAttendees ?? []));
  const current = (event.attendees ?? [])
    .filter((attendee) => attendee.email && !attendee.self)
    .map((attendee) => ({
      address: (attendee.email ?? '').toLowerCase(),
      role: removed.has((attendee.email ?? '').toLowerCase())
        ? 'taken off, told of it'
        : 'attendee, told of the change',
      ...(attendee.displayName && { name: attendee.displayName }),
    }));
  const present = new Set(current.map((recipient) => recipient.address));
  return [...current, ...added.filter((recipient) => !present.has(recipient.address))];
}

/**
 * The event by title and time (once read), then what changes. Who will be told is the preview's reach list;
 * when nobody will be, it says so and why.
 */
export function updatePreview(
  input: UpdateRequest,
  reach: Reach | undefined,
  timeZone: string,
): ApprovalPreview {
  const quiet =
    input.notify === false
      ? 'No one: the change is made without notifications'
      : 'No one: the event has no other guests';
  return {
    title: reach?.target
      ? `Change ${reach.target}`
      : input.summary
        ? `Change the event ${quoted(input.summary)}`
        : 'Change a calendar event',
    fields: [
      ...(reach?.target ? [] : [{ label: 'Event', value: input.eventId }]),
      ...(reach && reach.recipients.length === 0 ? [{ label: 'Will be told', value: quiet }] : []),
    ],
    changes: requestedChanges(input, timeZone),
  };
}

/** The preview cannot read the event, so "before" is the current value and "after" is what was asked for. */
function requestedChanges(
  input: UpdateRequest,
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
