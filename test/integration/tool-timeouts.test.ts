import { afterEach, describe, expect, it } from 'vitest';
import { createCalendarTools } from '../../electron/tools/calendar/calendar-tools';
import { createGmailTools } from '../../electron/tools/gmail/gmail-tools';
import { ToolRegistry, type ToolOutcome } from '../../electron/tools/registry';
import { createSlackTools } from '../../electron/tools/slack/slack-tools';
import type { Tool, ToolContext } from '../../electron/tools/tool';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { startFakeSlack } from '../fakes/slack/server';
import { signedInGoogle } from '../support/google-access';
import { startSlackHarness, toolContext, type SlackHarness } from './slack-test-kit';
import { startSlowProxy, type SlowProxy } from './slow-proxy';

/**
 * A side effect that reaches the service but whose answer comes after the registry's time limit: the call
 * fails as a transient timeout, the engine tries again with the same idempotency key, and the second attempt
 * finds what the first one made instead of making it again.
 */

const NOW = new Date('2026-03-09T08:00:00Z');
const LIMIT_MS = 250;
const SLOW_MS = 1_500;

const context = (key: string): ToolContext => ({ ...toolContext(key), now: () => NOW });

function registryOf(tools: Tool[]) {
  const registry = new ToolRegistry(tools, undefined, { callTimeoutMs: LIMIT_MS });
  return (name: string, args: unknown, key: string): Promise<ToolOutcome> => {
    const check = registry.check(name, args);
    if (!check.ok) throw new Error(check.message);
    return registry.run(check, context(key));
  };
}

const timedOut = { ok: false, errorCode: 'timeout', transient: true, retryAfterSeconds: null };

let proxy: SlowProxy | null = null;
let fake: FakeGoogle | null = null;
let harness: SlackHarness | null = null;

afterEach(async () => {
  await proxy?.close();
  await fake?.close();
  await harness?.close();
  proxy = null;
  fake = null;
  harness = null;
});

async function googleBehindProxy(): Promise<{
  run: ReturnType<typeof registryOf>;
  google: FakeGoogle;
  slow: SlowProxy;
}> {
  const google = await startFakeGoogle();
  fake = google;
  const slow = await startSlowProxy(google.url);
  proxy = slow;
  const access = { ...signedInGoogle(google), apiRoot: `${slow.url}/` };
  const tools = [
    ...createGmailTools(access),
    ...createCalendarTools(access, { now: () => NOW, timezone: () => 'Europe/Berlin' }),
  ];
  return { run: registryOf(tools), google, slow };
}

describe('a slow side effect that did go through', () => {
  it('gmail_send: the timed-out send is found by the retry, not sent again', async () => {
    const { run, google, slow } = await googleBehindProxy();
    slow.slowDown(/^POST \/gmail\/v1\/users\/me\/messages\/send$/, SLOW_MS);
    const mail = { to: ['ana@example.com'], subject: 'Slow', body: 'It did go out.' };

    const first = await run('gmail_send', mail, 'slow-send');
    expect(first).toMatchObject(timedOut);
    expect(!first.ok && first.message).toBe('The call got no answer within 0.25 s and was stopped.');
    expect(google.gmail.sent).toHaveLength(1);

    const retry = await run('gmail_send', mail, 'slow-send');

    expect(retry).toMatchObject({ ok: true, result: { wasAlreadySent: true } });
    expect(google.gmail.sent).toHaveLength(1);
    expect(retry.ok && retry.result.messageId).toBe(google.gmail.sent[0]?.id);
  });

  it('calendar_event_create: the timed-out insert is found by the retry, not made again', async () => {
    const { run, google, slow } = await googleBehindProxy();
    slow.slowDown(/^POST \/calendar\/v3\/calendars\/primary\/events$/, SLOW_MS);
    const meeting = { summary: 'Slow', start: '2026-03-11T14:00:00', end: '2026-03-11T14:30:00' };

    expect(await run('calendar_event_create', meeting, 'slow-event')).toMatchObject(timedOut);
    expect(google.calendar.created).toHaveLength(1);

    const retry = await run('calendar_event_create', meeting, 'slow-event');

    expect(retry).toMatchObject({ ok: true, result: { wasAlreadyCreated: true } });
    expect(google.calendar.created).toHaveLength(1);
  });

  it('slack_send: the timed-out post is found by the retry, not posted again', async () => {
    const slack = await startFakeSlack();
    proxy = await startSlowProxy(slack.url);
    harness = await startSlackHarness({ slack, env: { DEPUTY_SLACK_API_URL: `${proxy.url}/api/` } });
    await harness.signIn();
    const run = registryOf(createSlackTools(harness.connector));
    proxy.slowDown(/^POST \/api\/chat\.postMessage$/, SLOW_MS);
    const post = { channel: '#general', text: 'Slow but sure.' };

    expect(await run('slack_send', post, 'slow-post')).toMatchObject(timedOut);
    expect(slack.state.posted).toHaveLength(1);

    const retry = await run('slack_send', post, 'slow-post');

    expect(retry).toMatchObject({
      ok: true,
      result: { wasAlreadyPosted: true, ts: slack.state.posted[0]?.ts },
    });
    expect(slack.state.posted).toHaveLength(1);
    expect(proxy.seen.filter((request) => request === 'POST /api/chat.postMessage')).toHaveLength(1);
  });
});

describe('a call stopped before its side effect', () => {
  it('slack_send does not go on to post after the limit passed while it was still looking', async () => {
    const slack = await startFakeSlack();
    proxy = await startSlowProxy(slack.url);
    harness = await startSlackHarness({ slack, env: { DEPUTY_SLACK_API_URL: `${proxy.url}/api/` } });
    await harness.signIn();
    const run = registryOf(createSlackTools(harness.connector));
    // The look-up answers after the limit; Slack's client cannot be aborted, so the tool must check itself.
    proxy.slowDown(/^POST \/api\/conversations\.history$/, LIMIT_MS * 2);

    expect(await run('slack_send', { channel: '#general', text: 'Too late.' }, 'late-look')).toMatchObject(
      timedOut,
    );
    await new Promise((resolve) => setTimeout(resolve, LIMIT_MS * 3));

    expect(proxy.seen).toContain('POST /api/conversations.history');
    expect(proxy.seen).not.toContain('POST /api/chat.postMessage');
    expect(slack.state.posted).toHaveLength(0);
  });

  it('gmail_send does not send after the limit passed while it was still looking', async () => {
    const { run, google, slow } = await googleBehindProxy();
    slow.slowDown(/^GET \/gmail\/v1\/users\/me\/messages$/, LIMIT_MS * 2);

    expect(
      await run('gmail_send', { to: ['ana@example.com'], subject: 'x', body: 'y' }, 'late'),
    ).toMatchObject(timedOut);
    await new Promise((resolve) => setTimeout(resolve, LIMIT_MS * 3));

    expect(slow.seen).not.toContain('POST /gmail/v1/users/me/messages/send');
    expect(google.gmail.sent).toHaveLength(0);
  });
});
