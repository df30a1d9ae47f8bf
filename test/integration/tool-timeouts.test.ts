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
/** Long enough for a look-up and a send on a loaded machine: the answer that comes too late is held, not slow. */
const LIMIT_MS = 1_500;
/** After a held look-up is let go, how long a call that wrongly went on would take to send. */
const AFTER_LOOK_UP_MS = 500;

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
    const answer = slow.hold(/^POST \/gmail\/v1\/users\/me\/messages\/send$/);
    const mail = { to: ['ana@example.com'], subject: 'Slow', body: 'It did go out.' };

    const first = await run('gmail_send', mail, 'slow-send');
    expect(first).toMatchObject(timedOut);
    expect(!first.ok && first.message).toBe('The call got no answer within 1.5 s and was stopped.');
    expect(google.gmail.sent).toHaveLength(1);
    answer.release();

    const retry = await run('gmail_send', mail, 'slow-send');

    expect(retry).toMatchObject({ ok: true, result: { wasAlreadySent: true } });
    expect(google.gmail.sent).toHaveLength(1);
    expect(retry.ok && retry.result.messageId).toBe(google.gmail.sent[0]?.id);
  });

  it('calendar_event_create: the timed-out insert is found by the retry, not made again', async () => {
    const { run, google, slow } = await googleBehindProxy();
    const answer = slow.hold(/^POST \/calendar\/v3\/calendars\/primary\/events$/);
    const meeting = { summary: 'Slow', start: '2026-03-11T14:00:00', end: '2026-03-11T14:30:00' };

    expect(await run('calendar_event_create', meeting, 'slow-event')).toMatchObject(timedOut);
    expect(google.calendar.created).toHaveLength(1);
    answer.release();

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
    const answer = proxy.hold(/^POST \/api\/chat\.postMessage$/);
    const post = { channel: '#general', text: 'Slow but sure.' };

    expect(await run('slack_send', post, 'slow-post')).toMatchObject(timedOut);
    expect(slack.state.posted).toHaveLength(1);
    answer.release();

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
    const lookUp = proxy.hold(/^POST \/api\/conversations\.history$/);

    expect(await run('slack_send', { channel: '#general', text: 'Too late.' }, 'late-look')).toMatchObject(
      timedOut,
    );
    expect(proxy.seen).toContain('POST /api/conversations.history');
    lookUp.release();
    await new Promise((resolve) => setTimeout(resolve, AFTER_LOOK_UP_MS));

    expect(proxy.seen).not.toContain('POST /api/chat.postMessage');
    expect(slack.state.posted).toHaveLength(0);
  });

  it('gmail_send does not send after the limit passed while it was still looking', async () => {
    const { run, google, slow } = await googleBehindProxy();
    const lookUp = slow.hold(/^GET \/gmail\/v1\/users\/me\/messages$/);

    expect(
      await run('gmail_send', { to: ['ana@example.com'], subject: 'x', body: 'y' }, 'late'),
    ).toMatchObject(timedOut);
    expect(slow.seen).toContain('GET /gmail/v1/users/me/messages');
    lookUp.release();
    await new Promise((resolve) => setTimeout(resolve, AFTER_LOOK_UP_MS));

    expect(slow.seen).not.toContain('POST /gmail/v1/users/me/messages/send');
    expect(google.gmail.sent).toHaveLength(0);
  });
});
