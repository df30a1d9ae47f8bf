import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../electron/tools/service-errors';
import { slackRecipient } from '../../electron/tools/slack/slack-channels';
import { NAME_LOOKUP_MS } from '../../electron/tools/slack/slack-names';
import {
  createSlackTools,
  DEPUTY_EVENT_TYPE,
  DEPUTY_KEY_FIELD,
} from '../../electron/tools/slack/slack-tools';
import { ToolError, type Tool, type ToolContext } from '../../electron/tools/tool';
import { startFakeSlack, type FakeSlackChannel } from '../fakes/slack/server';
import { closedPort } from './gemini-test-kit';
import { expectNoToken, failure, startSlackHarness, toolContext, type SlackHarness } from './slack-test-kit';

let harness: SlackHarness | null = null;
let token = '';

async function connected(options: { scopes?: string[] } = {}): Promise<SlackHarness> {
  harness = await startSlackHarness();
  token = await harness.signIn(options);
  return harness;
}

afterEach(async () => {
  await harness?.close();
  harness = null;
});

function tool(h: SlackHarness, name: string): Tool {
  const found = createSlackTools(h.connector).find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

/** Parses the arguments as the registry does, runs the tool and checks the result against its output schema. */
async function run(
  h: SlackHarness,
  name: string,
  args: unknown,
  key?: string,
): Promise<Record<string, unknown>> {
  const chosen = tool(h, name);
  const result = await chosen.execute(chosen.input.parse(args), toolContext(key));
  return chosen.output.parse(result);
}

async function toolFailure(h: SlackHarness, name: string, args: unknown): Promise<ToolError> {
  const error = await failure(run(h, name, args));
  expect(error).toBeInstanceOf(ToolError);
  expectNoToken(error.message, token);
  return error as ToolError;
}

const calls = (h: SlackHarness, method: string) =>
  h.slack.requests.filter((request) => request.path === `/api/${method}`).length;

describe('slack_channels', () => {
  it('lists public channels and the private ones the user is in, not archived ones', async () => {
    const h = await connected();

    const result = await run(h, 'slack_channels', {});

    expect(result).toEqual({
      channels: [
        {
          id: 'C0GENERAL1',
          name: 'general',
          isPrivate: false,
          isMember: true,
          topic: 'Company-wide announcements',
          memberCount: 3,
        },
        { id: 'G0LEADS001', name: 'leads', isPrivate: true, isMember: true, topic: '', memberCount: 2 },
        {
          id: 'C0RANDOM01',
          name: 'random',
          isPrivate: false,
          isMember: false,
          topic: 'Anything goes',
          memberCount: 1,
        },
      ],
      isTruncated: false,
    });
  });

  it('filters by name', async () => {
    const h = await connected();

    const result = await run(h, 'slack_channels', { query: '#LEA' });

    expect((result.channels as { name: string }[]).map((channel) => channel.name)).toEqual(['leads']);
  });

  it('follows cursors across pages and stops at the cap', async () => {
    const h = await connected();
    const many: FakeSlackChannel[] = Array.from({ length: 1_100 }, (_, index) => ({
      id: `C0MANY${String(index).padStart(5, '0')}`,
      name: `team-${index}`,
      isPrivate: false,
      isArchived: false,
      topic: '',
      members: [],
      messages: [],
    }));
    h.slack.state.channels.push(...many);

    const result = await run(h, 'slack_channels', {});

    expect(result.channels).toHaveLength(1_000);
    expect(result.isTruncated).toBe(true);
    expect(calls(h, 'conversations.list')).toBe(5);
  });
});

describe('slack_read', () => {
  it('reads a channel by #name, newest first, with names resolved once per person', async () => {
    const h = await connected();

    const result = await run(h, 'slack_read', { channel: '#general' });

    expect(result.channel).toEqual({ id: 'C0GENERAL1', label: '#general' });
    expect(result.hasMore).toBe(false);
    expect(result.messages).toEqual([
      {
        ts: '1767236400.000400',
        userId: 'U0ALICE01',
        userName: 'alice',
        text: 'Lunch at noon?',
        threadTs: null,
        replyCount: 0,
      },
      {
        ts: '1767232800.000300',
        userId: null,
        userName: 'deploy-bot',
        text: 'Deployed v2.3.1',
        threadTs: null,
        replyCount: 0,
      },
      {
        ts: '1767229200.000200',
        userId: 'U0CAROL03',
        userName: 'carol.c',
        text: 'Who can review the Q1 plan?',
        threadTs: '1767229200.000200',
        replyCount: 2,
      },
      {
        ts: '1767225600.000100',
        userId: 'U0BOB0002',
        userName: 'Bob Builder',
        text: 'Standup moved to 10:00 tomorrow.',
        threadTs: null,
        replyCount: 0,
      },
    ]);
    expect(calls(h, 'users.info')).toBe(3);
  });

  it('says where each message came from by the channel’s name, or as what its id is when Slack gave none', async () => {
    const h = await connected();
    const read = tool(h, 'slack_read');
    const origins = async (channel: string) => {
      const output = await read.execute(read.input.parse({ channel, limit: 1 }), toolContext());
      return read.provenance?.(read.output.parse(output)).map((origin) => origin.label);
    };

    expect(await origins('D0CAROL001')).toEqual(['a Slack message from alice in Slack DM with carol.c']);
    expect(await origins('#general')).toEqual(['a Slack message from alice in #general']);
    h.slack.inject({
      match: /conversations\.info$/,
      response: { status: 500, text: 'Internal Server Error' },
    });
    expect(await origins('C0GENERAL1')).toEqual(['a Slack message from alice in Slack channel C0GENERAL1']);
  });

  it('asks Slack for users.info once per person even when they wrote many messages', async () => {
    const h = await connected();
    const general = h.slack.state.channel('C0GENERAL1');
    general?.messages.push(
      { ts: '1767240000.000001', user: 'U0BOB0002', text: 'one' },
      { ts: '1767240001.000001', user: 'U0BOB0002', text: 'two' },
    );

    await run(h, 'slack_read', { channel: 'C0GENERAL1' });

    expect(calls(h, 'users.info')).toBe(3);
    expect(calls(h, 'conversations.list')).toBe(0);
  });

  it('honours limit and oldest (an ISO date-time or a Slack ts)', async () => {
    const h = await connected();

    const limited = await run(h, 'slack_read', { channel: '#general', limit: 2 });
    const sinceIso = await run(h, 'slack_read', { channel: '#general', oldest: '2026-01-01T01:30:00Z' });
    const sinceTs = await run(h, 'slack_read', { channel: '#general', oldest: '1767232800.000300' });

    expect((limited.messages as unknown[]).length).toBe(2);
    expect(limited.hasMore).toBe(true);
    expect((sinceIso.messages as { ts: string }[]).map((message) => message.ts)).toEqual([
      '1767236400.000400',
      '1767232800.000300',
    ]);
    expect((sinceTs.messages as { ts: string }[]).map((message) => message.ts)).toEqual([
      '1767236400.000400',
    ]);
  });

  it('reads a private channel the user is in', async () => {
    const h = await connected();

    const result = await run(h, 'slack_read', { channel: '#leads' });

    expect((result.messages as { text: string }[])[0]?.text).toBe('Budget review on Friday.');
  });

  it('says which channel does not exist, by name or by id', async () => {
    const h = await connected();

    const byName = await toolFailure(h, 'slack_read', { channel: '#nope' });
    const hidden = await toolFailure(h, 'slack_read', { channel: 'G0SECRET01' });

    expect(byName.code).toBe('not_found');
    expect(byName.message).toBe(
      'No channel named #nope; call slack_channels to see the channels you can use.',
    );
    expect(hidden.code).toBe('not_found');
    expect(hidden.message).toMatch(/No channel G0SECRET01 .*slack_channels/);
  });

  it('refuses malformed arguments before calling Slack', () => {
    const read = createSlackTools({ client: () => Promise.reject(new Error('unused')) })[1];
    expect(read?.input.safeParse({ channel: '#a b' }).success).toBe(false);
    expect(read?.input.safeParse({ channel: '#general', limit: 101 }).success).toBe(false);
    expect(read?.input.safeParse({ channel: '#general', oldest: 'yesterday-ish' }).success).toBe(false);
  });
});

describe('slack_send', () => {
  it('posts with the idempotency key in message metadata, findable again in the history', async () => {
    const h = await connected();
    const key = 'run-7:call-3:abcdef';

    const result = await run(h, 'slack_send', { channel: '#General', text: 'Standup is at 10 today.' }, key);

    expect(result).toMatchObject({ channel: { id: 'C0GENERAL1', label: '#general' }, threadTs: null });
    expect(h.slack.state.posted).toEqual([
      {
        channel: 'C0GENERAL1',
        ts: result.ts,
        text: 'Standup is at 10 today.',
        threadTs: null,
        metadata: { event_type: DEPUTY_EVENT_TYPE, event_payload: { [DEPUTY_KEY_FIELD]: key } },
      },
    ]);
    const history = await (
      await h.connector.client()
    ).conversations.history({ channel: 'C0GENERAL1', limit: 5, include_all_metadata: true });
    const found = history.messages?.find(
      (message) =>
        (message.metadata?.event_payload as Record<string, unknown> | undefined)?.[DEPUTY_KEY_FIELD] === key,
    );
    expect(found?.ts).toBe(result.ts);
  });

  it('does not post twice for the same call: a retry finds its post by the key in the metadata', async () => {
    const h = await connected();
    const key = 'run-7:call-4:retried';
    const post = { channel: '#general', text: 'Deploy done.' };

    const first = await run(h, 'slack_send', post, key);
    const again = await run(h, 'slack_send', post, key);

    expect(h.slack.state.posted).toHaveLength(1);
    expect(first.wasAlreadyPosted).toBe(false);
    expect(again).toEqual({ ...first, wasAlreadyPosted: true });
    await run(h, 'slack_send', post, 'run-7:call-5:other');
    expect(h.slack.state.posted).toHaveLength(2);
  });

  it('replies in a thread', async () => {
    const h = await connected();

    const result = await run(h, 'slack_send', {
      channel: 'C0GENERAL1',
      text: 'I can review it.',
      thread_ts: '1767229200.000200',
    });

    expect(result.threadTs).toBe('1767229200.000200');
    expect(h.slack.state.posted[0]?.threadTs).toBe('1767229200.000200');
  });

  it('names the channel as a recipient, previews the post and offers a per-channel always-allow', async () => {
    const h = await connected();
    const send = tool(h, 'slack_send');
    const input = send.input.parse({
      channel: '#General',
      text: 'Hello team',
      thread_ts: '1767229200.000200',
    });

    expect(send).toMatchObject({
      category: 'external',
      risk: 'high',
      hasSideEffects: true,
      requires: 'slack',
    });
    expect(send.actionKind).toBe('slack.send');
    expect(send.isExternal).toBe(true);
    expect(send.recipients?.(input)).toEqual(['slack:#general']);
    expect(slackRecipient('C0GENERAL1')).toBe('slack:C0GENERAL1');
    expect(send.preview?.(input)).toEqual({
      title: 'Post to #general in Slack',
      fields: [
        { label: 'Channel', value: '#general' },
        // The thread by its first post's time (in the person's zone), then Slack's id for it.
        {
          label: 'In thread',
          value: 'A reply to the post of 1 Jan 2026, 01:00 (UTC; its id in Slack: 1767229200.000200)',
        },
      ],
      body: 'Hello team',
    });
    expect(send.alwaysAllowScopes?.(input)).toEqual([
      { field: 'recipients', pattern: 'slack:#general', label: 'Always allow posting to #general' },
    ]);
  });

  it('names a channel given by Slack’s id in words, with the id, which is all that identifies it', async () => {
    const send = tool(await connected(), 'slack_send');
    const byId = (channel: string) => {
      const input = send.input.parse({ channel, text: 'Hi' });
      return { preview: send.preview?.(input), scopes: send.alwaysAllowScopes?.(input) };
    };
    expect(byId('C0RANDOM01')).toEqual({
      preview: {
        title: 'Post to Slack channel C0RANDOM01',
        fields: [{ label: 'Channel', value: 'Slack channel C0RANDOM01' }],
        body: 'Hi',
      },
      scopes: [
        {
          field: 'recipients',
          pattern: 'slack:C0RANDOM01',
          label: 'Always allow posting to Slack channel C0RANDOM01',
        },
      ],
    });
    expect(byId('D0CAROL001').preview?.title).toBe('Post to Slack DM D0CAROL001');
    // In the person's time zone, named.
    const berlin = createSlackTools(
      { client: () => Promise.reject(new Error('unused')) },
      { timezone: () => 'Europe/Berlin' },
    ).find((candidate) => candidate.name === 'slack_send');
    const reply = berlin?.input.parse({ channel: '#general', text: 'Hi', thread_ts: '1767229200.000200' });
    expect(berlin?.preview?.(reply).fields[1]).toEqual({
      label: 'In thread',
      value: 'A reply to the post of 1 Jan 2026, 02:00 (Europe/Berlin; its id in Slack: 1767229200.000200)',
    });
  });

  it('names a channel given by id as Slack names it, once reading whom the post reaches has asked Slack', async () => {
    const h = await connected();
    const tools = createSlackTools(h.connector);
    const send = tools.find((candidate) => candidate.name === 'slack_send');
    if (!send?.reach) throw new Error('no slack_send with a reach');
    const described = async (channel: string) => {
      const input = send.input.parse({ channel, text: 'Hi' });
      const reach = await send.reach?.(input, toolContext());
      return { reach, preview: send.preview?.(input, reach), scopes: send.alwaysAllowScopes?.(input) };
    };

    expect(await described('C0RANDOM01')).toEqual({
      // The address the policy matches stays Slack's id; the name is what the person reads.
      reach: { recipients: [{ address: 'slack:C0RANDOM01', role: 'channel', name: '#random in Slack' }] },
      preview: {
        title: 'Post to #random in Slack',
        fields: [{ label: 'Channel', value: '#random' }],
        body: 'Hi',
      },
      scopes: [
        { field: 'recipients', pattern: 'slack:C0RANDOM01', label: 'Always allow posting to #random' },
      ],
    });
    const dm = await described('D0CAROL001');
    expect(dm.reach?.recipients).toEqual([
      { address: 'slack:D0CAROL001', role: 'channel', name: 'Slack DM with carol.c' },
    ]);
    expect(dm.preview?.title).toBe('Post to Slack DM with carol.c');
    // A channel given by name needs no look-up; each id was asked about once.
    expect((await described('#general')).reach?.recipients).toEqual([
      { address: 'slack:#general', role: 'channel' },
    ]);
    await described('C0RANDOM01');
    expect(calls(h, 'conversations.info')).toBe(2);
    // What the model reads is the channel as it gave it, with the name found (not asked for again); the card's
    // names for a read or a post of it are what was found.
    const read = tools.find((candidate) => candidate.name === 'slack_read');
    const input = read?.input.parse({ channel: 'C0RANDOM01' });
    expect(read?.names?.(input)).toEqual({ C0RANDOM01: '#random' });
    expect(send.names?.(send.input.parse({ channel: '#general', text: 'Hi' }))).toEqual({});
    expect((await read?.execute(input, toolContext()))?.channel).toEqual({
      id: 'C0RANDOM01',
      label: 'C0RANDOM01',
      name: '#random',
    });
    expect(calls(h, 'conversations.info')).toBe(2);
  });

  it('names a channel by its id as before when Slack does not name it, fails, or is slow', async () => {
    const h = await connected();
    const send = createSlackTools(h.connector, { timezone: () => 'UTC', nameLookupMs: 100 }).find(
      (candidate) => candidate.name === 'slack_send',
    );
    if (!send?.reach) throw new Error('no slack_send with a reach');
    const described = async (channel: string) => {
      const input = send.input.parse({ channel, text: 'Hi' });
      const reach = await send.reach?.(input, toolContext());
      return { recipients: reach?.recipients, title: send.preview?.(input, reach).title };
    };
    const asBefore = {
      recipients: [{ address: 'slack:C0RANDOM01', role: 'channel' }],
      title: 'Post to Slack channel C0RANDOM01',
    };

    h.slack.inject({
      match: /conversations\.info$/,
      response: { status: 500, text: 'Internal Server Error' },
    });
    expect(await described('C0RANDOM01')).toEqual(asBefore);
    h.slack.inject({
      match: /conversations\.info$/,
      response: { status: 200, json: { ok: true, channel: [] } },
    });
    expect(await described('C0RANDOM01')).toEqual(asBefore);
    // Slack's answer is held until the approval was described without it.
    let answer = (): void => {};
    h.slack.inject({
      match: /conversations\.info$/,
      response: { status: 200, json: { ok: false, error: 'channel_not_found' } },
      until: new Promise<void>((resolve) => (answer = resolve)),
    });
    const started = Date.now();
    expect(await described('C0RANDOM01')).toEqual(asBefore);
    // Its own 0.1 s, not the default 1.5 s, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(NAME_LOOKUP_MS - 500);
    answer();
    expect(await described('C0NOSUCH01')).toEqual({
      recipients: [{ address: 'slack:C0NOSUCH01', role: 'channel' }],
      title: 'Post to Slack channel C0NOSUCH01',
    });
  });

  it('says to join a channel the user is not in, and refuses archived ones', async () => {
    const h = await connected();

    const notIn = await toolFailure(h, 'slack_send', { channel: '#random', text: 'hi' });
    const archived = await toolFailure(h, 'slack_send', { channel: 'C0OLDPROJ1', text: 'hi' });

    expect(notIn.code).toBe('forbidden');
    expect(notIn.message).toBe('You are not a member of #random. Join it in Slack first, then ask again.');
    expect(archived.message).toMatch(/archived/);
    expect(h.slack.state.posted).toHaveLength(0);
  });

  it('names a channel given by id in its errors as the call was decided with: its name, then its id', async () => {
    const h = await connected();
    const [read, send] = [tool(h, 'slack_read'), tool(h, 'slack_send')];
    // The names stored with the call's action, as the engine hands them over (after a restart too).
    const decided: ToolContext = {
      ...toolContext(),
      names: { C0RANDOM01: '#random', C0OLDPROJ1: '#old-project' },
    };
    const posting = (channel: string, context = decided) =>
      failure(send.execute(send.input.parse({ channel, text: 'hi' }), context));

    const notIn = await posting('C0RANDOM01');
    const archived = await posting('C0OLDPROJ1');
    h.slack.inject({
      match: /conversations\.history$/,
      response: { status: 200, json: { ok: false, error: 'missing_scope', needed: 'channels:history' } },
    });
    const unread = await failure(read.execute(read.input.parse({ channel: 'C0RANDOM01' }), decided));
    // Decided with no name for it: the id alone, as before, whatever this session has found since.
    const unnamed = await posting('C0RANDOM01', toolContext());

    expect(notIn.message).toBe(
      'You are not a member of #random (C0RANDOM01). Join it in Slack first, then ask again.',
    );
    expect(archived.message).toBe('#old-project (C0OLDPROJ1) is archived, so nothing can be posted there.');
    expect(unread.message).toMatch(/^Slack refused reading #random \(C0RANDOM01\): /);
    expect(unnamed.message).toBe(
      'You are not a member of C0RANDOM01. Join it in Slack first, then ask again.',
    );
  });

  it('an undo names the channel as the post’s result did, in its answer and its errors', async () => {
    const h = await connected();
    const send = tool(h, 'slack_send');
    const input = send.input.parse({ channel: 'C0RANDOM01', text: 'hi' });
    const undoing = (name?: string) =>
      send.undo?.(
        {
          input,
          output: {
            channel: { id: 'C0RANDOM01', label: 'C0RANDOM01', ...(name && { name }) },
            ts: '1767225600.000100',
            threadTs: null,
            wasAlreadyPosted: false,
          },
          before: null,
        },
        { signal: new AbortController().signal, now: () => new Date('2026-01-01T12:00:00Z') },
      );

    expect(await undoing('#random')).toEqual({
      deleted: '1767225600.000100',
      channel: '#random (C0RANDOM01)',
      wasAlreadyGone: true,
    });
    // A post's result from before names were kept says the id alone, as before.
    expect(await undoing()).toMatchObject({ channel: 'C0RANDOM01' });
    h.slack.inject({
      match: /chat\.delete$/,
      response: { status: 200, json: { ok: false, error: 'cant_delete_message' } },
    });
    expect((await failure(undoing('#random'))).message).toBe(
      'Slack refused deleting the post in #random (C0RANDOM01) (cant_delete_message).',
    );
  });

  it('asks to reconnect when the token lacks a scope', async () => {
    const h = await connected({ scopes: ['channels:read', 'channels:history', 'users:read'] });

    const error = await toolFailure(h, 'slack_send', { channel: '#general', text: 'hi' });

    expect(error.code).toBe('forbidden');
    expect(error.message).toMatch(/missing the chat:write scope/);
    expect(error.message).toMatch(/Reconnect Slack in Settings/);
  });
});

describe('Slack tool errors', () => {
  it('a revoked token: not_connected for the model, error status for the connection', async () => {
    const h = await connected();
    const grant = h.slack.state.tokens.get(token);
    if (grant) grant.isRevoked = true;

    const first = await toolFailure(h, 'slack_read', { channel: 'C0GENERAL1' });
    const second = await toolFailure(h, 'slack_channels', {});

    expect(first.code).toBe('not_connected');
    expect(first.message).toMatch(/Slack did not accept the saved sign-in.*Connect Slack in Settings/);
    expect(second.code).toBe('not_connected');
    expect(second.message).toMatch(/no longer valid/);
    const status = h.connector.status();
    expect(status.state).toBe('error');
    expectNoToken(JSON.stringify(status), token);
  });

  it('rate limiting (429 with Retry-After) comes back as rate_limited with the wait', async () => {
    const h = await connected();
    h.slack.inject({
      match: /^POST \/api\/conversations\.history$/,
      response: { status: 429, headers: { 'retry-after': '7' }, json: { ok: false, error: 'ratelimited' } },
    });

    const error = await toolFailure(h, 'slack_read', { channel: 'C0GENERAL1' });

    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({
      code: 'rate_limited',
      status: 429,
      retryAfterSeconds: 7,
      isTransient: true,
    });
    expect(error.message).toMatch(/Try again in 7 s/);
  });

  it('an HTTP 500 is unavailable and transient', async () => {
    const h = await connected();
    h.slack.inject({ match: /chat\.postMessage/, response: { status: 500, text: `boom ${token}` } });

    const error = await toolFailure(h, 'slack_send', { channel: 'C0GENERAL1', text: 'hi' });

    expect(error).toMatchObject({ code: 'unavailable', status: 500, isTransient: true });
    expect(h.slack.state.posted).toHaveLength(0);
  });

  it('a network failure says Slack could not be reached', async () => {
    const slack = await startFakeSlack();
    const port = await closedPort();
    harness = await startSlackHarness({
      slack,
      env: { DEPUTY_SLACK_API_URL: `http://127.0.0.1:${port}/api/` },
    });
    token = slack.state.issueToken();
    harness.vault.setJson('slack.token', {
      token,
      userId: 'U0ALICE01',
      user: 'alice',
      teamId: 'T0DEPUTY01',
      team: 'Deputy Test',
      scopes: [],
    });

    const error = await toolFailure(harness, 'slack_channels', {});

    expect(error).toMatchObject({ code: 'unavailable', status: null, isTransient: true });
    expect(error.message).toMatch(/Could not reach Slack while listing Slack channels \(ECONNREFUSED\)/);
  });

  it('without a connection every tool says to connect Slack', async () => {
    harness = await startSlackHarness();

    for (const [name, args] of [
      ['slack_channels', {}],
      ['slack_read', { channel: '#general' }],
      ['slack_send', { channel: '#general', text: 'hi' }],
    ] as const) {
      const error = await toolFailure(harness, name, args);
      expect(error.code).toBe('not_connected');
      expect(error.message).toMatch(/Slack is not connected/);
    }
    expect(harness.slack.requests).toHaveLength(0);
  });
});
