import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { startFakeSlack, type FakeSlack } from '../fakes/slack/server';
import { connectGoogle, googleEnv } from '../support/connect';
import { collect, openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

/** Monday 23 November 2026, 08:00 in Paris. */
const NOW = new Date('2026-11-23T07:00:00.000Z');
const meta = { intent: 'act for the user', confidence: 0.95 };

let google: FakeGoogle;
let slack: FakeSlack;
let fixture: HostFixture;

async function start(model: ScriptedModel): Promise<HostFixture> {
  google = await startFakeGoogle();
  slack = await startFakeSlack();
  fixture = await openHost(model, { env: { ...googleEnv(google), ...slack.env }, now: () => NOW });
  await fixture.host.invoke('settings.set', {
    timezone: 'Europe/Paris',
    userEmail: 'me@example.com',
    trustLevel: 'autonomous',
    autonomy: { 'calendar.update': 'auto', 'slack.send': 'auto' },
  });
  await connectGoogle(fixture.host);
  await fixture.host.invoke('connections.connect', { name: 'slack', token: slack.state.issueToken() });
  return fixture;
}
afterEach(async () => {
  await fixture.close();
  await google.close();
  await slack.close();
});

function seedReview() {
  return google.calendar.addEvent({
    summary: 'Budget review',
    start: { dateTime: '2026-11-24T10:00:00+01:00' },
    end: { dateTime: '2026-11-24T11:00:00+01:00' },
    attendees: [
      { email: 'me@example.com', self: true, responseStatus: 'accepted' },
      { email: 'client@partner-corp.com' },
    ],
  });
}

describe('everyone an effect reaches', () => {
  it('counts the attendees an update tells: the card names the event and who will be told; a quiet change tells nobody', async () => {
    const model = new ScriptedModel();
    await start(model);
    const event = seedReview();
    model.script(
      call('calendar_event_update', { eventId: event.id, location: 'Room 4', ...meta }),
      say('Changed.'),
    );
    const paused = await fixture.host.runToEnd({ prompt: 'Set the budget review location to Room 4' });

    // Nobody was added, but the update would mail an attendee Deputy has never written to.
    expect(paused.status).toBe('awaiting_confirmation');
    const [approval] = (await fixture.host.invoke('approval.list', {})).approvals;
    expect(approval).toMatchObject({
      rule: 'first_contact',
      reason: expect.stringContaining('client@partner-corp.com'),
    });
    expect(approval?.preview.title).toBe(
      'Change “Budget review”, Tue, 24 Nov 2026, 10:00 – 11:00 (Europe/Paris)',
    );
    expect(approval?.previewText).toContain(
      'Reaches: client@partner-corp.com (attendee, told of the change)',
    );
    expect(approval?.preview.reach).toEqual([
      { address: 'client@partner-corp.com', role: 'attendee, told of the change' },
    ]);
    expect(google.calendar.updated).toHaveLength(0);

    // The way out: the person makes it a quiet change, which the editor offers as the `notify` argument.
    const done = await fixture.host.approvals.edit({
      approvalId: approval?.id ?? '',
      args: { ...approval?.args, notify: false },
    });
    expect(done.status).toBe('completed');
    expect(google.calendar.updated).toHaveLength(1);
    expect(google.calendar.updated[0]).toMatchObject({ sendUpdates: 'none', event: { location: 'Room 4' } });
  });

  it('a quiet change asked for from the start reaches nobody and goes ahead on auto', async () => {
    const model = new ScriptedModel();
    await start(model);
    const event = seedReview();
    model.script(
      call('calendar_event_update', { eventId: event.id, location: 'Room 4', notify: false, ...meta }),
      say('Changed quietly.'),
    );
    const done = await fixture.host.runToEnd({
      prompt: 'Set the budget review location to Room 4 without telling anyone',
    });
    expect(done.status).toBe('completed');
    expect(google.calendar.updated[0]?.sendUpdates).toBe('none');
  });

  it('a quiet change held for another reason says nobody will be told', async () => {
    const model = new ScriptedModel();
    await start(model);
    await fixture.host.invoke('settings.set', { autonomy: { 'calendar.update': 'confirm' } });
    const event = seedReview();
    model.script(
      call('calendar_event_update', { eventId: event.id, location: 'Room 4', notify: false, ...meta }),
    );
    const paused = await fixture.host.runToEnd({
      prompt: 'Set the budget review location to Room 4 quietly',
    });
    expect(paused.approval?.preview).toContain(
      'Will be told: No one: the change is made without notifications',
    );
  });

  it('does nothing when it cannot read whom an update would reach', async () => {
    const model = new ScriptedModel(
      call('calendar_event_update', { eventId: 'no-such-event', location: 'Room 4', ...meta }),
      say('That event does not exist.'),
    );
    await start(model);
    const events = collect(fixture.host);
    const done = await fixture.host.runToEnd({ prompt: 'Set the budget review location to Room 4' });
    expect(done.status).toBe('completed');
    expect(events.find((event) => event.type === 'tool_result')).toMatchObject({
      state: 'failed',
      error: expect.stringContaining('could not check whom this would reach'),
    });
    expect(google.calendar.updated).toHaveLength(0);
  });

  it('counts the people of a Slack thread a reply notifies', async () => {
    const model = new ScriptedModel(
      call('slack_send', {
        channel: '#general',
        text: 'I can review it.',
        thread_ts: '1767229200.000200',
        ...meta,
      }),
      say('Replied.'),
    );
    await start(model);
    slack.state.channel('#general')?.messages.push({
      ts: '1767229300.000201',
      user: 'U0BOB0002',
      text: 'Not me, sorry.',
      threadTs: '1767229200.000200',
    });
    const paused = await fixture.host.runToEnd({
      prompt: 'Reply in the Q1 plan thread in #general that I can review it',
    });
    expect(paused.status).toBe('awaiting_confirmation');
    const [approval] = (await fixture.host.invoke('approval.list', {})).approvals;
    expect(approval?.preview.reach).toEqual([
      { address: 'slack:#general', role: 'channel' },
      { address: 'slack:@u0carol03', role: 'in the thread, notified', name: 'carol.c' },
      { address: 'slack:@u0bob0002', role: 'in the thread, notified', name: 'Bob Builder' },
    ]);
    // Said in words, not as the addresses the policy matches (slack:#general, slack:@u0carol03).
    expect(approval?.reason).toBe(
      'You have never written to #general in Slack, carol.c (Slack user U0CAROL03), Bob Builder (Slack user ' +
        'U0BOB0002) before (this reaches: channel, in the thread, notified).',
    );
    expect(approval?.previewText).toContain(
      'Reaches: #general in Slack (channel), carol.c (in the thread, notified), Bob Builder (in the thread, notified)',
    );
    expect(slack.state.posted).toHaveLength(0);
  });

  it('names a channel the model gave by id as Slack names it: the approval, its always-allow and the audit trail', async () => {
    const model = new ScriptedModel(
      call('slack_send', { channel: 'C0RANDOM01', text: 'Hello all', ...meta }),
    );
    await start(model);

    const paused = await fixture.host.runToEnd({ prompt: 'Say hello in random' });

    expect(paused.status).toBe('awaiting_confirmation');
    const [approval] = (await fixture.host.invoke('approval.list', {})).approvals;
    expect(approval?.preview.title).toBe('Post to #random in Slack');
    expect(approval?.preview.fields).toEqual([{ label: 'Channel', value: '#random' }]);
    // The policy's address stays Slack's id, which the reason keeps beside the name.
    expect(approval?.reason).toBe(
      'You have never written to #random in Slack (Slack channel C0RANDOM01) before.',
    );
    expect(approval?.alwaysAllowScopes).toEqual([
      { field: 'recipients', pattern: 'slack:C0RANDOM01', label: 'Always allow posting to #random' },
    ]);
    const [entry] = (await fixture.host.invoke('audit.list', { tool: 'slack_send' })).entries;
    expect(entry?.target).toBe('#random in Slack');
    // The model's call is as it wrote it.
    expect(approval?.args).toMatchObject({ channel: 'C0RANDOM01' });
  });

  it('asks as before, naming the channel by its id, when Slack cannot name it', async () => {
    const model = new ScriptedModel(
      call('slack_send', { channel: 'C0RANDOM01', text: 'Hello all', ...meta }),
    );
    await start(model);
    slack.inject({ match: /conversations\.info$/, response: { status: 500, text: 'Internal Server Error' } });

    const paused = await fixture.host.runToEnd({ prompt: 'Say hello in random' });

    expect(paused.status).toBe('awaiting_confirmation');
    const [approval] = (await fixture.host.invoke('approval.list', {})).approvals;
    expect(approval?.preview.title).toBe('Post to Slack channel C0RANDOM01');
    expect(approval?.reason).toBe('You have never written to Slack channel C0RANDOM01 before.');
    // Nothing went wrong for the person: no error was logged, the run waits on them.
    expect(fixture.errorMessages).toEqual([]);
  });
});
