import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSlack, type FakeSlack, FAKE_SLACK_SCOPES } from '../fakes/slack/server';
import { openHost, type HostFixture } from '../support/host-fixture';
import { intentAnalysis } from '../support/intent-analysis';
import { lastToolResult } from '../support/memory-kit';
import { call, say, ScriptedModel } from '../support/scripted-model';

const NOW = new Date('2026-11-23T07:00:00.000Z');
let slack: FakeSlack;
let fixture: HostFixture;

afterEach(async () => {
  await fixture.close();
  await slack.close();
});

async function start(model: ScriptedModel, scopes = FAKE_SLACK_SCOPES): Promise<void> {
  slack = await startFakeSlack();
  fixture = await openHost(model, { env: slack.env, now: () => NOW });
  const token = slack.state.issueToken({ scopes: [...scopes] });
  await fixture.host.invoke('connections.connect', { name: 'slack', token });
}

interface ContextResult {
  people: { name: string; status: string; person?: { address: string; isKnown: boolean } }[];
  results: { source: string; title: string; label: string }[];
}

describe('Slack direct messages in the contacts index and in query_context', () => {
  it('passes over a message whose time is not a time, and still knows the people of the rest', async () => {
    await start(new ScriptedModel());
    const carol = slack.state.channels.find((channel) => channel.id === 'D0CAROL001');
    // Kept oldest first: Alice's own latest and Carol's latest name no time (a service answering garbage).
    carol?.messages.push(
      { ts: '99999999999999999999', user: 'U0ALICE01', text: 'Out of range.' },
      { ts: '1e99', user: 'U0CAROL03', text: 'Not a time Slack writes.' },
    );

    const report = await fixture.host.context.refresh();

    expect(report.failed).toEqual([]);
    expect(fixture.host.context.contacts.get('slack:@U0CAROL03')).toMatchObject({
      evidence: expect.arrayContaining([
        'you wrote to them on Slack (2026-01-01)',
        'a Slack message from them (2026-01-01)',
      ]),
    });
  });

  it('someone the person wrote to in a DM is known; someone they never wrote to is not', async () => {
    await start(new ScriptedModel());

    const report = await fixture.host.context.refresh();

    expect(report.failed).toEqual([]);
    const { contacts } = fixture.host.context;
    expect(contacts.get('slack:@U0CAROL03')).toMatchObject({
      name: 'Carol Chen',
      dealtCount: 1,
      evidence: expect.arrayContaining(['you wrote to them on Slack (2026-01-01)']),
    });
    expect(fixture.host.context.isDealtWith('slack:@U0CAROL03')).toBe(true);
    expect(fixture.host.context.isDealtWith('slack:@U0BOB0002')).toBe(false);
    // Only the person's own DMs are listed and read: never Bob's with Carol.
    const histories = slack.requests
      .filter((request) => request.path.endsWith('/conversations.history'))
      .map(
        (request) =>
          request.form.get('channel') ?? (request.json as { channel?: string } | undefined)?.channel,
      );
    expect(histories).toEqual(['D0CAROL001']);
  });

  it('“what did Carol ask me?” reads the DMs with her, labelled as Slack messages', async () => {
    const model = new ScriptedModel(
      call('query_context', {
        type: 'all',
        name: 'Carol',
        analysis: intentAnalysis({
          intent: 'recall_message',
          entities: [{ type: 'person', value: 'Carol' }],
        }),
      }),
      say('She asked for the offsite budget.'),
    );
    await start(model);
    await fixture.host.context.refresh();

    await fixture.host.runToEnd({ prompt: 'What did Carol ask me on Slack?' });

    const result = lastToolResult<ContextResult>(model.requests[1]);
    expect(result.people).toEqual([
      expect.objectContaining({
        status: 'resolved',
        person: expect.objectContaining({ address: 'slack:@U0CAROL03', isKnown: true }),
      }),
    ]);
    const slackItems = result.results.filter((item) => item.source === 'slack');
    expect(slackItems.map((item) => item.title)).toEqual(
      expect.arrayContaining(['Can you send me the offsite budget?', 'Sure, by Thursday.']),
    );
    expect(JSON.stringify(result)).not.toContain('Private between Bob and Carol');
  });

  it('a sign-in from before DMs were read (no im:read) still indexes the workspace, and names what it could not read', async () => {
    await start(
      new ScriptedModel(),
      FAKE_SLACK_SCOPES.filter((scope) => !scope.startsWith('im:')),
    );

    const report = await fixture.host.context.refresh();

    expect(report.failed).toEqual(['Slack direct messages']);
    expect(fixture.host.context.contacts.get('slack:@U0CAROL03')).toMatchObject({ dealtCount: 0 });
  });
});
