import { randomBytes } from 'node:crypto';

export interface FakeSlackUser {
  id: string;
  name: string;
  realName: string;
  displayName: string;
}

export interface FakeSlackMessage {
  ts: string;
  user?: string;
  /** A bot's post: no `user`, a `bot_id` and a display `username`. */
  botId?: string;
  username?: string;
  text: string;
  threadTs?: string;
  replyCount?: number;
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
}

export interface FakeSlackChannel {
  id: string;
  name: string;
  isPrivate: boolean;
  isArchived: boolean;
  topic: string;
  members: string[];
  /** Oldest first, as they were posted; the history method answers newest first, as Slack does. */
  messages: FakeSlackMessage[];
  /** A direct message (`D…`, type `im`) between its two `members`. */
  isIm?: boolean;
}

export interface FakeSlackToken {
  userId: string;
  scopes: string[];
  isBot: boolean;
  isRevoked: boolean;
}

/** One chat.postMessage that succeeded, for counting duplicates. */
export interface FakeSlackPost {
  channel: string;
  ts: string;
  text: string;
  threadTs: string | null;
  metadata: FakeSlackMessage['metadata'] | null;
}

export interface FakeSlackState {
  team: { id: string; name: string; domain: string };
  users: FakeSlackUser[];
  channels: FakeSlackChannel[];
  tokens: Map<string, FakeSlackToken>;
  posted: FakeSlackPost[];
  /** The Slack app the OAuth endpoints accept. */
  app: { clientId: string; clientSecret: string };
  /** What the next browser sign-in answers: the user approves, or denies. */
  authorizeDecision: 'allow' | 'deny';
  /** The query of every GET /oauth/v2/authorize, for checking the scopes asked for. */
  authorizeRequests: URLSearchParams[];
  /** The user a browser sign-in signs in as. */
  signInUserId: string;
  /** Page size when the caller gives no `limit`. */
  defaultPageSize: number;
  issueToken(options?: { userId?: string; scopes?: string[]; isBot?: boolean }): string;
  channel(idOrName: string): FakeSlackChannel | undefined;
  user(id: string): FakeSlackUser | undefined;
}

/** The scopes a seeded user token carries: what Deputy asks for. */
export const FAKE_SLACK_SCOPES = [
  'channels:read',
  'channels:history',
  'groups:read',
  'groups:history',
  'im:read',
  'im:history',
  'users:read',
  'chat:write',
];

/** Shaped like the real thing (xoxp-team-user-app-secret), so the redactor's Slack pattern is exercised. */
export function fakeSlackToken(prefix: 'xoxp' | 'xoxb' = 'xoxp'): string {
  const digits = () => String(1_000_000_000 + Math.floor(Math.random() * 9_000_000_000));
  return `${prefix}-${digits()}-${digits()}-${digits()}-${randomBytes(16).toString('hex')}`;
}

/** A small workspace: three users, a public channel with history and threads, a private one, an archived one. */
export function createSlackState(): FakeSlackState {
  const users: FakeSlackUser[] = [
    { id: 'U0ALICE01', name: 'alice', realName: 'Alice Example', displayName: 'alice' },
    { id: 'U0BOB0002', name: 'bob', realName: 'Bob Builder', displayName: '' },
    { id: 'U0CAROL03', name: 'carol', realName: 'Carol Chen', displayName: 'carol.c' },
  ];
  const channels: FakeSlackChannel[] = [
    {
      id: 'C0GENERAL1',
      name: 'general',
      isPrivate: false,
      isArchived: false,
      topic: 'Company-wide announcements',
      members: ['U0ALICE01', 'U0BOB0002', 'U0CAROL03'],
      messages: [
        { ts: '1767225600.000100', user: 'U0BOB0002', text: 'Standup moved to 10:00 tomorrow.' },
        {
          ts: '1767229200.000200',
          user: 'U0CAROL03',
          text: 'Who can review the Q1 plan?',
          threadTs: '1767229200.000200',
          replyCount: 2,
        },
        { ts: '1767232800.000300', botId: 'B0DEPLOY1', username: 'deploy-bot', text: 'Deployed v2.3.1' },
        { ts: '1767236400.000400', user: 'U0ALICE01', text: 'Lunch at noon?' },
      ],
    },
    {
      id: 'G0LEADS001',
      name: 'leads',
      isPrivate: true,
      isArchived: false,
      topic: '',
      members: ['U0ALICE01', 'U0CAROL03'],
      messages: [{ ts: '1767240000.000500', user: 'U0CAROL03', text: 'Budget review on Friday.' }],
    },
    {
      id: 'C0RANDOM01',
      name: 'random',
      isPrivate: false,
      isArchived: false,
      topic: 'Anything goes',
      members: ['U0BOB0002'],
      messages: [],
    },
    {
      id: 'C0OLDPROJ1',
      name: 'old-project',
      isPrivate: false,
      isArchived: true,
      topic: '',
      members: ['U0ALICE01'],
      messages: [],
    },
    {
      id: 'G0SECRET01',
      name: 'hr-private',
      isPrivate: true,
      isArchived: false,
      topic: '',
      members: ['U0BOB0002'],
      messages: [{ ts: '1767240000.000600', user: 'U0BOB0002', text: 'Not for Alice.' }],
    },
    // Alice's direct messages with Carol: both wrote.
    {
      id: 'D0CAROL001',
      name: '',
      isPrivate: true,
      isArchived: false,
      topic: '',
      members: ['U0ALICE01', 'U0CAROL03'],
      isIm: true,
      messages: [
        { ts: '1767243600.000700', user: 'U0CAROL03', text: 'Can you send me the offsite budget?' },
        { ts: '1767247200.000800', user: 'U0ALICE01', text: 'Sure, by Thursday.' },
      ],
    },
    // Bob's with Carol: not Alice's to read.
    {
      id: 'D0BOBCAR01',
      name: '',
      isPrivate: true,
      isArchived: false,
      topic: '',
      members: ['U0BOB0002', 'U0CAROL03'],
      isIm: true,
      messages: [{ ts: '1767243600.000900', user: 'U0BOB0002', text: 'Private between Bob and Carol.' }],
    },
  ];
  const tokens = new Map<string, FakeSlackToken>();
  return {
    team: { id: 'T0DEPUTY01', name: 'Deputy Test', domain: 'deputy-test' },
    users,
    channels,
    tokens,
    posted: [],
    app: { clientId: '1111111111.2222222222', clientSecret: randomBytes(16).toString('hex') },
    authorizeDecision: 'allow',
    authorizeRequests: [],
    signInUserId: 'U0ALICE01',
    defaultPageSize: 100,
    issueToken: (options = {}) => {
      const token = fakeSlackToken(options.isBot ? 'xoxb' : 'xoxp');
      tokens.set(token, {
        userId: options.userId ?? 'U0ALICE01',
        scopes: options.scopes ?? FAKE_SLACK_SCOPES,
        isBot: options.isBot ?? false,
        isRevoked: false,
      });
      return token;
    },
    channel: (idOrName) =>
      channels.find((channel) => channel.id === idOrName || `#${channel.name}` === idOrName),
    user: (id) => users.find((user) => user.id === id),
  };
}
