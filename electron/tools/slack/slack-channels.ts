import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { SLACK_CHANNEL_ID as CHANNEL_ID } from '../../../shared/target-words';
import { ToolError } from '../tool';

/** How many channels slack_channels and name resolution page through before stopping. */
const MAX_CHANNELS = 1_000;
const CHANNELS_PAGE = 200;

export const ChannelView = z.object({
  id: z.string(),
  name: z.string(),
  isPrivate: z.boolean(),
  isMember: z.boolean(),
  topic: z.string(),
  memberCount: z.number().nullable(),
});
export type ChannelView = z.infer<typeof ChannelView>;

/** A channel as the user named it (`label`, for messages) and as Slack knows it (`id`). */
export interface ChannelRef {
  id: string;
  label: string;
}

/** `#General` and `general` are the same channel; an id is kept as it is. */
export function channelLabel(channel: string): string {
  const trimmed = channel.trim();
  return CHANNEL_ID.test(trimmed) ? trimmed : `#${trimmed.replace(/^#/, '').toLowerCase()}`;
}

/**
 * The recipient id of a post, for allow-lists, rules and first contact: `slack:#<channel name>` when the
 * channel is named (lower case), `slack:<channel id>` when it is given by id.
 */
export function slackRecipient(channel: string): string {
  return `slack:${channelLabel(channel)}`;
}

/** The channels the user can see (public ones, and the private ones they are in; not archived), up to MAX_CHANNELS. */
export async function listChannels(
  client: WebClient,
): Promise<{ channels: ChannelView[]; isTruncated: boolean }> {
  const channels: ChannelView[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.conversations.list({
      types: 'public_channel,private_channel',
      exclude_archived: true,
      limit: CHANNELS_PAGE,
      cursor,
    });
    for (const channel of page.channels ?? []) {
      if (!channel.id || !channel.name) continue;
      channels.push({
        id: channel.id,
        name: channel.name,
        isPrivate: channel.is_private ?? false,
        isMember: channel.is_member ?? false,
        topic: channel.topic?.value ?? '',
        memberCount: channel.num_members ?? null,
      });
    }
    cursor = page.response_metadata?.next_cursor || undefined;
  } while (cursor && channels.length < MAX_CHANNELS);
  return {
    channels: channels.slice(0, MAX_CHANNELS),
    isTruncated: cursor !== undefined || channels.length > MAX_CHANNELS,
  };
}

/** The channel the user named (#name or id) as Slack knows it; a name no channel has is refused as not_found. */
export async function resolveChannel(client: WebClient, channel: string): Promise<ChannelRef> {
  const label = channelLabel(channel);
  if (CHANNEL_ID.test(label)) return { id: label, label };
  const { channels } = await listChannels(client);
  const found = channels.find((candidate) => `#${candidate.name}` === label);
  if (!found)
    throw new ToolError(
      'not_found',
      `No channel named ${label}; call slack_channels to see the channels you can use.`,
    );
  return { id: found.id, label };
}

/** The name a call was decided with for a channel it gave by id (`label`), as its action stores it; else null. */
export function decidedName(names: Record<string, string> | undefined, label: string): string | null {
  return names && Object.hasOwn(names, label) ? (names[label] ?? null) : null;
}

/**
 * A channel as the words of a call's answer say it (its errors, an undo's answer): by the name Slack gives it
 * and its id when the call knows that name ("#random (C0RANDOM01)", so the person and the model both follow),
 * else as the call gave it. The name comes only from what is stored with the call, never from this session's
 * memory, so a call carried out after a restart says what it would have said without one.
 */
export function channelNamed(label: string, name: string | null | undefined): string {
  return name ? `${name} (${label})` : label;
}
