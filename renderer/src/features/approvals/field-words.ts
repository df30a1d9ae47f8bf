/** How the approval editor names an argument and which arguments are moments in time. */

const LABELS: Record<string, string> = {
  to: 'To',
  cc: 'Cc',
  bcc: 'Bcc',
  subject: 'Subject',
  body: 'Message',
  text: 'Text',
  summary: 'Title',
  description: 'Description',
  notes: 'Notes',
  due: 'Due',
  start: 'Starts',
  end: 'Ends',
  location: 'Place',
  attendees: 'Guests',
  timeZone: 'Time zone',
  channel: 'Channel',
  thread_ts: 'Reply in thread',
  replyToMessageId: 'In reply to (message)',
  eventId: 'Event',
  id: 'Item',
  q: 'Search for',
  query: 'Search for',
};

/** "replyToMessageId" → "Reply to message id", unless a better name is known. */
export function fieldLabel(name: string): string {
  const known = LABELS[name];
  if (known) return known;
  const words = name
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const WHEN_NAMES = new Set(['due', 'start', 'end', 'oldest', 'timeMin', 'timeMax']);

/** A text argument that holds an ISO date or date-time gets date and time pickers. */
export function isMoment(name: string, description: string | null): boolean {
  return WHEN_NAMES.has(name) || /ISO date|date-time/i.test(description ?? '');
}

const OFFSET = /(Z|[+-]\d\d:\d\d)$/;

/** "2026-03-09T14:00:00+01:00" → { date: "2026-03-09", time: "14:00" }; a date alone has no time. */
export function splitMoment(value: string): { date: string; time: string } {
  const match = /^(\d{4}-\d\d-\d\d)(?:T(\d\d:\d\d))?/.exec(value.trim());
  return { date: match?.[1] ?? '', time: match?.[2] ?? '' };
}

/**
 * The pickers' date and time as the argument: a date alone, or a date-time that keeps the offset the
 * original value had (so 14:00 stays 14:00 where the event is).
 */
export function joinMoment(date: string, time: string, original: unknown): string {
  if (!date) return '';
  if (!time) return date;
  const offset = typeof original === 'string' ? (OFFSET.exec(original)?.[1] ?? '') : '';
  const seconds = offset ? ':00' : '';
  return `${date}T${time}${seconds}${offset}`;
}
