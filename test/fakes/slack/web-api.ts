import type { FakeRequest, FakeResponse } from '../http-kit';
import type { FakeSlackChannel, FakeSlackMessage, FakeSlackState, FakeSlackToken } from './state';

/** A Web API method's arguments: Slack takes them from the query, a form body or a JSON body alike. */
export type SlackArgs = Record<string, string>;

export function readArgs(request: FakeRequest): SlackArgs {
  const args: SlackArgs = {};
  for (const [key, value] of request.query) args[key] = value;
  for (const [key, value] of request.form) args[key] = value;
  if (request.json && typeof request.json === 'object' && !Array.isArray(request.json)) {
    for (const [key, value] of Object.entries(request.json)) {
      args[key] = typeof value === 'string' ? value : JSON.stringify(value);
    }
  }
  return args;
}

/** Slack answers a platform error with HTTP 200 and `ok: false`. */
export function slackError(error: string, extra: Record<string, unknown> = {}): FakeResponse {
  return { status: 200, json: { ok: false, error, ...extra } };
}

/** Slack's rate-limit answer: HTTP 429 with Retry-After in seconds. */
export function slackRateLimited(retryAfterSeconds: number): FakeResponse {
  return {
    status: 429,
    headers: { 'retry-after': String(retryAfterSeconds) },
    json: { ok: false, error: 'ratelimited' },
  };
}

type Method = (args: SlackArgs, caller: Caller, state: FakeSlackState) => FakeResponse;

interface Caller {
  token: string;
  grant: FakeSlackToken;
}

const ok = (body: Record<string, unknown>, grant: FakeSlackToken): FakeResponse => ({
  status: 200,
  headers: { 'x-oauth-scopes': grant.scopes.join(',') },
  json: { ok: true, ...body },
});

/** The scope each method needs; a token without it gets `missing_scope`, naming it, as Slack does. */
const NEEDED_SCOPE: Record<string, string | null> = {
  'auth.test': null,
  'auth.revoke': null,
  'conversations.list': 'channels:read',
  // Its scope is the conversation's type's (channels:, groups:, im:read): the method checks it.
  'conversations.info': null,
  'conversations.history': 'channels:history',
  'conversations.replies': 'channels:history',
  'users.info': 'users:read',
  'users.list': 'users:read',
  'chat.postMessage': 'chat:write',
  'chat.delete': 'chat:write',
};

const METHODS: Partial<Record<string, Method>> = {
  'auth.test': (_args, { grant }, state) =>
    ok(
      {
        url: `https://${state.team.domain}.slack.com/`,
        team: state.team.name,
        user: state.user(grant.userId)?.name ?? grant.userId,
        team_id: state.team.id,
        user_id: grant.userId,
        ...(grant.isBot ? { bot_id: 'B0DEPUTYBOT' } : {}),
        is_enterprise_install: false,
      },
      grant,
    ),
  'auth.revoke': (_args, { grant }) => {
    grant.isRevoked = true;
    return ok({ revoked: true }, grant);
  },
  'conversations.list': (args, { grant }, state) => {
    const types = (args.types ?? 'public_channel').split(',');
    if (types.includes('im') && !grant.scopes.includes('im:read'))
      return slackError('missing_scope', { needed: 'im:read', provided: grant.scopes.join(',') });
    const excludeArchived = args.exclude_archived === 'true' || args.exclude_archived === '1';
    const visible = state.channels.filter(
      (channel) =>
        types.includes(typeOf(channel)) &&
        (!channel.isPrivate || channel.members.includes(grant.userId)) &&
        !(excludeArchived && channel.isArchived),
    );
    const { page, nextCursor } = paginate(visible, args, state.defaultPageSize);
    return ok(
      {
        channels: page.map((channel) => channelView(channel, grant.userId)),
        response_metadata: { next_cursor: nextCursor },
      },
      grant,
    );
  },
  // One conversation as Slack answers conversations.info: a channel's whole object, or a DM's (no name, the
  // other person's id); `channel_not_found` for an id the caller cannot see.
  'conversations.info': (args, { grant }, state) => {
    const channel = visibleChannel(state, args.channel, grant.userId);
    if (!channel) return slackError('channel_not_found');
    const needed = readScope(channel);
    if (!grant.scopes.includes(needed))
      return slackError('missing_scope', { needed, provided: grant.scopes.join(',') });
    const withCount = args.include_num_members === 'true' || args.include_num_members === '1';
    return ok({ channel: infoView(channel, grant.userId, state, withCount) }, grant);
  },
  'conversations.history': (args, { grant }, state) => {
    const channel = visibleChannel(state, args.channel, grant.userId);
    if (!channel) return slackError('channel_not_found');
    const needed = historyScope(channel);
    if (needed && !grant.scopes.includes(needed))
      return slackError('missing_scope', { needed, provided: grant.scopes.join(',') });
    const oldest = Number(args.oldest ?? '0');
    const latest = args.latest ? Number(args.latest) : Infinity;
    const newestFirst = channel.messages
      .filter((message) => Number(message.ts) > oldest && Number(message.ts) < latest)
      .reverse();
    const { page, nextCursor } = paginate(newestFirst, args, state.defaultPageSize);
    const withMetadata = args.include_all_metadata === 'true' || args.include_all_metadata === '1';
    return ok(
      {
        messages: page.map((message) => messageView(message, withMetadata)),
        has_more: nextCursor !== '',
        response_metadata: { next_cursor: nextCursor },
      },
      grant,
    );
  },
  // A thread oldest first, its parent message leading, as Slack answers it.
  'conversations.replies': (args, { grant }, state) => {
    const channel = visibleChannel(state, args.channel, grant.userId);
    if (!channel) return slackError('channel_not_found');
    if (channel.isPrivate && !grant.scopes.includes('groups:history'))
      return slackError('missing_scope', { needed: 'groups:history', provided: grant.scopes.join(',') });
    const parent = channel.messages.find((message) => message.ts === args.ts);
    if (!parent) return slackError('thread_not_found');
    const thread = [parent, ...channel.messages.filter((message) => message.threadTs === parent.ts)];
    const { page, nextCursor } = paginate(thread, args, state.defaultPageSize);
    const withMetadata = args.include_all_metadata === 'true' || args.include_all_metadata === '1';
    return ok(
      {
        messages: page.map((message) => messageView(message, withMetadata)),
        has_more: nextCursor !== '',
        response_metadata: { next_cursor: nextCursor },
      },
      grant,
    );
  },
  'users.list': (args, { grant }, state) => {
    const { page, nextCursor } = paginate(state.users, args, state.defaultPageSize);
    return ok(
      {
        members: page.map((user) => ({
          id: user.id,
          team_id: state.team.id,
          name: user.name,
          real_name: user.realName,
          deleted: false,
          is_bot: false,
          profile: { real_name: user.realName, display_name: user.displayName },
        })),
        response_metadata: { next_cursor: nextCursor },
      },
      grant,
    );
  },
  'users.info': (args, { grant }, state) => {
    const user = state.user(args.user ?? '');
    if (!user) return slackError('user_not_found');
    return ok(
      {
        user: {
          id: user.id,
          team_id: state.team.id,
          name: user.name,
          real_name: user.realName,
          profile: { real_name: user.realName, display_name: user.displayName },
        },
      },
      grant,
    );
  },
  'chat.postMessage': (args, { grant }, state) => {
    const channel = visibleChannel(state, args.channel, grant.userId);
    if (!channel) return slackError('channel_not_found');
    if (channel.isArchived) return slackError('is_archived');
    if (!channel.members.includes(grant.userId)) return slackError('not_in_channel');
    const text = args.text ?? '';
    if (!text.trim()) return slackError('no_text');
    if (text.length > 40_000) return slackError('msg_too_long');
    const threadTs = args.thread_ts || undefined;
    if (threadTs && !channel.messages.some((message) => message.ts === threadTs))
      return slackError('thread_not_found');
    const metadata = parseMetadata(args.metadata);
    if (metadata === 'invalid') return slackError('invalid_metadata_format');
    const message: FakeSlackMessage = {
      ts: nextTs(channel),
      user: grant.userId,
      text,
      ...(threadTs ? { threadTs } : {}),
      ...(metadata ? { metadata } : {}),
    };
    channel.messages.push(message);
    state.posted.push({ channel: channel.id, ts: message.ts, text, threadTs: threadTs ?? null, metadata });
    return ok({ channel: channel.id, ts: message.ts, message: messageView(message, false) }, grant);
  },
};

/** chat.delete: as Slack, a person's token deletes only their own messages (`cant_delete_message` otherwise). */
METHODS['chat.delete'] = (args, { grant }, state) => {
  const channel = visibleChannel(state, args.channel, grant.userId);
  if (!channel) return slackError('channel_not_found');
  const message = channel.messages.find((candidate) => candidate.ts === args.ts);
  if (!message) return slackError('message_not_found');
  if (message.user !== grant.userId) return slackError('cant_delete_message');
  channel.messages.splice(channel.messages.indexOf(message), 1);
  return ok({ channel: channel.id, ts: message.ts }, grant);
};

/** Answers POST (or GET) /api/<method> for the methods above; `oauth.v2.access` is the OAuth fake's. */
export function handleWebApi(request: FakeRequest, state: FakeSlackState): FakeResponse | null {
  const method = /^\/api\/([\w.]+)$/.exec(request.path)?.[1];
  const answer = method ? METHODS[method] : undefined;
  if (!method || !answer) return null;
  const args = readArgs(request);
  const token = request.accessToken ?? args.token ?? null;
  if (!token) return slackError('not_authed');
  const grant = state.tokens.get(token);
  if (!grant) return slackError('invalid_auth');
  if (grant.isRevoked) return slackError('token_revoked');
  const needed = NEEDED_SCOPE[method];
  if (needed && !grant.scopes.includes(needed))
    return slackError('missing_scope', { needed, provided: grant.scopes.join(',') });
  return answer(args, { token, grant }, state);
}

/** A private channel the caller is not in does not exist for them, as in Slack. */
function visibleChannel(
  state: FakeSlackState,
  id: string | undefined,
  userId: string,
): FakeSlackChannel | undefined {
  const channel = state.channels.find((candidate) => candidate.id === id);
  if (!channel || (channel.isPrivate && !channel.members.includes(userId))) return undefined;
  return channel;
}

function paginate<T>(
  items: T[],
  args: SlackArgs,
  defaultPageSize: number,
): { page: T[]; nextCursor: string } {
  const limit = Math.max(1, Math.min(1000, Number(args.limit) || defaultPageSize));
  const offset = args.cursor ? Number(Buffer.from(args.cursor, 'base64').toString('utf8').split(':')[1]) : 0;
  const page = items.slice(offset, offset + limit);
  const next = offset + limit;
  return {
    page,
    nextCursor: next < items.length ? Buffer.from(`offset:${next}`).toString('base64') : '',
  };
}

/** A conversation's type, as `conversations.list` filters by it. */
function typeOf(channel: FakeSlackChannel): string {
  if (channel.isIm) return 'im';
  return channel.isPrivate ? 'private_channel' : 'public_channel';
}

/** The scope reading a conversation's history needs beyond `channels:history`, as Slack checks it. */
function historyScope(channel: FakeSlackChannel): string | null {
  if (channel.isIm) return 'im:history';
  return channel.isPrivate ? 'groups:history' : null;
}

/** The scope reading a conversation's details needs, by its type, as Slack checks it. */
function readScope(channel: FakeSlackChannel): string {
  if (channel.isIm) return 'im:read';
  return channel.isPrivate ? 'groups:read' : 'channels:read';
}

/** A conversation as conversations.info answers it: what conversations.list says, and more. */
function infoView(
  channel: FakeSlackChannel,
  userId: string,
  state: FakeSlackState,
  withCount: boolean,
): Record<string, unknown> {
  const lastRead = channel.messages.at(-1)?.ts ?? '0000000000.000000';
  if (channel.isIm)
    return {
      ...imView(channel, userId),
      last_read: lastRead,
      unread_count: 0,
      unread_count_display: 0,
      is_open: true,
    };
  const { num_members: members, ...listed } = channelView(channel, userId);
  return {
    ...listed,
    is_im: false,
    is_mpim: false,
    created: 1767225600,
    is_general: channel.id === state.channels[0]?.id,
    unlinked: 0,
    name_normalized: channel.name,
    is_shared: false,
    is_org_shared: false,
    is_pending_ext_shared: false,
    pending_shared: [],
    context_team_id: state.team.id,
    updated: 1767225600000,
    parent_conversation: null,
    creator: channel.members[0] ?? userId,
    is_ext_shared: false,
    shared_team_ids: [state.team.id],
    pending_connected_team_ids: [],
    last_read: lastRead,
    previous_names: [],
    ...(withCount && { num_members: members }),
  };
}

/** A direct message as conversations.list answers it: no name, the other person's id. */
function imView(channel: FakeSlackChannel, userId: string): Record<string, unknown> {
  return {
    id: channel.id,
    created: 1767225600,
    is_im: true,
    is_org_shared: false,
    user: channel.members.find((member) => member !== userId) ?? userId,
    is_user_deleted: false,
    priority: 0,
  };
}

function channelView(channel: FakeSlackChannel, userId: string): Record<string, unknown> {
  if (channel.isIm) return imView(channel, userId);
  return {
    id: channel.id,
    name: channel.name,
    is_channel: !channel.isPrivate,
    is_group: channel.isPrivate,
    is_private: channel.isPrivate,
    is_archived: channel.isArchived,
    is_member: channel.members.includes(userId),
    topic: { value: channel.topic, creator: '', last_set: 0 },
    purpose: { value: '', creator: '', last_set: 0 },
    num_members: channel.members.length,
  };
}

function messageView(message: FakeSlackMessage, withMetadata: boolean): Record<string, unknown> {
  return {
    type: 'message',
    ts: message.ts,
    ...(message.user ? { user: message.user } : {}),
    ...(message.botId ? { bot_id: message.botId, subtype: 'bot_message', username: message.username } : {}),
    text: message.text,
    ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
    ...(message.replyCount ? { reply_count: message.replyCount } : {}),
    ...(withMetadata && message.metadata ? { metadata: message.metadata } : {}),
  };
}

function parseMetadata(raw: string | undefined): FakeSlackMessage['metadata'] | null | 'invalid' {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as { event_type?: unknown; event_payload?: unknown };
    if (
      typeof value.event_type !== 'string' ||
      typeof value.event_payload !== 'object' ||
      !value.event_payload
    )
      return 'invalid';
    return { event_type: value.event_type, event_payload: value.event_payload as Record<string, unknown> };
  } catch {
    return 'invalid';
  }
}

/** Timestamps only grow within a channel, as Slack's do. */
function nextTs(channel: FakeSlackChannel): string {
  const last = channel.messages.at(-1);
  const now = Date.now() / 1000;
  const seconds = Math.max(Math.floor(now), last ? Math.floor(Number(last.ts)) : 0);
  const sequence = last && Math.floor(Number(last.ts)) === seconds ? Number(last.ts.split('.')[1]) + 1 : 1;
  return `${seconds}.${String(sequence).padStart(6, '0')}`;
}
