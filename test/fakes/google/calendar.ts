import { randomBytes } from 'node:crypto';
import { googleError, type FakeHandler, type FakeRequest, type FakeResponse } from '../http-kit';

/** An event time as Calendar v3 writes it: a dateTime (RFC 3339) for timed events, a date for all-day ones. */
export interface FakeEventTime {
  dateTime?: string;
  date?: string;
  timeZone?: string;
}

export interface FakeAttendee {
  email: string;
  responseStatus?: 'needsAction' | 'declined' | 'tentative' | 'accepted';
  organizer?: boolean;
  self?: boolean;
}

/** The fields of a Calendar v3 event resource the fake keeps; stored and returned in Google's shape. */
export interface FakeEvent {
  kind: 'calendar#event';
  id: string;
  status: 'confirmed' | 'tentative' | 'cancelled';
  htmlLink: string;
  created: string;
  updated: string;
  summary?: string;
  description?: string;
  location?: string;
  creator: { email: string; self?: boolean };
  organizer: { email: string; self?: boolean };
  start: FakeEventTime;
  end: FakeEventTime;
  attendees?: FakeAttendee[];
  transparency?: 'opaque' | 'transparent';
  extendedProperties?: { private?: Record<string, string>; shared?: Record<string, string> };
  iCalUID: string;
  sequence: number;
}

export interface CalendarWrite {
  calendarId: string;
  event: FakeEvent;
  /** The sendUpdates query parameter as sent ('all', 'externalOnly', 'none'), or null when absent. */
  sendUpdates: string | null;
}

export interface CalendarFakeState {
  /** The signed-in user's address; `primary` and this address name the same calendar. */
  ownerEmail: string;
  /** Seeds an event (on `primary` unless `calendarId` says otherwise); it is not counted in `created`. */
  addEvent(event: Partial<FakeEvent> & Pick<FakeEvent, 'start' | 'end'>, calendarId?: string): FakeEvent;
  /** Seeds busy time for another person's calendar, as free/busy would report it. */
  setBusy(email: string, intervals: { start: string; end: string }[]): void;
  /** The events of one calendar, cancelled ones included. */
  events(calendarId?: string): FakeEvent[];
  /** Every event created through the API, in order: duplicates by deputyKey can be counted here. */
  created: CalendarWrite[];
  /** Every PATCH and PUT, in order, with the event as it was afterwards. */
  updated: CalendarWrite[];
}

const EVENTS_PATH = /^\/calendar\/v3\/calendars\/([^/]+)\/events$/;
const EVENT_PATH = /^\/calendar\/v3\/calendars\/([^/]+)\/events\/([^/]+)$/;
const MUTABLE_FIELDS = [
  'summary',
  'description',
  'location',
  'start',
  'end',
  'attendees',
  'transparency',
  'status',
  'extendedProperties',
] as const;

/** A stateful subset of Calendar v3: events list/get/insert/patch/update and freeBusy.query. */
export function createCalendarFake(): { handler: FakeHandler; state: CalendarFakeState } {
  const calendars = new Map<string, FakeEvent[]>([['primary', []]]);
  const busy = new Map<string, { start: string; end: string }[]>();
  const state: CalendarFakeState = {
    ownerEmail: 'me@example.com',
    addEvent: (event, calendarId = 'primary') => {
      const stored = newEvent(event as Record<string, unknown>, state.ownerEmail);
      calendarOf(calendarId).push(stored);
      return stored;
    },
    setBusy: (email, intervals) => busy.set(email.toLowerCase(), intervals),
    events: (calendarId = 'primary') => calendarOf(calendarId),
    created: [],
    updated: [],
  };

  function calendarKey(calendarId: string): string {
    const id = calendarId.toLowerCase();
    return id === state.ownerEmail ? 'primary' : id;
  }

  function calendarOf(calendarId: string): FakeEvent[] {
    const key = calendarKey(calendarId);
    let events = calendars.get(key);
    if (!events) {
      events = [];
      calendars.set(key, events);
    }
    return events;
  }

  const handler: FakeHandler = (request) => {
    if (request.method === 'POST' && request.path === '/calendar/v3/freeBusy') return freeBusy(request);
    const list = EVENTS_PATH.exec(request.path);
    if (list) {
      const events = calendars.get(calendarKey(decodeURIComponent(list[1] ?? '')));
      if (!events) return googleError(404, 'Not Found', 'notFound');
      if (request.method === 'GET') return listEvents(events, request.query);
      if (request.method === 'POST') return insertEvent(events, request, decodeURIComponent(list[1] ?? ''));
      return null;
    }
    const one = EVENT_PATH.exec(request.path);
    if (!one) return null;
    const calendarId = decodeURIComponent(one[1] ?? '');
    const events = calendars.get(calendarKey(calendarId));
    if (!events) return googleError(404, 'Not Found', 'notFound');
    const event = events.find((candidate) => candidate.id === decodeURIComponent(one[2] ?? ''));
    if (!event || event.status === 'cancelled') return googleError(404, 'Not Found', 'notFound');
    if (request.method === 'GET') return { status: 200, json: event };
    if (request.method === 'PATCH' || request.method === 'PUT') {
      return writeEvent(events, event, request, calendarId, request.method === 'PUT');
    }
    if (request.method === 'DELETE') {
      // Google keeps a deleted event as cancelled (listed only with showDeleted) and answers 204.
      event.status = 'cancelled';
      return { status: 204 };
    }
    return null;
  };

  function insertEvent(events: FakeEvent[], request: FakeRequest, calendarId: string): FakeResponse {
    const body = request.json;
    if (!isRecord(body)) return googleError(400, 'Invalid JSON payload received.', 'parseError');
    const invalid = checkTimes(body.start, body.end);
    if (invalid) return invalid;
    const event = newEvent(body, state.ownerEmail);
    events.push(event);
    state.created.push({ calendarId, event, sendUpdates: request.query.get('sendUpdates') });
    return { status: 200, json: event };
  }

  /**
   * PATCH changes the fields it names (null clears one) and, as Google does, merges an object field by field:
   * `start: { dateTime }` on an all-day event keeps its `date` unless `date: null` is sent too. PUT replaces the event's fields with its body. */
  function writeEvent(
    events: FakeEvent[],
    event: FakeEvent,
    request: FakeRequest,
    calendarId: string,
    isReplace: boolean,
  ): FakeResponse {
    const body = request.json;
    if (!isRecord(body)) return googleError(400, 'Invalid JSON payload received.', 'parseError');
    const next: Record<string, unknown> = { ...event };
    for (const field of MUTABLE_FIELDS) {
      if (field in body)
        next[field] = isReplace ? (body[field] ?? undefined) : patched(next[field], body[field]);
      else if (isReplace && field !== 'status') next[field] = undefined;
    }
    const invalid = checkTimes(next.start, next.end);
    if (invalid) return invalid;
    next.attendees = attendeesOf(next.attendees);
    const written = {
      ...Object.fromEntries(Object.entries(next).filter(([, value]) => value !== undefined)),
      updated: new Date().toISOString(),
      sequence: event.sequence + 1,
    } as FakeEvent;
    events.splice(events.indexOf(event), 1, written);
    state.updated.push({ calendarId, event: written, sendUpdates: request.query.get('sendUpdates') });
    return { status: 200, json: written };
  }

  function freeBusy(request: FakeRequest): FakeResponse {
    const body = request.json;
    if (!isRecord(body) || typeof body.timeMin !== 'string' || typeof body.timeMax !== 'string') {
      return googleError(400, 'Missing timeMin or timeMax.', 'required');
    }
    const from = Date.parse(body.timeMin);
    const to = Date.parse(body.timeMax);
    if (!(to > from)) return googleError(400, 'The specified time range is empty.', 'timeRangeEmpty');
    const items = Array.isArray(body.items) ? body.items : [];
    const result: Record<string, unknown> = {};
    for (const item of items) {
      const id = isRecord(item) && typeof item.id === 'string' ? item.id : '';
      const key = calendarKey(id);
      const seeded = busy.get(key);
      if (!calendars.has(key) && !seeded) {
        result[id] = { busy: [], errors: [{ domain: 'global', reason: 'notFound' }] };
        continue;
      }
      const intervals = [
        ...(seeded ?? []).map((interval) => ({
          start: Date.parse(interval.start),
          end: Date.parse(interval.end),
        })),
        ...(calendars.get(key) ?? []).filter(isBusyTime).map((event) => ({
          start: Date.parse(event.start.dateTime ?? ''),
          end: Date.parse(event.end.dateTime ?? ''),
        })),
      ];
      result[id] = {
        busy: mergeSorted(intervals, from, to).map((interval) => ({
          start: new Date(interval.start).toISOString().replace('.000Z', 'Z'),
          end: new Date(interval.end).toISOString().replace('.000Z', 'Z'),
        })),
      };
    }
    return {
      status: 200,
      json: { kind: 'calendar#freeBusy', timeMin: body.timeMin, timeMax: body.timeMax, calendars: result },
    };
  }

  return { handler, state };
}

function listEvents(events: FakeEvent[], query: URLSearchParams): FakeResponse {
  const orderBy = query.get('orderBy');
  // Google refuses to order by start time unless recurring events are expanded.
  if (orderBy === 'startTime' && query.get('singleEvents') !== 'true') {
    return googleError(400, 'The requested ordering is not available for the particular query.', 'invalid');
  }
  const timeMin = query.get('timeMin');
  const timeMax = query.get('timeMax');
  const text = query.get('q')?.toLowerCase();
  const properties = query
    .getAll('privateExtendedProperty')
    .map((pair) => pair.split('=', 2) as [string, string?]);
  const maxResults = Number(query.get('maxResults') ?? 250);
  let found = events.filter((event) => {
    if (event.status === 'cancelled') return false;
    if (timeMin && endOf(event) <= Date.parse(timeMin)) return false;
    if (timeMax && startOf(event) >= Date.parse(timeMax)) return false;
    if (text && !searchableText(event).includes(text)) return false;
    return properties.every(([key, value]) => event.extendedProperties?.private?.[key] === value);
  });
  if (orderBy === 'startTime') found = [...found].sort((a, b) => startOf(a) - startOf(b));
  return {
    status: 200,
    json: {
      kind: 'calendar#events',
      summary: 'primary',
      timeZone: 'UTC',
      updated: new Date().toISOString(),
      items: found.slice(0, maxResults),
      ...(found.length > maxResults && { nextPageToken: 'fake-next-page' }),
    },
  };
}

function newEvent(body: Record<string, unknown>, ownerEmail: string): FakeEvent {
  const id = typeof body.id === 'string' ? body.id : randomBytes(13).toString('hex');
  const now = new Date().toISOString();
  const event: FakeEvent = {
    kind: 'calendar#event',
    id,
    status: 'confirmed',
    htmlLink: `https://www.google.com/calendar/event?eid=${Buffer.from(id).toString('base64url')}`,
    created: now,
    updated: now,
    creator: { email: ownerEmail, self: true },
    organizer: { email: ownerEmail, self: true },
    start: body.start as FakeEventTime,
    end: body.end as FakeEventTime,
    iCalUID: `${id}@google.com`,
    sequence: 0,
  };
  for (const field of MUTABLE_FIELDS) {
    if (body[field] !== undefined && field !== 'start' && field !== 'end')
      Object.assign(event, { [field]: body[field] });
  }
  for (const field of ['organizer', 'creator'] as const) {
    if (isRecord(body[field])) event[field] = body[field] as FakeEvent[typeof field];
  }
  const attendees = attendeesOf(body.attendees);
  if (attendees) event.attendees = attendees;
  else delete event.attendees;
  return event;
}

function attendeesOf(value: unknown): FakeAttendee[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.filter(isRecord).map((attendee) => ({
    ...(attendee as unknown as FakeAttendee),
    responseStatus: (attendee.responseStatus as FakeAttendee['responseStatus']) ?? 'needsAction',
  }));
}

/** Google's patch semantics: objects merge recursively, null clears, anything else (arrays too) replaces. */
function patched(current: unknown, change: unknown): unknown {
  if (change === null) return undefined;
  const isObject = (value: unknown): value is Record<string, unknown> =>
    isRecord(value) && !Array.isArray(value);
  if (!isObject(current) || !isObject(change)) return change;
  const keys = new Set([...Object.keys(current), ...Object.keys(change)]);
  const merged = [...keys].map((key) => [
    key,
    key in change ? patched(current[key], change[key]) : current[key],
  ]);
  return Object.fromEntries(merged.filter(([, value]) => value !== undefined));
}

function checkTimes(start: unknown, end: unknown): FakeResponse | null {
  if (!isTime(start)) return googleError(400, 'Missing start time.', 'required');
  if (!isTime(end)) return googleError(400, 'Missing end time.', 'required');
  if (timeOf(end) <= timeOf(start))
    return googleError(400, 'The specified time range is empty.', 'timeRangeEmpty');
  return null;
}

function isTime(value: unknown): value is FakeEventTime {
  return (
    isRecord(value) &&
    // Exactly one of the two: an event is all-day or timed, never both.
    (typeof value.dateTime === 'string') !== (typeof value.date === 'string') &&
    !Number.isNaN(timeOf(value as FakeEventTime))
  );
}

/** All-day dates are read as UTC midnight: close enough for ordering and overlap in a fake. */
function timeOf(time: FakeEventTime): number {
  return Date.parse(time.dateTime ?? `${time.date ?? ''}T00:00:00Z`);
}

const startOf = (event: FakeEvent): number => timeOf(event.start);
const endOf = (event: FakeEvent): number => timeOf(event.end);

/** Timed, opaque, not cancelled and not declined by the owner: what makes the owner busy. */
function isBusyTime(event: FakeEvent): boolean {
  return (
    event.status !== 'cancelled' &&
    event.transparency !== 'transparent' &&
    event.start.dateTime !== undefined &&
    event.end.dateTime !== undefined &&
    !event.attendees?.some((attendee) => attendee.self && attendee.responseStatus === 'declined')
  );
}

function searchableText(event: FakeEvent): string {
  return [event.summary, event.description, event.location, ...(event.attendees ?? []).map((a) => a.email)]
    .filter(Boolean)
    .join('\n')
    .toLowerCase();
}

/** Kept apart from the product's mergeIntervals, so a mistake there is not mirrored by the fake. */
function mergeSorted(intervals: { start: number; end: number }[], from: number, to: number) {
  const clipped = intervals
    .map((interval) => ({ start: Math.max(interval.start, from), end: Math.min(interval.end, to) }))
    .filter((interval) => interval.end > interval.start)
    .sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const interval of clipped) {
    const last = merged.at(-1);
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push(interval);
  }
  return merged;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
