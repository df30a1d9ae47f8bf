import type { WebClient } from '@slack/web-api';

/**
 * Every post Deputy makes carries this Slack message metadata, so crash recovery can find a post that was
 * made before the crash (conversations.history, or conversations.replies for a thread reply, with
 * include_all_metadata) and never make it twice:
 * `{ event_type: DEPUTY_EVENT_TYPE, event_payload: { [DEPUTY_KEY_FIELD]: context.idempotencyKey } }`.
 */
export const DEPUTY_EVENT_TYPE = 'deputy_action';
export const DEPUTY_KEY_FIELD = 'deputy_key';

/** How far back a top-level post is looked for: a retry or a resume comes soon after the first try. */
const RECENT_POSTS = 50;
/** A thread is read oldest first, so a reply is looked for through up to this many of its messages. */
const THREAD_PAGE = 200;
const MAX_THREAD_REPLIES = 1_000;

/** The metadata a post made under this idempotency key carries, so it can be found again. */
export function deputyMetadata(key: string): { event_type: string; event_payload: Record<string, string> } {
  return { event_type: DEPUTY_EVENT_TYPE, event_payload: { [DEPUTY_KEY_FIELD]: key } };
}

/** Whether a message carries the metadata Deputy puts on a post made under this idempotency key. */
function isOurPost(
  message: { metadata?: { event_type?: string; event_payload?: unknown } },
  key: string,
): boolean {
  const payload = message.metadata?.event_payload;
  return (
    message.metadata?.event_type === DEPUTY_EVENT_TYPE &&
    typeof payload === 'object' &&
    payload !== null &&
    (payload as Record<string, unknown>)[DEPUTY_KEY_FIELD] === key
  );
}

/**
 * The ts of the post this idempotency key marks, if the same call already made it: among the channel's recent
 * top-level messages, or for a thread reply among the thread's replies (conversations.history does not list
 * them). Only reads.
 */
export async function findPost(
  client: WebClient,
  channelId: string,
  key: string,
  threadTs: string | undefined,
): Promise<string | null> {
  if (!threadTs) {
    const recent = await client.conversations.history({
      channel: channelId,
      limit: RECENT_POSTS,
      include_all_metadata: true,
    });
    return recent.messages?.find((message) => isOurPost(message, key))?.ts ?? null;
  }
  let cursor: string | undefined;
  let seen = 0;
  do {
    const page = await client.conversations.replies({
      channel: channelId,
      ts: threadTs,
      limit: THREAD_PAGE,
      include_all_metadata: true,
      cursor,
    });
    const found = page.messages?.find((message) => message.ts !== threadTs && isOurPost(message, key));
    if (found?.ts) return found.ts;
    seen += page.messages?.length ?? 0;
    cursor = page.response_metadata?.next_cursor || undefined;
  } while (cursor && seen < MAX_THREAD_REPLIES);
  return null;
}
