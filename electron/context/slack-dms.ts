import type { WebClient } from '@slack/web-api';
import type { SlackAccess } from '../connections/access';
import type { ContactObservation } from './contacts-index';

/** How much of the person's direct messages one refresh reads: the most recent conversations, their last messages. */
export const DM_LIMITS = { conversations: 50, messagesEach: 50 };
const LIST_PAGE = 200;

export interface DirectMessage {
  /** The conversation (`D…`), readable with `slack_read`. */
  id: string;
  /** The other person's Slack user id. */
  user: string;
}

/** The person's direct-message conversations (Slack's `im` type), at most `limit`. */
export async function listDirectMessages(client: WebClient, limit: number): Promise<DirectMessage[]> {
  const found: DirectMessage[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.conversations.list({ types: 'im', limit: LIST_PAGE, cursor });
    for (const channel of page.channels ?? [])
      if (channel.id && channel.user && !channel.is_user_deleted)
        found.push({ id: channel.id, user: channel.user });
    cursor = page.response_metadata?.next_cursor || undefined;
  } while (cursor && found.length < limit);
  return found.slice(0, limit);
}

/** The direct-message conversation with a Slack user (`slack:@U…` or `U…`), or null when there is none. */
export async function directMessageWith(access: SlackAccess, user: string): Promise<string | null> {
  const id = user.replace(/^slack:@/, '');
  const client = await access.client();
  const conversations = await listDirectMessages(client, Number.POSITIVE_INFINITY);
  return conversations.find((conversation) => conversation.user === id)?.id ?? null;
}

/**
 * A Slack message's `ts` (seconds since 1970, with a fraction) as an ISO instant, or null for one that names no
 * time: `toISOString` throws on those, and one such message stopped the whole refresh of Slack's people.
 */
export function slackInstant(ts: unknown): string | null {
  if (typeof ts !== 'string' || !/^\d{1,12}(\.\d+)?$/.test(ts)) return null;
  const at = new Date(Number(ts) * 1000);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/**
 * The people of the person's direct messages. Someone they wrote to is someone they dealt with; someone who
 * only wrote to them appeared, as a mail sender does. Read: the newest messages of the newest conversations.
 */
export async function slackDmObservations(access: SlackAccess): Promise<ContactObservation[]> {
  const client = await access.client();
  const { user_id: self } = await client.auth.test();
  const observations: ContactObservation[] = [];
  for (const conversation of await listDirectMessages(client, DM_LIMITS.conversations)) {
    const { messages = [] } = await client.conversations.history({
      channel: conversation.id,
      limit: DM_LIMITS.messagesEach,
    });
    // Newest first, as Slack answers: the first of each side is its latest (one that names no time is passed over).
    const mine = messages.find((message) => message.user === self && slackInstant(message.ts));
    const theirs = messages.find((message) => message.user === conversation.user && slackInstant(message.ts));
    const address = `slack:@${conversation.user}`;
    const sentAt = slackInstant(mine?.ts);
    const receivedAt = slackInstant(theirs?.ts);
    if (sentAt) {
      observations.push({
        address,
        name: '',
        kind: 'slack_dm_sent',
        at: sentAt,
        evidence: `you wrote to them on Slack (${sentAt.slice(0, 10)})`,
      });
    }
    if (receivedAt) {
      observations.push({
        address,
        name: '',
        kind: 'slack_dm_received',
        at: receivedAt,
        evidence: `a Slack message from them (${receivedAt.slice(0, 10)})`,
      });
    }
  }
  return observations;
}
