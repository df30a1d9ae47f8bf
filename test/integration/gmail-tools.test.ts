import { OAuth2Client } from 'google-auth-library';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notConnected, type GoogleAccess } from '../../electron/connections/access';
import { createGmailTools } from '../../electron/tools/gmail/gmail-tools';
import { ServiceError } from '../../electron/tools/service-errors';
import { ToolError, type Tool, type ToolContext } from '../../electron/tools/tool';
import { googleError } from '../fakes/http-kit';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { FAKE_CLIENT, signedInGoogle } from '../support/google-access';

const NOW = new Date('2026-11-22T09:00:00Z');
const KEY = '5f0c1e2d3b4a69788796a5b4c3d2e1f0';

let fake: FakeGoogle;
let access: GoogleAccess & { client: OAuth2Client };

beforeEach(async () => {
  fake = await startFakeGoogle();
  access = signedInGoogle(fake);
});
afterEach(() => fake.close());

function context(idempotencyKey = KEY): ToolContext {
  return {
    runId: 'run-1',
    threadId: 'thread-1',
    actionId: 'action-1',
    idempotencyKey,
    signal: new AbortController().signal,
    now: () => NOW,
  };
}

function toolNamed(name: string, tools: Tool[] = createGmailTools(access)): Tool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

/** Runs a tool as the registry does: input parsed first; the output must match the published schema. */
async function run(name: string, args: unknown, key?: string): Promise<Record<string, unknown>> {
  const tool = toolNamed(name);
  const output = await tool.execute(tool.input.parse(args), context(key));
  return tool.output.parse(output);
}

async function failure(name: string, args: unknown, tools?: Tool[]): Promise<ToolError> {
  const tool = toolNamed(name, tools);
  try {
    await tool.execute(tool.input.parse(args), context());
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error(`${name} did not fail`);
}

interface ThreadMessage {
  id: string;
  from: string;
  subject: string;
  messageId: string;
  body: string;
  isBodyTruncated: boolean;
  attachments: unknown[];
}

describe('gmail_search', () => {
  it('finds messages by sender and returns their headers and a decoded snippet', async () => {
    fake.gmail.addMessage({
      from: 'Ana Lima <ana@example.com>',
      to: 'me@example.com',
      subject: 'Budget',
      text: "Let's talk about the budget & plan.",
    });
    fake.gmail.addMessage({
      from: 'ben@example.com',
      to: 'me@example.com',
      subject: 'Lunch',
      text: 'Pizza?',
    });
    const result = await run('gmail_search', { q: 'from:ana@example.com' });
    expect(result).toEqual({
      messages: [
        {
          id: expect.any(String),
          threadId: expect.any(String),
          from: 'Ana Lima <ana@example.com>',
          to: 'me@example.com',
          subject: 'Budget',
          date: expect.stringMatching(/^2026-11-20T09:\d\d:00\.000Z$/),
          snippet: "Let's talk about the budget & plan.",
        },
      ],
      hasMore: false,
    });
  });

  it('returns at most maxResults, newest first, and says when there are more', async () => {
    for (const day of [1, 3, 2]) {
      fake.gmail.addMessage({
        from: 'news@example.com',
        to: 'me@example.com',
        subject: `Issue ${day}`,
        date: `2026-11-0${day}T08:00:00Z`,
        text: 'news',
      });
    }
    const result = (await run('gmail_search', { q: 'news', maxResults: 2 })) as {
      messages: { subject: string }[];
      hasMore: boolean;
    };
    expect(result.messages.map((message) => message.subject)).toEqual(['Issue 3', 'Issue 2']);
    expect(result.hasMore).toBe(true);
  });

  it('is a low-risk query without side effects that needs Google', () => {
    for (const name of ['gmail_search', 'gmail_thread_read']) {
      expect(toolNamed(name)).toMatchObject({
        category: 'query',
        risk: 'low',
        hasSideEffects: false,
        requires: 'google',
      });
    }
  });

  it('refuses more than 25 results', () => {
    expect(toolNamed('gmail_search').input.safeParse({ q: 'x', maxResults: 26 }).success).toBe(false);
  });
});

describe('gmail_thread_read', () => {
  it('reads plain, HTML-only and multipart messages, lists attachments and decodes non-ASCII', async () => {
    const { threadId } = fake.gmail.addThread([
      {
        from: 'Jürgen <juergen@example.de>',
        to: 'me@example.com',
        subject: 'Grüße aus Köln',
        messageId: '<first@example.de>',
        text: 'Grüße aus Köln — 会議は月曜日 🎉\nZeile zwei',
      },
      {
        from: 'shop@example.com',
        to: 'me@example.com',
        subject: '=?UTF-8?B?w5xiZXJzaWNodA==?=',
        html: '<html><head><style>.x{color:red}</style></head><body><script>steal(document.cookie)</script><p>Your order &amp; receipt</p><p>Track it <a href="https://shop.example/t/1">here</a>.</p></body></html>',
      },
      {
        from: 'ana@example.com',
        to: 'me@example.com',
        cc: 'ben@example.com',
        subject: 'Angebot',
        text: 'Anbei das Angebot.',
        textCharset: 'iso-8859-1',
        html: '<p>Anbei das <b>Angebot</b>.</p>',
        attachments: [{ filename: 'Angebot.pdf', mimeType: 'application/pdf', content: 'x'.repeat(1234) }],
      },
    ]);
    const result = (await run('gmail_thread_read', { threadId })) as {
      threadId: string;
      messages: (ThreadMessage & { cc: string })[];
      omittedMessages: number;
    };
    expect(result.threadId).toBe(threadId);
    expect(result.omittedMessages).toBe(0);
    const [plain, html, multipart] = result.messages;
    expect(plain).toMatchObject({
      from: 'Jürgen <juergen@example.de>',
      subject: 'Grüße aus Köln',
      messageId: '<first@example.de>',
      body: 'Grüße aus Köln — 会議は月曜日 🎉\nZeile zwei',
      isBodyTruncated: false,
      attachments: [],
    });
    expect(html?.subject).toBe('Übersicht');
    expect(html?.body).toBe('Your order & receipt\n\nTrack it here (https://shop.example/t/1).');
    expect(multipart).toMatchObject({
      cc: 'ben@example.com',
      body: 'Anbei das Angebot.',
      attachments: [{ filename: 'Angebot.pdf', mimeType: 'application/pdf', size: 1234 }],
    });
  });

  it('cuts a long body at 20,000 characters and says so', async () => {
    const { threadId } = fake.gmail.addThread([
      { from: 'a@example.com', to: 'me@example.com', subject: 'Long', text: 'y'.repeat(25_000) },
    ]);
    const result = (await run('gmail_thread_read', { threadId })) as { messages: ThreadMessage[] };
    const [message] = result.messages;
    expect(message?.isBodyTruncated).toBe(true);
    expect(message?.body.startsWith('y'.repeat(20_000))).toBe(true);
    expect(message?.body).toContain('25000 characters');
    expect(message?.body.length).toBeLessThan(20_100);
  });

  it('says an unknown thread was not found', async () => {
    const error = await failure('gmail_thread_read', { threadId: 'nope123' });
    expect(error.code).toBe('not_found');
    expect(error.message).toMatch(/Google found nothing for reading the Gmail thread/);
  });
});

const SUBJECT = 'Grüße — 会議の議事録 🎉 und eine ziemlich lange Betreffzeile über das Angebot für 2027';
const BODY =
  'Hallo Jürgen,\n\nanbei die Zahlen: 1 000 € — 会議は月曜日です 🎉\n=?not-a-word?= and a line\nthat ends.\n';

describe('gmail_send', () => {
  it('sends UTF-8 subject and body exactly, with our Message-ID, Date and MIME headers', async () => {
    const result = await run('gmail_send', {
      to: ['Juergen@Example.de'],
      cc: ['ana@example.com'],
      bcc: ['archive@example.com'],
      subject: SUBJECT,
      body: BODY,
    });
    expect(fake.gmail.sent).toHaveLength(1);
    const [sent] = fake.gmail.sent;
    expect(sent).toMatchObject({
      subject: SUBJECT,
      body: BODY,
      to: 'Juergen@Example.de',
      cc: 'ana@example.com',
      bcc: 'archive@example.com',
      messageId: `<deputy.${KEY}@deputy.local>`,
      inReplyTo: '',
    });
    expect(sent?.headers['mime-version']).toBe('1.0');
    expect(sent?.headers.date).toBe('Sun, 22 Nov 2026 09:00:00 +0000');
    expect(sent?.raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(result).toEqual({
      messageId: sent?.id,
      threadId: sent?.threadId,
      rfc822MessageId: `<deputy.${KEY}@deputy.local>`,
      wasAlreadySent: false,
    });
  });

  it('does not send twice for the same call: a retry finds the sent mail by its Message-ID', async () => {
    const mail = { to: ['ana@example.com'], subject: 'Once', body: 'only once' };
    const first = await run('gmail_send', mail);
    const again = await run('gmail_send', mail);
    expect(fake.gmail.sent).toHaveLength(1);
    expect(again).toEqual({ ...first, wasAlreadySent: true });
    await run('gmail_send', mail, 'another-call-key');
    expect(fake.gmail.sent).toHaveLength(2);
  });

  it('dates the mail by the clock it was given', async () => {
    const tools = createGmailTools(access, { now: () => new Date('2027-01-02T03:04:05Z') });
    const tool = toolNamed('gmail_send', tools);
    await tool.execute(tool.input.parse({ to: ['ana@example.com'], subject: 'x', body: 'y' }), context());
    expect(fake.gmail.sent[0]?.headers.date).toBe('Sat, 02 Jan 2027 03:04:05 +0000');
  });

  it('can be found again in sent mail by its Message-ID, and reads back the same', async () => {
    await run('gmail_send', { to: ['ana@example.com'], subject: SUBJECT, body: BODY });
    const found = (await run('gmail_search', { q: `in:sent rfc822msgid:<deputy.${KEY}@deputy.local>` })) as {
      messages: { threadId: string; subject: string }[];
    };
    expect(found.messages).toHaveLength(1);
    expect(found.messages[0]?.subject).toBe(SUBJECT);
    const thread = (await run('gmail_thread_read', { threadId: found.messages[0]?.threadId })) as {
      messages: ThreadMessage[];
    };
    expect(thread.messages[0]?.body).toBe(BODY);
    expect(thread.messages[0]?.from).toBe('me@example.com');
  });

  it('replies in the thread: In-Reply-To, References, threadId and "Re:"', async () => {
    const { threadId, messages } = fake.gmail.addThread([
      {
        from: 'ana@example.com',
        to: 'me@example.com',
        subject: 'Budget 2027',
        messageId: '<root@mail.example.com>',
        text: 'Numbers?',
      },
      {
        from: 'ana@example.com',
        to: 'me@example.com',
        subject: 'Re: Budget 2027',
        messageId: '<second@mail.example.com>',
        references: '<root@mail.example.com>',
        text: 'Any news?',
      },
    ]);
    const result = await run('gmail_send', {
      to: ['ana@example.com'],
      body: 'Here they are.',
      replyToMessageId: messages[1]?.id,
    });
    const [sent] = fake.gmail.sent;
    expect(sent).toMatchObject({
      threadId,
      subject: 'Re: Budget 2027',
      inReplyTo: '<second@mail.example.com>',
      references: '<root@mail.example.com> <second@mail.example.com>',
    });
    expect(result.threadId).toBe(threadId);

    await run(
      'gmail_send',
      {
        to: ['ana@example.com'],
        subject: 'Budget 2027',
        body: 'And one more.',
        replyToMessageId: messages[0]?.id,
      },
      'another-key-0000000000000000000000',
    );
    expect(fake.gmail.sent[1]).toMatchObject({
      threadId,
      subject: 'Re: Budget 2027',
      inReplyTo: '<root@mail.example.com>',
      references: '<root@mail.example.com>',
    });
  });

  it('says when the message being replied to does not exist, and sends nothing', async () => {
    const error = await failure('gmail_send', {
      to: ['ana@example.com'],
      body: 'x',
      replyToMessageId: 'missing1',
    });
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('reading the message being replied to');
    expect(fake.gmail.sent).toHaveLength(0);
  });

  it('rejects header injection and a missing subject before anything is sent', () => {
    const input = toolNamed('gmail_send').input;
    const valid = { to: ['ana@example.com'], subject: 'Hi', body: 'x' };
    expect(input.safeParse(valid).success).toBe(true);
    expect(input.safeParse({ ...valid, subject: 'Hi\r\nBcc: evil@example.com' }).success).toBe(false);
    expect(input.safeParse({ ...valid, subject: 'Hi\nX-Evil: 1' }).success).toBe(false);
    expect(input.safeParse({ ...valid, to: ['ana@example.com\r\nBcc: evil@example.com'] }).success).toBe(
      false,
    );
    expect(input.safeParse({ ...valid, cc: ['not an address'] }).success).toBe(false);
    expect(input.safeParse({ ...valid, replyToMessageId: '../../drafts' }).success).toBe(false);
    expect(input.safeParse({ to: ['ana@example.com'], body: 'x' }).success).toBe(false);
    expect(input.safeParse({ ...valid, extra: 1 }).success).toBe(false);
  });

  it('names every recipient for the policy and previews the mail', () => {
    const tool = toolNamed('gmail_send');
    const input = tool.input.parse({
      to: ['Ana@Example.com'],
      cc: ['ben@example.com'],
      bcc: ['ana@example.com'],
      subject: 'Hi',
      body: 'Hello',
    });
    expect(tool).toMatchObject({
      category: 'external',
      risk: 'high',
      hasSideEffects: true,
      requires: 'google',
    });
    expect(tool.actionKind).toBe('email.send');
    expect(tool.isExternal).toBe(true);
    expect(tool.recipients?.(input)).toEqual(['ana@example.com', 'ben@example.com']);
    expect(tool.preview?.(input)).toEqual({
      title: 'Send an email to Ana@Example.com',
      fields: [
        { label: 'To', value: 'Ana@Example.com' },
        { label: 'Cc', value: 'ben@example.com' },
        { label: 'Bcc', value: 'ana@example.com' },
        { label: 'Subject', value: 'Hi' },
      ],
      body: 'Hello',
    });
    expect(tool.alwaysAllowScopes?.(input)).toEqual([]);
    const single = tool.input.parse({ to: ['Ana@Example.com'], subject: 'Hi', body: 'Hello' });
    expect(tool.alwaysAllowScopes?.(single)).toEqual([
      { field: 'recipients', pattern: 'ana@example.com', label: 'Always allow sending to ana@example.com' },
    ]);
  });
});

describe('gmail_draft_create', () => {
  it('saves a draft, in the thread when replying, without sending anything', async () => {
    const { threadId, messages } = fake.gmail.addThread([
      {
        from: 'ana@example.com',
        to: 'me@example.com',
        subject: 'Plan',
        messageId: '<p@x.example>',
        text: 'Plan?',
      },
    ]);
    const result = await run('gmail_draft_create', {
      to: ['ana@example.com'],
      body: 'Draft answer — ä',
      replyToMessageId: messages[0]?.id,
    });
    expect(fake.gmail.sent).toHaveLength(0);
    expect(fake.gmail.drafts).toHaveLength(1);
    const [draft] = fake.gmail.drafts;
    expect(result).toEqual({
      draftId: draft?.id,
      messageId: draft?.message.id,
      threadId,
      rfc822MessageId: `<deputy.${KEY}@deputy.local>`,
      wasAlreadySaved: false,
    });
    expect(draft?.message.text).toBe('Draft answer — ä');
    expect(draft?.message.payload.headers).toContainEqual({ name: 'In-Reply-To', value: '<p@x.example>' });
    const tool = toolNamed('gmail_draft_create');
    expect(tool).toMatchObject({
      category: 'draft',
      risk: 'medium',
      actionKind: 'email.draft',
      isExternal: true,
    });
    expect(
      tool.preview?.(tool.input.parse({ to: ['ana@example.com'], body: 'b', replyToMessageId: 'm1' })),
    ).toMatchObject({
      title: 'Draft an email to ana@example.com (a reply)',
      fields: [
        { label: 'To', value: 'ana@example.com' },
        { label: 'Subject', value: 'Re: (the original subject)' },
      ],
    });
  });
});

describe('gmail_draft_create, retried', () => {
  it('does not save a second draft for the same call, and does not count it as sent', async () => {
    const mail = { to: ['ana@example.com'], subject: 'Draft once', body: 'only once' };
    const first = await run('gmail_draft_create', mail);
    const again = await run('gmail_draft_create', mail);
    expect(fake.gmail.drafts).toHaveLength(1);
    expect(again).toEqual({ ...first, wasAlreadySaved: true });
    // A draft with our Message-ID is not sent mail: sending under the same key still sends.
    await run('gmail_send', mail);
    expect(fake.gmail.sent).toHaveLength(1);
  });
});

describe('failures', () => {
  const read = { threadId: 'abc123' };

  async function expectFailure(status: number, headers: Record<string, string> = {}): Promise<ToolError> {
    fake.inject({ match: /^GET \/gmail\//, response: { ...googleError(status, `fake ${status}`), headers } });
    return failure('gmail_thread_read', read);
  }

  it('maps 401 to not_connected', async () => {
    const error = await expectFailure(401);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.code).toBe('not_connected');
    expect(error.message).toMatch(/did not accept the saved sign-in.*Settings → Connections/);
  });

  it('maps a 401 whose refresh is refused (invalid_grant) to not_connected', async () => {
    const { accessToken, refreshToken } = fake.oauth.issueTokens();
    const client = new OAuth2Client({ ...FAKE_CLIENT, endpoints: { oauth2TokenUrl: `${fake.url}/token` } });
    // No expiry: the client refreshes on a 401, as it does for a token saved without one.
    client.setCredentials({ access_token: accessToken, refresh_token: refreshToken });
    fake.inject({ match: /^GET \/gmail\//, response: googleError(401, 'expired') });
    fake.inject({
      match: /^POST \/token$/,
      response: {
        status: 400,
        json: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
      },
    });
    const tools = createGmailTools({ authClient: () => Promise.resolve(client), apiRoot: access.apiRoot });
    const error = await failure('gmail_thread_read', read, tools);
    expect(error.code).toBe('not_connected');
    expect(fake.requests.some((request) => request.path === '/token')).toBe(true);
  });

  it('maps 403 to forbidden with Google’s reason', async () => {
    const error = await expectFailure(403);
    expect(error.code).toBe('forbidden');
    expect(error.message).toContain('fake 403');
  });

  it('maps 429 with Retry-After to rate_limited and says how long to wait', async () => {
    const error = await expectFailure(429, { 'Retry-After': '42' });
    expect(error).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 42, isTransient: true });
    expect(error.message).toContain('Try again in 42 s.');
  });

  it('treats a 403 that means "slow down" as a transient rate limit, and a spent daily quota as not', async () => {
    fake.inject({
      match: /^GET \/gmail\//,
      response: {
        ...googleError(403, 'User-rate limit exceeded', 'userRateLimitExceeded'),
        headers: { 'Retry-After': '5' },
      },
    });
    expect(await failure('gmail_thread_read', read)).toMatchObject({
      code: 'rate_limited',
      isTransient: true,
      retryAfterSeconds: 5,
    });
    fake.inject({ match: /^GET \/gmail\//, response: googleError(403, 'Daily limit', 'quotaExceeded') });
    expect(await failure('gmail_thread_read', read)).toMatchObject({ code: 'forbidden', isTransient: false });
  });

  it('maps 404 and 400 to permanent failures', async () => {
    expect(await expectFailure(404)).toMatchObject({ code: 'not_found', isTransient: false });
    expect(await expectFailure(400)).toMatchObject({ code: 'invalid_request', isTransient: false });
  });

  it('maps 500 to unavailable', async () => {
    const error = await expectFailure(500);
    expect(error).toMatchObject({ code: 'unavailable', status: 500, isTransient: true });
  });

  it('maps a refused connection to unavailable with the network code', async () => {
    const closed = await startFakeGoogle();
    const apiRoot = closed.env.DEPUTY_GOOGLE_API_ROOT;
    await closed.close();
    const tools = createGmailTools({ authClient: () => Promise.resolve(access.client), apiRoot });
    const error = await failure('gmail_search', { q: 'x' }, tools);
    expect(error).toMatchObject({ code: 'unavailable', status: null });
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('passes not_connected from the account through unchanged', async () => {
    const missing = notConnected('google');
    const tools = createGmailTools({ authClient: () => Promise.reject(missing), apiRoot: access.apiRoot });
    expect(await failure('gmail_send', { to: ['a@example.com'], subject: 's', body: 'b' }, tools)).toBe(
      missing,
    );
    expect(fake.requests).toHaveLength(0);
  });

  it('never puts a token in a message, even when Google echoes one back', async () => {
    const token = access.client.credentials.access_token ?? '';
    expect(token).not.toBe('');
    const messages: string[] = [];
    for (const status of [400, 401, 403, 404, 429, 500]) {
      fake.inject({
        match: /^GET \/gmail\//,
        response: googleError(
          status,
          `bad credential Bearer ${token} (${access.client.credentials.refresh_token})`,
        ),
      });
      messages.push((await failure('gmail_thread_read', read)).message);
    }
    for (const message of messages) {
      expect(message).not.toContain(token);
      expect(message).not.toContain(access.client.credentials.refresh_token ?? 'unset');
      expect(message).not.toMatch(/authorization/i);
    }
    expect(messages.some((message) => message.includes('[redacted]'))).toBe(true);
  });
});
