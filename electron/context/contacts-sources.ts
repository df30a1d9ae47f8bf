import { calendar, type calendar_v3 } from '@googleapis/calendar';
import { gmail, type gmail_v1 } from '@googleapis/gmail';
import type { GoogleAccess, SlackAccess } from '../connections/access';
import { callGoogle } from '../tools/google-call';
import { headerOf } from '../tools/gmail/gmail-payload';
import type { ContactObservation } from './contacts-index';
import { parseAddressList } from './mail-addresses';
import type { MailItem } from './recent-mail';
import { isUpcoming, type UpcomingEvent } from './upcoming-events';

/** How much history one refresh reads: enough to know the people of the last months, bounded per source. */
export const REFRESH_LIMITS = { sentMail: 200, receivedMail: 200, pastDays: 90, futureDays: 30, events: 250 };

const DAY = 86_400_000;

/**
 * Mail the person sent (they dealt with every To and Cc) and mail they received (the sender only appeared),
 * and the received mail itself (sender, subject, snippet), for the opt-in index of recent mail.
 */
export async function mailObservations(
  access: GoogleAccess,
  now: () => Date,
  signal: AbortSignal,
): Promise<{ observations: ContactObservation[]; received: MailItem[] }> {
  const read = (q: string, max: number, headers: string[]): Promise<gmail_v1.Schema$Message[]> =>
    callGoogle(
      access,
      (options) => gmail({ version: 'v1', ...options }),
      'reading mail headers',
      now,
      async (api) => {
        const list = await api.users.messages.list({ userId: 'me', q, maxResults: max }, { signal });
        const found: gmail_v1.Schema$Message[] = [];
        for (const item of list.data.messages ?? []) {
          const response = await api.users.messages.get(
            { userId: 'me', id: item.id ?? '', format: 'metadata', metadataHeaders: headers },
            { signal },
          );
          found.push(response.data);
        }
        return found;
      },
    );
  const at = (message: gmail_v1.Schema$Message): string =>
    new Date(Number(message.internalDate ?? now().getTime())).toISOString();
  const sent = await read('in:sent', REFRESH_LIMITS.sentMail, ['To', 'Cc', 'Subject']);
  const received = await read('in:inbox', REFRESH_LIMITS.receivedMail, ['From', 'Subject']);
  const observations = [
    ...sent.flatMap((message) => {
      const subject = headerOf(message.payload, 'Subject');
      return [
        ...parseAddressList(headerOf(message.payload, 'To')),
        ...parseAddressList(headerOf(message.payload, 'Cc')),
      ].map((person): ContactObservation => ({
        ...person,
        kind: 'sent',
        at: at(message),
        evidence: `you wrote to them: “${subject}” (${at(message).slice(0, 10)})`,
      }));
    }),
    ...received.flatMap((message) => {
      const subject = headerOf(message.payload, 'Subject');
      return parseAddressList(headerOf(message.payload, 'From')).map((person): ContactObservation => ({
        ...person,
        kind: 'received',
        at: at(message),
        evidence: `mail from them: “${subject}” (${at(message).slice(0, 10)})`,
      }));
    }),
  ];
  return {
    observations,
    received: received.map((message) => ({
      id: message.id ?? '',
      sender: headerOf(message.payload, 'From'),
      subject: headerOf(message.payload, 'Subject'),
      snippet: message.snippet ?? '',
      at: at(message),
    })),
  };
}

/**
 * The people of recent and coming events. Attendees of an event the person organised, and the organiser of one
 * they accepted, are people they dealt with; the rest of an invitation's list only appeared in it.
 */
export async function calendarObservations(
  access: GoogleAccess,
  now: () => Date,
  signal: AbortSignal,
  timeZone: string,
): Promise<{ observations: ContactObservation[]; upcoming: UpcomingEvent[] }> {
  const start = now().getTime();
  const events = await callGoogle(
    access,
    (options) => calendar({ version: 'v3', ...options }),
    'reading calendar attendees',
    now,
    async (api) => {
      const { data } = await api.events.list(
        {
          calendarId: 'primary',
          timeMin: new Date(start - REFRESH_LIMITS.pastDays * DAY).toISOString(),
          timeMax: new Date(start + REFRESH_LIMITS.futureDays * DAY).toISOString(),
          singleEvents: true,
          orderBy: 'startTime',
          maxResults: REFRESH_LIMITS.events,
        },
        { signal },
      );
      return data.items ?? [];
    },
  );
  const observations = events.flatMap((event) => eventObservations(event));
  const upcoming = events
    // An invitation the person declined is not one of their next events.
    .filter((event) => isUpcoming(startOf(event), new Date(start), timeZone) && !hasDeclined(event))
    .map((event) => ({
      id: event.id ?? '',
      title: event.summary ?? '(no title)',
      start: startOf(event),
      attendees: (event.attendees ?? [])
        .filter((a) => !a.self)
        .map((a) => a.email ?? '')
        .filter(Boolean),
    }));
  return { observations, upcoming };
}

const hasDeclined = (event: calendar_v3.Schema$Event): boolean =>
  event.attendees?.some((attendee) => attendee.self && attendee.responseStatus === 'declined') === true;

function startOf(event: calendar_v3.Schema$Event): string {
  return event.start?.dateTime ?? event.start?.date ?? '';
}

function eventObservations(event: calendar_v3.Schema$Event): ContactObservation[] {
  const title = event.summary ?? '(no title)';
  const at = startOf(event) || new Date(0).toISOString();
  const isOrganiser = event.organizer?.self === true;
  const me = event.attendees?.find((attendee) => attendee.self);
  const hasAccepted = me?.responseStatus === 'accepted';
  const people: ContactObservation[] = [];
  if (!isOrganiser && event.organizer?.email) {
    people.push({
      address: event.organizer.email,
      name: event.organizer.displayName ?? '',
      kind: hasAccepted ? 'accepted' : 'invited',
      at,
      evidence: hasAccepted
        ? `you accepted their event “${title}” (${at.slice(0, 10)})`
        : `invited you to “${title}” (${at.slice(0, 10)})`,
    });
  }
  for (const attendee of event.attendees ?? []) {
    if (attendee.self || !attendee.email || attendee.email === event.organizer?.email) continue;
    people.push({
      address: attendee.email,
      name: attendee.displayName ?? '',
      kind: isOrganiser ? 'organised' : 'invited',
      at,
      evidence: isOrganiser
        ? `in “${title}”, an event you organised (${at.slice(0, 10)})`
        : `invited with you to “${title}” (${at.slice(0, 10)})`,
    });
  }
  return people;
}

/** The workspace's people: names and handles to resolve, not people the person necessarily talked to. */
export async function slackObservations(access: SlackAccess, now: () => Date): Promise<ContactObservation[]> {
  const client = await access.client();
  const response = await client.users.list({ limit: 500 });
  const at = now().toISOString();
  return (response.members ?? [])
    .filter((member) => member.id && !member.deleted && !member.is_bot)
    .map((member) => ({
      address: `slack:@${member.id ?? ''}`,
      name: member.real_name ?? member.profile?.real_name ?? member.name ?? '',
      kind: 'slack_member' as const,
      at,
      evidence: `a member of your Slack workspace (@${member.name ?? member.id ?? ''})`,
    }));
}
