import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { slackClientOptions } from '../../../electron/connections/slack-client';
import { conversationNames, NAME_LOOKUP_MS } from '../../../electron/tools/slack/slack-names';
import { startFakeSlack, type FakeSlack } from '../../fakes/slack/server';

let slack: FakeSlack;
let client: WebClient;

beforeEach(async () => {
  slack = await startFakeSlack();
  client = clientOf(slack.state.issueToken());
});
afterEach(() => slack.close());

const clientOf = (token: string) => new WebClient(token, slackClientOptions(`${slack.url}/api/`));
const asked = (method: string) =>
  slack.requests.filter((request) => request.path === `/api/${method}`).length;
const failNext = (status: number, body: { json?: unknown; text?: string }, times = 1) =>
  slack.inject({ match: /conversations\.info$/, response: { status, ...body }, times });

describe('conversationNames', () => {
  it('names a channel, a private channel and a direct message by what Slack says of them', async () => {
    const names = conversationNames();

    expect(await names.lookUp(client, 'C0RANDOM01')).toBe('#random');
    expect(await names.lookUp(client, 'G0LEADS001')).toBe('#leads');
    // A DM has no name: the person at its other end does (display name, as users.info gives it).
    expect(await names.lookUp(client, 'D0CAROL001')).toBe('Slack DM with carol.c');
    expect(names.known('C0RANDOM01')).toBe('#random');
  });

  it('asks Slack once per conversation in a session, however many approvals name it', async () => {
    const names = conversationNames();

    const together = await Promise.all([
      names.lookUp(client, 'C0RANDOM01'),
      names.lookUp(client, 'C0RANDOM01'),
    ]);
    const later = await names.lookUp(client, 'C0RANDOM01');

    expect([...together, later]).toEqual(['#random', '#random', '#random']);
    expect(asked('conversations.info')).toBe(1);
  });

  it('keeps the names of the most recently named conversations only', async () => {
    const names = conversationNames({ maxNames: 2 });

    await names.lookUp(client, 'C0RANDOM01');
    await names.lookUp(client, 'C0GENERAL1');
    await names.lookUp(client, 'C0RANDOM01');
    await names.lookUp(client, 'G0LEADS001');

    expect(names.known('C0RANDOM01')).toBe('#random');
    expect(names.known('G0LEADS001')).toBe('#leads');
    expect(names.known('C0GENERAL1')).toBeNull();
  });

  it('forgets what another sign-in named', async () => {
    const names = conversationNames();
    await names.lookUp(client, 'C0RANDOM01');

    await names.lookUp(clientOf(slack.state.issueToken()), 'C0GENERAL1');

    expect(names.known('C0RANDOM01')).toBeNull();
    expect(names.known('C0GENERAL1')).toBe('#general');
  });

  it('a look-up left over from the sign-in before does not drop the new sign-in’s look-up of the same id', async () => {
    const names = conversationNames({ timeoutMs: 20 });
    const answer = { status: 200, json: { ok: true, channel: { id: 'C0RANDOM01', name: 'random' } } };
    const old = clientOf(slack.state.issueToken());
    const oldInfo = vi.spyOn(old.conversations, 'info');
    slack.inject({ match: /conversations\.info$/, response: { ...answer, delayMs: 100 } });
    slack.inject({ match: /conversations\.info$/, response: { ...answer, delayMs: 600 } });

    // The old sign-in asks, and a new one asks for the same id while the old answer is still on its way.
    expect(await names.lookUp(old, 'C0RANDOM01')).toBeNull();
    expect(await names.lookUp(client, 'C0RANDOM01')).toBeNull();
    await oldInfo.mock.results[0]?.value;
    await new Promise((resolve) => setImmediate(resolve));
    // The old answer has come; the new sign-in asks again while its own question is on its way.
    await names.lookUp(client, 'C0RANDOM01');

    await expect.poll(() => names.known('C0RANDOM01'), { timeout: 2_000 }).toBe('#random');
    // One question per sign-in: the new one's second look-up waited for the question it had already asked.
    expect(asked('conversations.info')).toBe(2);
  });

  it('gives no name for a conversation Slack does not show the person, nor for one it cannot read', async () => {
    const names = conversationNames();

    // channel_not_found: no such id, and a private channel the person is not in.
    expect(await names.lookUp(client, 'C0NOSUCH01')).toBeNull();
    expect(await names.lookUp(client, 'G0SECRET01')).toBeNull();
    // missing_scope: a token that may not read DMs.
    const narrow = clientOf(slack.state.issueToken({ scopes: ['channels:read', 'users:read'] }));
    expect(await names.lookUp(narrow, 'D0CAROL001')).toBeNull();
    expect(names.known('D0CAROL001')).toBeNull();
  });

  it('gives no name when Slack fails, and asks again next time', async () => {
    const names = conversationNames();
    failNext(500, { json: { ok: false, error: 'internal_error' } });

    expect(await names.lookUp(client, 'C0RANDOM01')).toBeNull();
    expect(await names.lookUp(client, 'C0RANDOM01')).toBe('#random');
    expect(asked('conversations.info')).toBe(2);
  });

  it('gives no name for an answer that does not name the conversation', async () => {
    const names = conversationNames();
    const malformed: { json?: unknown; text?: string }[] = [
      { text: '<html>Bad gateway</html>' },
      { json: { ok: true } },
      { json: { ok: true, channel: 'random' } },
      { json: { ok: true, channel: { id: 'C0RANDOM01', name: 42 } } },
      { json: { ok: true, channel: { id: 'C0RANDOM01', name: 'two words' } } },
      { json: { ok: true, channel: { id: 'C0RANDOM01', name: '' } } },
      // A name that would turn the approval's words after it around (U+202E) or hide a mark (U+200F).
      { json: { ok: true, channel: { id: 'C0RANDOM01', name: 'random\u202Eslop' } } },
      { json: { ok: true, channel: { id: 'C0RANDOM01', name: 'random\u200F' } } },
      { json: { ok: true, channel: { id: 'D0CAROL001', is_im: true } } },
      { json: { ok: true, channel: { id: 'G0MPIM0001', name: 'mpdm-alice--carol-1', is_mpim: true } } },
    ];
    for (const body of malformed) {
      failNext(200, body);
      expect(await names.lookUp(client, 'C0RANDOM01'), JSON.stringify(body)).toBeNull();
    }
    expect(names.known('C0RANDOM01')).toBeNull();
  });

  it('gives no name for a DM whose person Slack cannot name', async () => {
    const names = conversationNames();
    slack.inject({
      match: /users\.info$/,
      response: { status: 200, json: { ok: false, error: 'user_not_found' } },
    });
    expect(await names.lookUp(client, 'D0CAROL001')).toBeNull();
    slack.inject({ match: /users\.info$/, response: { status: 503, text: 'unavailable' } });
    expect(await names.lookUp(client, 'D0CAROL001')).toBeNull();
    slack.inject({
      match: /users\.info$/,
      response: { status: 200, json: { ok: true, user: { id: 'U0CAROL03', name: 'a\nb' } } },
    });
    expect(await names.lookUp(client, 'D0CAROL001')).toBeNull();
    // Nor by a name that would turn the approval's words around it: a display name with U+202E falls back to
    // the real name, and with none left, to no name.
    slack.inject({
      match: /users\.info$/,
      response: {
        status: 200,
        json: {
          ok: true,
          user: {
            id: 'U0CAROL03',
            name: 'carol',
            real_name: 'Carol C',
            profile: { display_name: 'lorac\u202E' },
          },
        },
      },
    });
    expect(await names.lookUp(client, 'D0CAROL001')).toBe('Slack DM with Carol C');
    const names2 = conversationNames();
    slack.inject({
      match: /users\.info$/,
      response: { status: 200, json: { ok: true, user: { id: 'U0CAROL03', name: '\u2067carol' } } },
    });
    expect(await names2.lookUp(client, 'D0CAROL001')).toBeNull();
  });

  it('does not wait past its time limit, and keeps a late answer for the next time', async () => {
    const names = conversationNames({ timeoutMs: 50 });
    // Slack's answer is held until the look-up has given up: it cannot have waited for it.
    let answer = (): void => {};
    slack.inject({
      match: /conversations\.info$/,
      until: new Promise<void>((resolve) => (answer = resolve)),
    });

    const started = Date.now();
    expect(await names.lookUp(client, 'C0RANDOM01')).toBeNull();
    // Its own 50 ms, not the default 1.5 s, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(NAME_LOOKUP_MS - 500);
    answer();

    await expect.poll(() => names.known('C0RANDOM01'), { timeout: 2_000 }).toBe('#random');
    expect(await names.lookUp(client, 'C0RANDOM01')).toBe('#random');
    expect(asked('conversations.info')).toBe(1);
  });
});

describe('the fake Slack’s conversations.info', () => {
  it('answers in Slack’s shape: a channel’s object, a DM’s with its person, channel_not_found', async () => {
    const channel = await client.conversations.info({ channel: 'C0RANDOM01', include_num_members: true });
    expect(channel.channel).toMatchObject({
      id: 'C0RANDOM01',
      name: 'random',
      name_normalized: 'random',
      is_channel: true,
      is_im: false,
      is_mpim: false,
      is_private: false,
      is_archived: false,
      is_member: false,
      topic: { value: 'Anything goes' },
      num_members: 1,
    });
    expect((await client.conversations.info({ channel: 'C0RANDOM01' })).channel).not.toHaveProperty(
      'num_members',
    );
    const dm = await client.conversations.info({ channel: 'D0CAROL001' });
    expect(dm.channel).toMatchObject({ id: 'D0CAROL001', is_im: true, user: 'U0CAROL03' });
    expect(dm.channel).not.toHaveProperty('name');
    await expect(client.conversations.info({ channel: 'C0NOSUCH01' })).rejects.toMatchObject({
      data: { ok: false, error: 'channel_not_found' },
    });
  });
});
