import type { WebClient } from '@slack/web-api';
import { SLACK_CHANNEL_ID, slackPlaceWords } from '../../../shared/target-words';
import type { Reach, Recipient } from '../tool';
import { channelLabel, resolveChannel, slackRecipient } from './slack-channels';
import { userName, type ConversationNames } from './slack-names';

/**
 * Everyone a post reaches: the channel, and for a thread reply also the people in the thread, whom Slack
 * notifies of it (the person themself aside). A channel given by id is named as Slack names it, when Slack
 * says so in time.
 */
export async function postReach(
  client: WebClient,
  input: { channel: string; thread_ts?: string | undefined },
  names: ConversationNames,
): Promise<Reach> {
  const label = channelLabel(input.channel);
  const [channelName, inThread] = await Promise.all([
    SLACK_CHANNEL_ID.test(label) ? names.lookUp(client, label) : null,
    input.thread_ts ? threadPeople(client, input.channel, input.thread_ts) : [],
  ]);
  const inChannel = {
    address: slackRecipient(input.channel),
    role: 'channel',
    ...(channelName && { name: slackPlaceWords(channelName) }),
  };
  return { recipients: [inChannel, ...inThread] };
}

/** The people of a thread, whom Slack notifies of a reply in it (the person themself aside). */
async function threadPeople(client: WebClient, channelName: string, threadTs: string): Promise<Recipient[]> {
  const channel = await resolveChannel(client, channelName);
  const [{ user_id: self }, thread] = await Promise.all([
    client.auth.test(),
    client.conversations.replies({ channel: channel.id, ts: threadTs, limit: 200 }),
  ]);
  const people = [
    ...new Set((thread.messages ?? []).flatMap((message) => (message.user ? [message.user] : []))),
  ];
  return Promise.all(
    people
      .filter((user) => user !== self)
      .map(async (user) => {
        const name = await userName(client, user);
        return {
          address: `slack:@${user.toLowerCase()}`,
          role: 'in the thread, notified',
          ...(name && { name }),
        };
      }),
  );
}
