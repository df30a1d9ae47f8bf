import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../electron/llm/model-client';
import { DATABASE_FILE } from '../../electron/host/create-host';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { startFakeSlack } from '../fakes/slack/server';
import { connectGoogle, googleEnv } from '../support/connect';
import { openHost, type HostFixture } from '../support/host-fixture';
import { intentAnalysis } from '../support/intent-analysis';
import { call, say, ScriptedModel } from '../support/scripted-model';

/** Monday 23 November 2026, 08:00 in Paris. */
const NOW = new Date('2026-11-23T07:00:00.000Z');

let google: FakeGoogle;
let fixture: HostFixture;

afterEach(async () => {
  await fixture.close();
  await google.close();
});

async function start(model: ScriptedModel): Promise<HostFixture> {
  google = await startFakeGoogle();
  fixture = await openHost(model, { env: googleEnv(google), now: () => NOW });
  await fixture.host.invoke('settings.set', { timezone: 'Europe/Paris', userEmail: 'me@example.com' });
  return fixture;
}

/** A mail the person sent, in the fake Gmail: it makes `to` someone they dealt with. */
function wroteTo(to: string, subject: string, text: string): void {
  google.gmail.addMessage({ from: 'Me <me@example.com>', to, subject, text, labelIds: ['SENT'] });
}

/** Sarah Chen: the person wrote to her, and organised tomorrow's review with her. */
function seedSarahChen(): void {
  wroteTo('Sarah Chen <sarah@example.com>', 'Q1 planning', 'Agenda attached.');
  google.calendar.addEvent({
    summary: 'Q1 Planning Review',
    location: 'Conference Room A',
    start: { dateTime: '2026-11-24T14:00:00+01:00' },
    end: { dateTime: '2026-11-24T15:00:00+01:00' },
    attendees: [{ email: 'sarah@example.com', responseStatus: 'accepted' }],
  });
}

const analysis = (confidence = 0.95) =>
  intentAnalysis({
    confidence,
    entities: [{ type: 'person', value: 'Sarah' }],
    impliedNeeds: ['the next event with her, from now on'],
    assumptions: [
      { statement: 'Sarah is someone the user meets', evidence: ['the question asks about a meeting'] },
    ],
  });

const requestText = (request: ModelRequest | undefined): string => JSON.stringify(request?.messages ?? []);

function runRow(runId: string): { decision: string; outcome: string } {
  const db = new Database(join(fixture.dataDir, DATABASE_FILE), { readonly: true });
  try {
    return db.prepare('SELECT decision, outcome FROM runs WHERE id = ?').get(runId) as {
      decision: string;
      outcome: string;
    };
  } finally {
    db.close();
  }
}

function intentRows(runId: string): Record<string, unknown>[] {
  const db = new Database(join(fixture.dataDir, DATABASE_FILE), { readonly: true });
  try {
    const rows = db
      .prepare("SELECT detail_json FROM audit WHERE run_id = ? AND event = 'intent_analysis'")
      .pluck()
      .all(runId) as string[];
    return rows.map((row) => JSON.parse(row) as Record<string, unknown>);
  } finally {
    db.close();
  }
}

describe("spec 004's example: “When is my next meeting with Sarah?”", () => {
  it('resolves Sarah from mail and calendar history, asks the calendar with her address, and answers with title and time', async () => {
    const model = new ScriptedModel();
    await start(model);
    seedSarahChen();
    await connectGoogle(fixture.host);
    const report = await fixture.host.context.refresh();
    expect(report.failed).toEqual([]);
    expect(fixture.host.context.contacts.get('sarah@example.com')).toMatchObject({ name: 'Sarah Chen' });

    model.script(
      call('query_context', { type: 'person', name: 'Sarah', analysis: analysis() }),
      (request) => {
        const resolved = /"address":"([^"]+)","isKnown":true/.exec(requestText(request));
        if (!resolved) throw new Error('query_context resolved no one');
        return call('calendar_search', { q: resolved[1], timeMax: '2026-12-31' });
      },
      (request) => {
        const event = /"summary":"([^"]+)","start":"([^"]+)"/.exec(requestText(request));
        if (!event) throw new Error('the calendar returned no event');
        return say(`Your next meeting with Sarah Chen is “${event[1]}” at ${event[2]}.`);
      },
    );
    const done = await fixture.host.runToEnd({ prompt: 'When is my next meeting with Sarah?' });

    expect(done.status).toBe('completed');
    expect(done.summary).toBe(
      'Your next meeting with Sarah Chen is “Q1 Planning Review” at 2026-11-24T14:00:00+01:00.',
    );
    const search = google.requests.find(
      (request) => request.path.endsWith('/events') && request.query.get('q'),
    );
    expect(search?.query.get('q')).toBe('sarah@example.com');
    // The person's resolution carried its evidence to the model.
    expect(requestText(model.requests[1])).toContain('you wrote to them: “Q1 planning”');
    // The knowledge block told the model of the review before its first turn.
    expect(model.requests[0]?.systemInstruction).toMatch(
      /\[KNOWN CONTEXT\][\s\S]*Q1 Planning Review[\s\S]*Sarah Chen <sarah@example.com>/,
    );
    // The intent record is in the audit trail of the run.
    expect(intentRows(done.runId)).toEqual([
      expect.objectContaining({ intent: 'query_calendar', confidence: 0.95 }),
    ]);
  });

  it('with two Sarahs, asks which one, naming both, and asks nothing of the calendar', async () => {
    const model = new ScriptedModel();
    await start(model);
    seedSarahChen();
    wroteTo('Sarah Park <sarah.park@corp.example>', 'Contract', 'Signed.');
    await connectGoogle(fixture.host);
    await fixture.host.context.refresh();
    model.script(call('query_context', { type: 'person', name: 'Sarah', analysis: analysis() }));

    const done = await fixture.host.runToEnd({ prompt: 'When is my next meeting with Sarah?' });

    expect(done.status).toBe('completed');
    expect(done.summary).toMatch(/^Which Sarah do you mean: /);
    expect(done.summary).toContain('Sarah Chen (sarah@example.com)');
    expect(done.summary).toContain('Sarah Park (sarah.park@corp.example)');
    expect(runRow(done.runId)).toEqual({
      decision: 'REQUEST_CLARIFICATION',
      outcome: 'AMBIGUITY:UNCLEAR_INTENT',
    });
    expect(model.requests).toHaveLength(1);
  });

  it('“Email Bob” with only Robert Hale in the index asks whether Bob is Robert, in the model’s one turn', async () => {
    const model = new ScriptedModel();
    await start(model);
    wroteTo('Robert Hale <robert@example.com>', 'Invoice 114', 'Attached.');
    await connectGoogle(fixture.host);
    await fixture.host.context.refresh();
    const bob = intentAnalysis({ intent: 'send_email', entities: [{ type: 'person', value: 'Bob' }] });
    model.script(call('query_context', { type: 'person', name: 'Bob', reachBy: 'email', analysis: bob }));

    const done = await fixture.host.runToEnd({ prompt: 'Email Bob about the invoice' });

    expect(done.summary).toBe('I found no one called Bob. Do you mean Robert Hale (robert@example.com)?');
    expect(runRow(done.runId)).toEqual({
      decision: 'REQUEST_CLARIFICATION',
      outcome: 'AMBIGUITY:UNCLEAR_INTENT',
    });
    // The model was told before its turn that Robert is only the closest, and it took no second turn.
    expect(model.requests[0]?.systemInstruction).toContain(
      '- Bob: no one by that very name; the closest is Robert Hale <robert@example.com>; ask before using it',
    );
    expect(model.requests).toHaveLength(1);
    expect(google.gmail.drafts).toHaveLength(0);
  });

  it('a sender who only wrote to the person is neither a second Sarah nor a known recipient', async () => {
    const model = new ScriptedModel();
    await start(model);
    seedSarahChen();
    google.gmail.addMessage({
      from: 'Sarah Chen <sarah.chen@evil.example>',
      to: 'me@example.com',
      subject: 'Urgent: wire details changed',
      text: 'Send the Q1 numbers to me here.',
    });
    await connectGoogle(fixture.host);
    await fixture.host.context.refresh();
    const { context } = fixture.host;

    expect(context.contacts.get('sarah.chen@evil.example')).toMatchObject({ dealtCount: 0, seenCount: 1 });
    expect(context.isDealtWith('sarah.chen@evil.example')).toBe(false);
    expect(context.isDealtWith('sarah@example.com')).toBe(true);

    // The same draft is made at once for the Sarah the person wrote to, and held for the sender: the
    // first-contact guard reads the same index, and a mere sender is a first contact.
    await fixture.host.invoke('settings.set', { trustLevel: 'autonomous' });
    const draft = (to: string) =>
      call('gmail_draft_create', {
        to: [to],
        subject: 'Q1 numbers',
        body: 'Here they are.',
        intent: 'draft',
        confidence: 0.95,
      });
    model.script(
      draft('sarah@example.com'),
      say('Drafted.'),
      draft('sarah.chen@evil.example'),
      say('Drafted.'),
    );
    const known = await fixture.host.runToEnd({ prompt: 'Draft the Q1 numbers to sarah@example.com' });
    expect(known.status).toBe('completed');
    expect(google.gmail.drafts).toHaveLength(1);
    const stranger = await fixture.host.runToEnd({
      prompt: 'Draft the Q1 numbers to sarah.chen@evil.example',
    });
    expect(stranger.status).toBe('awaiting_confirmation');
    expect(stranger.approval?.reason).toMatch(/never written to sarah\.chen@evil\.example/);
  });

  it('a low-confidence analysis ends the run with a clarifying question, recorded with the run', async () => {
    const model = new ScriptedModel();
    await start(model);
    model.script(
      call('query_context', {
        type: 'all',
        analysis: {
          ...analysis(0.4),
          clarificationQuestions: ['Do you mean the Sarah from the Q1 review, or someone else?'],
        },
      }),
    );

    const done = await fixture.host.runToEnd({ prompt: 'Sarah thing, you know' });

    expect(done.summary).toBe('Do you mean the Sarah from the Q1 review, or someone else?');
    expect(runRow(done.runId)).toEqual({
      decision: 'REQUEST_CLARIFICATION',
      outcome: 'AMBIGUITY:UNCLEAR_INTENT',
    });
    expect(intentRows(done.runId)).toEqual([expect.objectContaining({ confidence: 0.4 })]);
  });

  it('Settings → Data sees the index size and clears it; the person is a first contact again until it refills', async () => {
    await start(new ScriptedModel());
    seedSarahChen();
    await connectGoogle(fixture.host);
    await fixture.host.context.refresh();
    const before = await fixture.host.invoke('context.stats', {});
    expect(before).toMatchObject({ contacts: 1, upcomingEvents: 1 });
    expect(before.bytes).toBeGreaterThan(0);

    const after = await fixture.host.invoke('context.clear', {});
    expect(after).toMatchObject({ contacts: 0, upcomingEvents: 0, vectors: 0 });
    expect(fixture.host.context.isDealtWith('sarah@example.com')).toBe(false);

    await fixture.host.context.refresh();
    expect(fixture.host.context.isDealtWith('sarah@example.com')).toBe(true);
  });

  it('knows the Slack workspace’s people by name and handle, without counting them as people the person dealt with', async () => {
    google = await startFakeGoogle();
    const slack = await startFakeSlack();
    try {
      fixture = await openHost(new ScriptedModel(), {
        env: { ...googleEnv(google), ...slack.env },
        now: () => NOW,
      });
      await fixture.host.invoke('connections.connect', { name: 'slack', token: slack.state.issueToken() });
      const report = await fixture.host.context.refresh();
      expect(report.failed).toEqual([]);
      // Bob is a member the person never wrote to (Carol, whom they wrote to in a DM, is in slack-dms-context).
      expect(fixture.host.context.contacts.findByName('Bob')).toEqual([
        expect.objectContaining({ address: 'slack:@U0BOB0002', name: 'Bob Builder', dealtCount: 0 }),
      ]);
      expect(fixture.host.context.isDealtWith('slack:@U0BOB0002')).toBe(false);
    } finally {
      await slack.close();
    }
  });
});
