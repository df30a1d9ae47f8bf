import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notConnected, type GoogleAccess } from '../../electron/connections/access';
import { DEPUTY_KEY_PROPERTY, createCalendarTools } from '../../electron/tools/calendar/calendar-tools';
import { ToolRegistry } from '../../electron/tools/registry';
import { ServiceError } from '../../electron/tools/service-errors';
import { ToolError, type Tool, type ToolContext } from '../../electron/tools/tool';
import { googleError, startFakeServer } from '../fakes/http-kit';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { signedInGoogle } from '../support/google-access';

// Monday 9 March 2026, 09:00 in Berlin (UTC+1 until the end of March).
const NOW = new Date('2026-03-09T08:00:00Z');
const ZONE = 'Europe/Berlin';

let fake: FakeGoogle;
let access: ReturnType<typeof signedInGoogle>;

beforeEach(async () => {
  fake = await startFakeGoogle();
  access = signedInGoogle(fake);
});
afterEach(async () => {
  await fake.close();
});

function toolsFor(googleAccess: GoogleAccess): Map<string, Tool> {
  const tools = createCalendarTools(googleAccess, { now: () => NOW, timezone: () => ZONE });
  return new Map(tools.map((tool) => [tool.name, tool]));
}

function tool(name: string, googleAccess: GoogleAccess = access): Tool {
  const found = toolsFor(googleAccess).get(name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

const context = (idempotencyKey = 'key-1'): ToolContext => ({
  runId: 'run-1',
  threadId: 'thread-1',
  actionId: 'action-1',
  idempotencyKey,
  signal: new AbortController().signal,
  now: () => NOW,
});

/** Runs a tool as the registry would: input parsed by its schema, output checked against its own. */
async function run(
  name: string,
  args: unknown,
  options: { key?: string; googleAccess?: GoogleAccess } = {},
): Promise<Record<string, unknown>> {
  const chosen = tool(name, options.googleAccess);
  const result = await chosen.execute(chosen.input.parse(args), context(options.key));
  expect(chosen.output.parse(result)).toEqual(result);
  return result;
}

async function failure(name: string, args: unknown, googleAccess?: GoogleAccess): Promise<ToolError> {
  const error = await run(name, args, { googleAccess }).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolError);
  const message = (error as ToolError).message;
  expect(message).not.toContain(access.client.credentials.access_token ?? 'no token');
  expect(message).not.toMatch(/ya29\.[\w-]/);
  return error as ToolError;
}

describe('declarations', () => {
  it('registers the four tools with JSON schemas the model can fill', () => {
    const registry = new ToolRegistry(createCalendarTools(access, { now: () => NOW, timezone: () => ZONE }));
    const declarations = new Map(
      registry.declarations().map((declaration) => [declaration.name, declaration]),
    );
    expect([...declarations.keys()]).toEqual([
      'calendar_search',
      'check_availability',
      'calendar_event_create',
      'calendar_event_update',
    ]);
    const create = declarations.get('calendar_event_create')?.parameters as {
      properties: object;
      required: string[];
    };
    expect(Object.keys(create.properties)).toEqual(
      expect.arrayContaining(['summary', 'start', 'end', 'attendees', 'intent']),
    );
    expect(create.required).toEqual(expect.arrayContaining(['summary', 'start', 'end']));
    for (const tool of registry.list()) expect(tool.requires).toBe('google');
  });
});

describe('calendar_search', () => {
  beforeEach(() => {
    fake.calendar.addEvent({
      id: 'review',
      summary: 'Design review',
      start: { dateTime: '2026-03-10T14:00:00+01:00' },
      end: { dateTime: '2026-03-10T15:00:00+01:00' },
      location: 'Room 4',
      attendees: [{ email: 'alice@example.com', responseStatus: 'accepted' }, { email: 'bob@example.com' }],
    });
    fake.calendar.addEvent({
      id: 'standup',
      summary: 'Standup',
      start: { dateTime: '2026-03-09T09:30:00+01:00' },
      end: { dateTime: '2026-03-09T09:45:00+01:00' },
    });
    fake.calendar.addEvent({
      id: 'offsite',
      summary: 'Offsite',
      start: { date: '2026-03-12' },
      end: { date: '2026-03-14' },
    });
    fake.calendar.addEvent({
      id: 'later',
      summary: 'Design retro',
      start: { dateTime: '2026-03-20T10:00:00+01:00' },
      end: { dateTime: '2026-03-20T11:00:00+01:00' },
    });
  });

  it('lists the next seven days in start order, in the shape the model reads', async () => {
    const result = await run('calendar_search', {});
    expect(result.timeMin).toBe('2026-03-09T09:00:00+01:00');
    expect(result.timeMax).toBe('2026-03-16T09:00:00+01:00');
    expect(result.isTruncated).toBe(false);
    const events = result.events as Record<string, unknown>[];
    expect(events.map((event) => event.id)).toEqual(['standup', 'review', 'offsite']);
    expect(events[1]).toEqual({
      id: 'review',
      summary: 'Design review',
      start: '2026-03-10T14:00:00+01:00',
      end: '2026-03-10T15:00:00+01:00',
      isAllDay: false,
      location: 'Room 4',
      description: null,
      attendees: [
        { email: 'alice@example.com', responseStatus: 'accepted' },
        { email: 'bob@example.com', responseStatus: 'needsAction' },
      ],
      organizer: 'me@example.com',
      htmlLink: expect.stringMatching(/^https:\/\/www\.google\.com\/calendar\/event\?eid=/) as string,
    });
    // Google's all-day end is exclusive; the model is given the last day.
    expect(events[2]).toMatchObject({ start: '2026-03-12', end: '2026-03-13', isAllDay: true });
    const request = fake.requests.find((r) => r.path === '/calendar/v3/calendars/primary/events');
    expect(request?.query.get('singleEvents')).toBe('true');
    expect(request?.query.get('orderBy')).toBe('startTime');
  });

  it('filters by words and a range given as dates, and says when it cut the list short', async () => {
    const found = await run('calendar_search', { q: 'design', timeMin: '2026-03-09', timeMax: '2026-03-31' });
    expect((found.events as { id: string }[]).map((event) => event.id)).toEqual(['review', 'later']);
    expect(found.timeMax).toBe('2026-04-01T00:00:00+02:00');
    const first = await run('calendar_search', { maxResults: 1 });
    expect((first.events as { id: string }[]).map((event) => event.id)).toEqual(['standup']);
    expect(first.isTruncated).toBe(true);
  });

  it('refuses a range that ends before it starts or is too long', async () => {
    expect((await failure('calendar_search', { timeMin: '2026-03-10', timeMax: '2026-03-09' })).code).toBe(
      'invalid_arguments',
    );
    expect((await failure('calendar_search', { timeMin: '2026-01-01', timeMax: '2026-12-31' })).code).toBe(
      'invalid_arguments',
    );
    expect(tool('calendar_search').input.safeParse({ maxResults: 51 }).success).toBe(false);
  });
});

describe('check_availability', () => {
  it('finds the hours when the user and two colleagues are all free, and names calendars it could not read', async () => {
    // Working hours in Berlin on Monday 9 March: 09:00–18:00 (08:00Z–17:00Z).
    fake.calendar.addEvent({
      summary: 'Mine',
      start: { dateTime: '2026-03-09T09:00:00+01:00' },
      end: { dateTime: '2026-03-09T10:00:00+01:00' },
    });
    fake.calendar.addEvent({
      summary: 'Free time does not count',
      transparency: 'transparent',
      start: { dateTime: '2026-03-09T13:00:00+01:00' },
      end: { dateTime: '2026-03-09T14:00:00+01:00' },
    });
    fake.calendar.setBusy('alice@example.com', [
      { start: '2026-03-09T09:30:00Z', end: '2026-03-09T10:30:00Z' },
    ]);
    fake.calendar.setBusy('bob@example.com', [
      { start: '2026-03-09T10:00:00Z', end: '2026-03-09T12:00:00Z' },
      { start: '2026-03-09T13:00:00Z', end: '2026-03-09T16:30:00Z' },
    ]);
    const result = await run('check_availability', {
      attendees: ['primary', 'Alice@Example.com', 'bob@example.com', 'carol@example.com'],
      start: '2026-03-09',
      end: '2026-03-09',
      durationMinutes: 60,
    });
    expect(result).toEqual({
      timeZone: ZONE,
      slots: [{ start: '2026-03-09T13:00:00+01:00', end: '2026-03-09T14:00:00+01:00' }],
      unknown: [{ attendee: 'carol@example.com', reason: 'notFound' }],
    });
    const query = fake.requests.find((request) => request.path === '/calendar/v3/freeBusy');
    expect(query?.json).toMatchObject({
      timeMin: '2026-03-08T23:00:00.000Z',
      timeMax: '2026-03-09T23:00:00.000Z',
      timeZone: ZONE,
      items: [
        { id: 'primary' },
        { id: 'alice@example.com' },
        { id: 'bob@example.com' },
        { id: 'carol@example.com' },
      ],
    });
  });

  it('honours working hours, weekends and maxSlots', async () => {
    fake.calendar.setBusy('alice@example.com', []);
    const args = {
      attendees: ['alice@example.com'],
      start: '2026-03-13T00:00:00',
      end: '2026-03-16T23:59:00',
      durationMinutes: 30,
      workingHours: { start: '10:00', end: '11:00' },
    };
    const weekdays = await run('check_availability', args);
    expect((weekdays.slots as { start: string }[]).map((slot) => slot.start)).toEqual([
      '2026-03-13T10:00:00+01:00',
      '2026-03-13T10:30:00+01:00',
      '2026-03-16T10:00:00+01:00',
      '2026-03-16T10:30:00+01:00',
    ]);
    const weekend = await run('check_availability', { ...args, includeWeekends: true, maxSlots: 3 });
    expect((weekend.slots as { start: string }[]).map((slot) => slot.start)).toEqual([
      '2026-03-13T10:00:00+01:00',
      '2026-03-13T10:30:00+01:00',
      '2026-03-14T10:00:00+01:00',
    ]);
  });

  it('checks its input: durations, attendee count, working hours', () => {
    const input = tool('check_availability').input;
    const base = { attendees: ['primary'], start: '2026-03-09', end: '2026-03-10', durationMinutes: 30 };
    expect(input.safeParse(base).success).toBe(true);
    expect(input.safeParse({ ...base, durationMinutes: 0 }).success).toBe(false);
    expect(input.safeParse({ ...base, durationMinutes: 24 * 60 }).success).toBe(false);
    expect(input.safeParse({ ...base, attendees: [] }).success).toBe(false);
    expect(input.safeParse({ ...base, attendees: ['not an address'] }).success).toBe(false);
    const many = Array.from({ length: 51 }, (_, i) => `person${i}@example.com`);
    expect(input.safeParse({ ...base, attendees: many }).success).toBe(false);
    expect(input.safeParse({ ...base, workingHours: { start: '18:00', end: '09:00' } }).success).toBe(false);
  });
});

describe('calendar_event_create', () => {
  const meeting = {
    summary: 'Planning',
    start: '2026-03-11T14:00:00',
    end: '2026-03-11T14:30:00',
    attendees: ['Alice@example.com', 'alice@example.com', 'bob@example.com'],
    location: 'Room 4',
    description: 'Q2 plan',
  };

  it('creates the event with the deputyKey property, invites attendees and sends them updates', async () => {
    const result = await run('calendar_event_create', meeting, { key: 'idem-42' });
    expect(result.wasAlreadyCreated).toBe(false);
    expect(result.event).toMatchObject({
      summary: 'Planning',
      start: '2026-03-11T14:00:00+01:00',
      end: '2026-03-11T14:30:00+01:00',
      location: 'Room 4',
      description: 'Q2 plan',
      attendees: [
        { email: 'alice@example.com', responseStatus: 'needsAction' },
        { email: 'bob@example.com', responseStatus: 'needsAction' },
      ],
    });
    expect(fake.calendar.created).toHaveLength(1);
    const [write] = fake.calendar.created;
    expect(write?.sendUpdates).toBe('all');
    expect(write?.event.extendedProperties?.private?.[DEPUTY_KEY_PROPERTY]).toBe('idem-42');
    expect(write?.event.start).toEqual({ dateTime: '2026-03-11T14:00:00+01:00', timeZone: ZONE });
  });

  it('does not create the event twice for the same call', async () => {
    const first = await run('calendar_event_create', meeting, { key: 'idem-42' });
    const again = await run('calendar_event_create', meeting, { key: 'idem-42' });
    expect(again.wasAlreadyCreated).toBe(true);
    expect((again.event as { id: string }).id).toBe((first.event as { id: string }).id);
    await run('calendar_event_create', meeting, { key: 'idem-43' });
    const keys = fake.calendar.created.map((write) => write.event.extendedProperties?.private?.deputyKey);
    expect(keys).toEqual(['idem-42', 'idem-43']);
    const lookup = fake.requests.filter((request) => request.query.has('privateExtendedProperty'));
    expect(lookup.map((request) => request.query.get('privateExtendedProperty'))).toEqual([
      'deputyKey=idem-42',
      'deputyKey=idem-42',
      'deputyKey=idem-43',
    ]);
  });

  it('sends no updates for a private event and takes all-day ends as the last day', async () => {
    const result = await run('calendar_event_create', {
      summary: 'Holiday',
      start: '2026-03-12',
      end: '2026-03-13',
    });
    expect(result.event).toMatchObject({
      start: '2026-03-12',
      end: '2026-03-13',
      isAllDay: true,
      attendees: [],
    });
    const [write] = fake.calendar.created;
    expect(write?.sendUpdates).toBe('none');
    expect(write?.event.start).toEqual({ date: '2026-03-12' });
    expect(write?.event.end).toEqual({ date: '2026-03-14' });
  });

  it('reads local times in the event zone when one is given', async () => {
    const result = await run('calendar_event_create', {
      summary: 'Call with New York',
      start: '2026-03-11T09:00:00',
      end: '2026-03-11T09:30:00',
      timeZone: 'America/New_York',
    });
    expect(result.event).toMatchObject({
      start: '2026-03-11T09:00:00-04:00',
      end: '2026-03-11T09:30:00-04:00',
    });
    const preview = tool('calendar_event_create').preview?.({
      summary: 'Call with New York',
      start: '2026-03-11T09:00:00',
      end: '2026-03-11T09:30:00',
      timeZone: 'America/New_York',
    });
    expect(preview?.fields).toContainEqual({
      label: 'When',
      value: 'Wed, 11 Mar 2026, 14:00 – 14:30 (Europe/Berlin)',
    });
  });

  it('describes itself to the policy: recipients, preview, one-attendee scopes', () => {
    const create = tool('calendar_event_create');
    expect(create).toMatchObject({
      category: 'create',
      risk: 'medium',
      hasSideEffects: true,
      requires: 'google',
      actionKind: 'calendar.create',
      isExternal: true,
    });
    const input = create.input.parse(meeting);
    expect(create.recipients?.(input)).toEqual(['alice@example.com', 'bob@example.com']);
    expect(create.preview?.(input)).toEqual({
      title: 'Create an event: Planning',
      fields: [
        { label: 'When', value: 'Wed, 11 Mar 2026, 14:00 – 14:30 (Europe/Berlin)' },
        { label: 'Attendees', value: 'alice@example.com, bob@example.com' },
        { label: 'Location', value: 'Room 4' },
      ],
      body: 'Q2 plan',
    });
    expect(create.alwaysAllowScopes?.(input)).toEqual([]);
    const solo = create.input.parse({ ...meeting, attendees: ['bob@example.com'] });
    expect(create.alwaysAllowScopes?.(solo)).toEqual([
      {
        field: 'recipients',
        pattern: 'bob@example.com',
        label: 'Always allow creating events with bob@example.com',
      },
    ]);
  });

  it('refuses impossible times and too many attendees before calling Google', () => {
    const input = tool('calendar_event_create').input;
    expect(input.safeParse({ ...meeting, end: '2026-03-11T13:00:00' }).success).toBe(false);
    expect(input.safeParse({ ...meeting, end: '2026-03-11' }).success).toBe(false);
    expect(input.safeParse({ ...meeting, end: '2026-03-30T14:00:00' }).success).toBe(false);
    expect(input.safeParse({ ...meeting, start: '2026-02-30T10:00:00' }).success).toBe(false);
    expect(input.safeParse({ ...meeting, timeZone: 'Mars/Base' }).success).toBe(false);
    const many = Array.from({ length: 51 }, (_, i) => `person${i}@example.com`);
    expect(input.safeParse({ ...meeting, attendees: many }).success).toBe(false);
  });

  it('checks mixed offsets against the user zone before sending', async () => {
    // 14:00 in Berlin is 13:00Z, so an end of 13:30Z is after it; 12:30Z is not.
    await run('calendar_event_create', {
      summary: 'a',
      start: '2026-03-11T14:00:00',
      end: '2026-03-11T13:30:00Z',
    });
    const error = await failure('calendar_event_create', {
      summary: 'b',
      start: '2026-03-11T14:00:00',
      end: '2026-03-11T12:30:00Z',
    });
    expect(error.code).toBe('invalid_arguments');
    expect(fake.calendar.created).toHaveLength(1);
  });
});

describe('calendar_event_update', () => {
  beforeEach(() => {
    fake.calendar.addEvent({
      id: 'sync',
      summary: 'Weekly sync',
      start: { dateTime: '2026-03-10T10:00:00+01:00', timeZone: ZONE },
      end: { dateTime: '2026-03-10T10:30:00+01:00', timeZone: ZONE },
      location: 'Room 1',
      attendees: [{ email: 'alice@example.com', responseStatus: 'accepted' }, { email: 'bob@example.com' }],
    });
    fake.calendar.addEvent({
      id: 'solo',
      summary: 'Focus',
      start: { dateTime: '2026-03-10T13:00:00+01:00' },
      end: { dateTime: '2026-03-10T15:00:00+01:00' },
    });
  });

  it('changes only the given fields and returns the event before and after', async () => {
    const result = await run('calendar_event_update', {
      eventId: 'sync',
      start: '2026-03-10T11:00:00',
      end: '2026-03-10T11:30:00',
      location: null,
      addAttendees: ['carol@example.com', 'alice@example.com'],
      removeAttendees: ['bob@example.com'],
    });
    expect(result.before).toMatchObject({
      summary: 'Weekly sync',
      start: '2026-03-10T10:00:00+01:00',
      location: 'Room 1',
      attendees: [
        { email: 'alice@example.com', responseStatus: 'accepted' },
        { email: 'bob@example.com', responseStatus: 'needsAction' },
      ],
    });
    expect(result.after).toMatchObject({
      summary: 'Weekly sync',
      start: '2026-03-10T11:00:00+01:00',
      end: '2026-03-10T11:30:00+01:00',
      location: null,
      attendees: [
        { email: 'alice@example.com', responseStatus: 'accepted' },
        { email: 'carol@example.com', responseStatus: 'needsAction' },
      ],
    });
    expect(fake.calendar.updated.map((write) => write.sendUpdates)).toEqual(['all']);
    const patch = fake.requests.find((request) => request.method === 'PATCH');
    expect(Object.keys(patch?.json as object).sort()).toEqual(['attendees', 'end', 'location', 'start']);
  });

  it('switches an event between timed and all-day without leaving the old kind behind', async () => {
    const toAllDay = await run('calendar_event_update', {
      eventId: 'solo',
      start: '2026-03-11',
      end: '2026-03-11',
    });
    expect(toAllDay.after).toMatchObject({ start: '2026-03-11', end: '2026-03-11' });
    // Google merges a patched start field by field: without the nulls the old dateTime would stay.
    const patches = fake.requests.filter((request) => request.method === 'PATCH');
    expect((patches[0]?.json as { start: unknown }).start).toEqual({
      date: '2026-03-11',
      dateTime: null,
      timeZone: null,
    });
    expect(fake.calendar.updated[0]?.event.start).toEqual({ date: '2026-03-11' });
    expect(fake.calendar.updated[0]?.event.end).toEqual({ date: '2026-03-12' });

    const toTimed = await run('calendar_event_update', {
      eventId: 'solo',
      start: '2026-03-12T09:00:00',
      end: '2026-03-12T10:00:00',
    });
    expect(toTimed.after).toMatchObject({
      start: '2026-03-12T09:00:00+01:00',
      end: '2026-03-12T10:00:00+01:00',
    });
    expect(fake.calendar.updated[1]?.event.start).toEqual({
      dateTime: '2026-03-12T09:00:00+01:00',
      timeZone: ZONE,
    });
  });

  it('sends no updates when the event has no guests', async () => {
    const result = await run('calendar_event_update', { eventId: 'solo', summary: 'Deep work' });
    expect(result.after).toMatchObject({ summary: 'Deep work', start: '2026-03-10T13:00:00+01:00' });
    expect(fake.calendar.updated.map((write) => write.sendUpdates)).toEqual(['none']);
  });

  it('previews the requested changes and the new guests', () => {
    const update = tool('calendar_event_update');
    expect(update).toMatchObject({
      category: 'update',
      risk: 'medium',
      actionKind: 'calendar.update',
      isExternal: true,
    });
    const input = update.input.parse({
      eventId: 'sync',
      summary: 'Sync',
      start: '2026-03-10T11:00:00+01:00',
      end: '2026-03-10T11:30:00+01:00',
      addAttendees: ['carol@example.com'],
    });
    expect(update.recipients?.(input)).toEqual(['carol@example.com']);
    expect(update.preview?.(input)).toEqual({
      title: 'Change the event “Sync”',
      fields: [{ label: 'Event', value: 'sync' }],
      changes: [
        { label: 'Title', before: '(current)', after: 'Sync' },
        { label: 'When', before: '(current)', after: 'Tue, 10 Mar 2026, 11:00 – 11:30 (Europe/Berlin)' },
        { label: 'Invite', before: '(current)', after: 'carol@example.com' },
      ],
    });
  });

  it('refuses an update with nothing to change or only half a time', () => {
    const input = tool('calendar_event_update').input;
    expect(input.safeParse({ eventId: 'sync' }).success).toBe(false);
    expect(input.safeParse({ eventId: 'sync', start: '2026-03-10T11:00:00' }).success).toBe(false);
    expect(input.safeParse({ eventId: 'sync', location: null }).success).toBe(true);
  });

  it('says when the event does not exist', async () => {
    const error = await failure('calendar_event_update', { eventId: 'missing', summary: 'x' });
    expect(error).toMatchObject({ code: 'not_found', status: 404 });
    expect(fake.calendar.updated).toHaveLength(0);
  });
});

describe('errors', () => {
  const search = { q: 'anything' };

  it('maps 403, 429 with Retry-After and 500 to tool errors', async () => {
    fake.inject({
      match: /^GET \/calendar\//,
      response: googleError(403, 'Insufficient Permission', 'insufficientPermissions'),
    });
    const forbidden = await failure('calendar_search', search);
    expect(forbidden).toMatchObject({ code: 'forbidden', status: 403 });
    expect(forbidden.message).toContain('Insufficient Permission');

    fake.inject({
      match: /^POST \/calendar\/v3\/freeBusy/,
      response: {
        ...googleError(429, 'Rate Limit Exceeded', 'rateLimitExceeded'),
        headers: { 'Retry-After': '30' },
      },
    });
    const limited = await failure('check_availability', {
      attendees: ['primary'],
      start: '2026-03-09',
      end: '2026-03-10',
      durationMinutes: 30,
    });
    expect(limited).toBeInstanceOf(ServiceError);
    expect(limited).toMatchObject({
      code: 'rate_limited',
      status: 429,
      retryAfterSeconds: 30,
      isTransient: true,
    });

    fake.inject({
      match: /^POST \/calendar\/v3\/calendars\/primary\/events$/,
      response: googleError(500, 'Backend Error'),
    });
    const broken = await failure('calendar_event_create', {
      summary: 'x',
      start: '2026-03-11',
      end: '2026-03-11',
    });
    expect(broken).toMatchObject({ code: 'unavailable', status: 500, isTransient: true });
    expect(fake.calendar.created).toHaveLength(0);
  });

  it('never repeats a token Google echoes back', async () => {
    const token = access.client.credentials.access_token ?? '';
    fake.inject({
      match: /^GET \/calendar\//,
      response: googleError(403, `Token ${token} lacks scope (Bearer ${token})`),
    });
    const error = await failure('calendar_search', search);
    expect(error.message).not.toContain(token);
    expect(error.message).toContain('[redacted]');
  });

  it('says Google cannot be reached on a network failure', async () => {
    const closed = await startFakeServer([]);
    await closed.close();
    const unreachable: GoogleAccess = { authClient: access.authClient, apiRoot: `${closed.url}/` };
    const error = await failure('calendar_search', search, unreachable);
    expect(error).toMatchObject({ code: 'unavailable', status: null, isTransient: true });
    expect(error.message).toMatch(/Could not reach Google while searching the calendar \(ECONNREFUSED\)/);
  });

  it('passes not_connected through unchanged and answers 401 with a reconnect hint', async () => {
    const lapsed = notConnected('google');
    const signedOut: GoogleAccess = { authClient: () => Promise.reject(lapsed), apiRoot: access.apiRoot };
    expect(await failure('calendar_search', search, signedOut)).toBe(lapsed);

    fake.inject({
      match: /^GET \/calendar\//,
      response: googleError(401, 'Invalid Credentials', 'authError'),
      times: 5,
    });
    access.client.setCredentials({ access_token: access.client.credentials.access_token });
    const rejected = await failure('calendar_search', search);
    expect(rejected).toMatchObject({ code: 'not_connected', status: 401 });
    expect(rejected.message).toContain('Settings → Connections');
  });

  it('treats a refresh token Google no longer accepts as a lapsed connection', async () => {
    fake.inject({
      match: /^POST \/token/,
      response: {
        status: 400,
        json: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
      },
    });
    access.client.setCredentials({ ...access.client.credentials, expiry_date: Date.now() - 1_000 });
    const error = await failure('calendar_search', search);
    expect(error).toMatchObject({ code: 'not_connected' });
    expect(error.message).toContain('Settings → Connections');
    expect(fake.requests.some((request) => request.path.startsWith('/calendar/'))).toBe(false);
  });
});
