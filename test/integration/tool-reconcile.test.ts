import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCalendarTools } from '../../electron/tools/calendar/calendar-tools';
import { createGmailTools } from '../../electron/tools/gmail/gmail-tools';
import { ToolRegistry, type ReconcileOutcome } from '../../electron/tools/registry';
import { createSlackTools } from '../../electron/tools/slack/slack-tools';
import type { Tool, ToolContext } from '../../electron/tools/tool';
import { googleError } from '../fakes/http-kit';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { slackRateLimited } from '../fakes/slack/server';
import { signedInGoogle } from '../support/google-access';
import { startSlackHarness, toolContext, type SlackHarness } from './slack-test-kit';

/**
 * After a crash the engine asks a side-effect tool to find what its call already did (DESIGN §5). Each tool is
 * checked against its fake through the real client: what it finds is what `execute` reported the first time
 * (flagged as already done), a call that left no trace is absent, another call's key finds nothing, the
 * look-up creates nothing, and a look-up the service fails is a failure the engine may retry.
 */

const NOW = new Date('2026-03-09T08:00:00Z');

function context(idempotencyKey: string): ToolContext {
  return { ...toolContext(idempotencyKey), now: () => NOW };
}

/** Checks the arguments as the engine does, then runs or reconciles the call through the registry. */
function callsOf(tools: Tool[]) {
  const registry = new ToolRegistry(tools);
  const checked = (name: string, args: unknown) => {
    const check = registry.check(name, args);
    if (!check.ok) throw new Error(check.message);
    return check;
  };
  return {
    execute: async (name: string, args: unknown, key: string): Promise<Record<string, unknown>> => {
      const outcome = await registry.run(checked(name, args), context(key));
      if (!outcome.ok) throw new Error(outcome.message);
      return outcome.result;
    },
    reconcile: (name: string, args: unknown, key: string): Promise<ReconcileOutcome> =>
      registry.reconcile(checked(name, args), context(key)),
    /** The found result must be something the tool itself could have returned. */
    output: (name: string) => {
      const tool = registry.get(name);
      if (!tool) throw new Error(`no tool ${name}`);
      return tool.output;
    },
  };
}

function foundResult(outcome: ReconcileOutcome): Record<string, unknown> {
  if (outcome.kind !== 'found') throw new Error(`expected found, got ${outcome.kind}`);
  return outcome.result;
}

describe('Google', () => {
  let fake: FakeGoogle;
  let calls: ReturnType<typeof callsOf>;

  beforeEach(async () => {
    fake = await startFakeGoogle();
    const access = signedInGoogle(fake);
    calls = callsOf([
      ...createGmailTools(access),
      ...createCalendarTools(access, { now: () => NOW, timezone: () => 'Europe/Berlin' }),
    ]);
  });
  afterEach(() => fake.close());

  const mail = { to: ['ana@example.com'], subject: 'Numbers', body: 'Here they are.' };

  describe('gmail_send', () => {
    it('finds the sent mail by our Message-ID and reports it as execute did', async () => {
      const first = await calls.execute('gmail_send', mail, 'send-key-1');

      const found = foundResult(await calls.reconcile('gmail_send', mail, 'send-key-1'));

      expect(found).toEqual({ ...first, wasAlreadySent: true });
      expect(calls.output('gmail_send').parse(found)).toEqual(found);
      expect(fake.gmail.sent).toHaveLength(1);
    });

    it('finds a reply in its thread', async () => {
      const { messages } = fake.gmail.addThread([
        { from: 'ana@example.com', to: 'me@example.com', subject: 'Plan', text: 'Thoughts?' },
      ]);
      const [original] = messages;
      if (!original) throw new Error('the thread has no message');
      const reply = { to: ['ana@example.com'], body: 'Looks good.', replyToMessageId: original.id };
      const first = await calls.execute('gmail_send', reply, 'reply-key');

      const found = foundResult(await calls.reconcile('gmail_send', reply, 'reply-key'));

      expect(found).toEqual({ ...first, wasAlreadySent: true });
      expect(found.threadId).toBe(original.threadId);
    });

    it('is absent when nothing was sent, or only under another call’s key, and sends nothing', async () => {
      expect(await calls.reconcile('gmail_send', mail, 'never-sent')).toEqual({ kind: 'absent' });
      await calls.execute('gmail_send', mail, 'someone-else');
      expect(await calls.reconcile('gmail_send', mail, 'never-sent')).toEqual({ kind: 'absent' });
      expect(fake.gmail.sent).toHaveLength(1);
      // A draft with our Message-ID is not sent mail.
      await calls.execute('gmail_draft_create', mail, 'drafted-only');
      expect(await calls.reconcile('gmail_send', mail, 'drafted-only')).toEqual({ kind: 'absent' });
    });

    it('fails, transiently, when Gmail is down during the look-up', async () => {
      fake.inject({ match: /^GET \/gmail\/v1\/users\/me\/messages$/, response: googleError(503, 'down') });

      const outcome = await calls.reconcile('gmail_send', mail, 'send-key-1');

      expect(outcome).toMatchObject({ kind: 'failed', transient: true, retryAfterSeconds: null });
      expect(outcome.kind === 'failed' && outcome.message).toMatch(
        /Google had a problem while looking for the email this call already sent \(HTTP 503\)/,
      );
      expect(fake.gmail.sent).toHaveLength(0);
    });

    it('carries Retry-After when Gmail limits the look-up', async () => {
      fake.inject({
        match: /^GET \/gmail\//,
        response: { ...googleError(429, 'slow down'), headers: { 'Retry-After': '17' } },
      });
      expect(await calls.reconcile('gmail_send', mail, 'send-key-1')).toMatchObject({
        kind: 'failed',
        transient: true,
        retryAfterSeconds: 17,
      });
    });
  });

  describe('gmail_draft_create', () => {
    it('finds the saved draft and reports it as execute did', async () => {
      const first = await calls.execute('gmail_draft_create', mail, 'draft-key-1');

      const found = foundResult(await calls.reconcile('gmail_draft_create', mail, 'draft-key-1'));

      expect(found).toEqual({ ...first, wasAlreadySaved: true });
      expect(calls.output('gmail_draft_create').parse(found)).toEqual(found);
      expect(fake.gmail.drafts).toHaveLength(1);
    });

    it('is absent for another call’s key and saves nothing', async () => {
      await calls.execute('gmail_draft_create', mail, 'draft-key-1');
      expect(await calls.reconcile('gmail_draft_create', mail, 'draft-key-2')).toEqual({ kind: 'absent' });
      expect(fake.gmail.drafts).toHaveLength(1);
    });

    it('fails, transiently, when Gmail is down during the look-up', async () => {
      fake.inject({ match: /^GET \/gmail\/v1\/users\/me\/drafts$/, response: googleError(503, 'down') });
      expect(await calls.reconcile('gmail_draft_create', mail, 'draft-key-1')).toMatchObject({
        kind: 'failed',
        transient: true,
      });
    });
  });

  describe('calendar_event_create', () => {
    const meeting = {
      summary: 'Planning',
      start: '2026-03-11T14:00:00',
      end: '2026-03-11T14:30:00',
      attendees: ['bob@example.com'],
    };

    it('finds the event by its private deputyKey and reports it as execute did', async () => {
      const first = await calls.execute('calendar_event_create', meeting, 'event-key-1');

      const found = foundResult(await calls.reconcile('calendar_event_create', meeting, 'event-key-1'));

      expect(found).toEqual({ ...first, wasAlreadyCreated: true });
      expect(calls.output('calendar_event_create').parse(found)).toEqual(found);
      expect(fake.calendar.created).toHaveLength(1);
    });

    it('is absent for another call’s key and creates nothing', async () => {
      await calls.execute('calendar_event_create', meeting, 'event-key-1');
      expect(await calls.reconcile('calendar_event_create', meeting, 'event-key-2')).toEqual({
        kind: 'absent',
      });
      expect(await calls.reconcile('calendar_event_create', meeting, 'event-key-10')).toEqual({
        kind: 'absent',
      });
      expect(fake.calendar.created).toHaveLength(1);
    });

    it('fails, transiently, when Calendar is down during the look-up', async () => {
      fake.inject({
        match: /^GET \/calendar\/v3\/calendars\/primary\/events$/,
        response: googleError(503, 'down'),
      });

      const outcome = await calls.reconcile('calendar_event_create', meeting, 'event-key-1');

      expect(outcome).toMatchObject({ kind: 'failed', transient: true });
      expect(fake.calendar.created).toHaveLength(0);
    });

    it('does not retry a look-up Google refuses (403)', async () => {
      fake.inject({ match: /^GET \/calendar\//, response: googleError(403, 'no access', 'forbidden') });
      expect(await calls.reconcile('calendar_event_create', meeting, 'event-key-1')).toMatchObject({
        kind: 'failed',
        transient: false,
      });
    });
  });
});

describe('slack_send', () => {
  let harness: SlackHarness;
  let calls: ReturnType<typeof callsOf>;

  beforeEach(async () => {
    harness = await startSlackHarness();
    await harness.signIn();
    calls = callsOf(createSlackTools(harness.connector));
  });
  afterEach(() => harness.close());

  const post = { channel: '#general', text: 'Deploy done.' };
  const reply = { channel: 'C0GENERAL1', text: 'I can review it.', thread_ts: '1767229200.000200' };

  it('finds the post by the key in its metadata and reports it as execute did', async () => {
    const first = await calls.execute('slack_send', post, 'post-key-1');

    const found = foundResult(await calls.reconcile('slack_send', post, 'post-key-1'));

    expect(found).toEqual({ ...first, wasAlreadyPosted: true });
    expect(calls.output('slack_send').parse(found)).toEqual(found);
    expect(harness.slack.state.posted).toHaveLength(1);
  });

  it('finds a thread reply among the thread’s replies', async () => {
    const first = await calls.execute('slack_send', reply, 'reply-key-1');

    const found = foundResult(await calls.reconcile('slack_send', reply, 'reply-key-1'));

    expect(found).toEqual({ ...first, wasAlreadyPosted: true });
    expect(found.threadTs).toBe(reply.thread_ts);
    expect(harness.slack.requests.some((request) => request.path === '/api/conversations.replies')).toBe(
      true,
    );
  });

  it('does not post a thread reply twice for the same call', async () => {
    const first = await calls.execute('slack_send', reply, 'reply-key-2');
    const again = await calls.execute('slack_send', reply, 'reply-key-2');
    expect(again).toEqual({ ...first, wasAlreadyPosted: true });
    expect(harness.slack.state.posted).toHaveLength(1);
  });

  it('is absent for another call’s key, top level or in a thread, and posts nothing', async () => {
    await calls.execute('slack_send', post, 'post-key-1');
    await calls.execute('slack_send', reply, 'reply-key-1');

    expect(await calls.reconcile('slack_send', post, 'post-key-2')).toEqual({ kind: 'absent' });
    expect(await calls.reconcile('slack_send', reply, 'reply-key-2')).toEqual({ kind: 'absent' });
    // Each key is looked for only where its own call posted.
    expect(await calls.reconcile('slack_send', { ...post, channel: '#random' }, 'post-key-1')).toEqual({
      kind: 'absent',
    });
    expect(harness.slack.state.posted).toHaveLength(2);
  });

  it('fails, transiently, when Slack is down or limiting during the look-up', async () => {
    harness.slack.inject({
      match: /^POST \/api\/conversations\.history$/,
      response: { status: 503, json: { ok: false, error: 'service_unavailable' } },
    });
    expect(await calls.reconcile('slack_send', post, 'post-key-1')).toMatchObject({
      kind: 'failed',
      transient: true,
    });

    harness.slack.inject({ match: /^POST \/api\/conversations\.history$/, response: slackRateLimited(7) });
    expect(await calls.reconcile('slack_send', post, 'post-key-1')).toMatchObject({
      kind: 'failed',
      transient: true,
      retryAfterSeconds: 7,
    });
    expect(harness.slack.state.posted).toHaveLength(0);
  });

  it('does not retry a look-up in a channel that does not exist', async () => {
    expect(await calls.reconcile('slack_send', { ...post, channel: '#nope' }, 'post-key-1')).toMatchObject({
      kind: 'failed',
      transient: false,
    });
  });
});
