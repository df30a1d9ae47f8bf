import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { connectGoogle, googleEnv } from '../support/connect';
import { openHost, type HostFixture } from '../support/host-fixture';

/** Monday 23 November 2026, 08:00 in Paris. */
const NOW = new Date('2026-11-23T07:00:00.000Z');

let google: FakeGoogle;
let fixture: HostFixture;

afterEach(async () => {
  await fixture.close();
  await google.close();
});

describe('the next events a run is told of ([KNOWN CONTEXT])', () => {
  it('include today’s all-day event and leave out an invitation the person declined', async () => {
    google = await startFakeGoogle();
    fixture = await openHost(null, { env: { ...googleEnv(google), TZ: 'Europe/Paris' }, now: () => NOW });
    google.calendar.addEvent({
      summary: 'Company holiday',
      start: { date: '2026-11-23' },
      end: { date: '2026-11-24' },
    });
    google.calendar.addEvent({
      summary: 'Vendor pitch',
      organizer: { email: 'sales@vendor.example' },
      start: { dateTime: '2026-11-23T10:00:00Z' },
      end: { dateTime: '2026-11-23T11:00:00Z' },
      attendees: [
        { email: google.calendar.ownerEmail, self: true, responseStatus: 'declined' },
        { email: 'sales@vendor.example', responseStatus: 'accepted' },
      ],
    });
    google.calendar.addEvent({
      summary: 'Design review',
      start: { dateTime: '2026-11-23T14:00:00+01:00' },
      end: { dateTime: '2026-11-23T15:00:00+01:00' },
    });
    await connectGoogle(fixture.host);
    expect((await fixture.host.context.refresh()).failed).toEqual([]);

    expect(fixture.host.context.upcoming.next(NOW, 5, 'Europe/Paris').map((event) => event.title)).toEqual([
      'Company holiday',
      'Design review',
    ]);
    const knowledge = fixture.host.context.knowledgeFor('What is next today?');
    expect(knowledge).toContain('- 2026-11-23 “Company holiday”');
    expect(knowledge).not.toContain('Vendor pitch');
  });

  it('judge an all-day event’s day in the person’s time zone: at 23:00 on Sunday in Los Angeles, Sunday’s is kept', async () => {
    google = await startFakeGoogle();
    // The machine's zone is Paris; the person set Los Angeles in Settings, where NOW is Sunday 23:00.
    fixture = await openHost(null, { env: { ...googleEnv(google), TZ: 'Europe/Paris' }, now: () => NOW });
    await fixture.host.invoke('settings.set', { timezone: 'America/Los_Angeles' });
    google.calendar.addEvent({
      summary: 'Family day',
      start: { date: '2026-11-22' },
      end: { date: '2026-11-23' },
    });
    google.calendar.addEvent({
      summary: 'Company holiday',
      start: { date: '2026-11-23' },
      end: { date: '2026-11-24' },
    });
    google.calendar.addEvent({
      summary: 'Late call',
      start: { dateTime: '2026-11-22T23:30:00-08:00' },
      end: { dateTime: '2026-11-23T00:00:00-08:00' },
    });
    await connectGoogle(fixture.host);
    expect((await fixture.host.context.refresh()).failed).toEqual([]);

    const knowledge = fixture.host.context.knowledgeFor('What is on today?');
    const listed = knowledge.split('\n').filter((line) => line.startsWith('- 2026'));
    expect(listed).toEqual([
      '- 2026-11-22 “Family day”',
      '- 2026-11-22T23:30:00-08:00 “Late call”',
      '- 2026-11-23 “Company holiday”',
    ]);
  });
});

describe('clearing the index and turning Google off (Settings)', () => {
  async function connectedWithDesignReview(): Promise<void> {
    google = await startFakeGoogle();
    fixture = await openHost(null, { env: googleEnv(google), now: () => NOW });
    await fixture.host.invoke('settings.set', { embedRecentMail: true });
    google.gmail.addMessage({
      from: 'Me <me@example.com>',
      to: 'Sarah Chen <sarah@example.com>',
      subject: 'Q1 planning',
      text: 'Agenda attached.',
      labelIds: ['SENT'],
    });
    google.gmail.addMessage({
      from: 'Sarah Chen <sarah@example.com>',
      to: 'me@example.com',
      subject: 'Re: Q1',
      text: 'Yes.',
    });
    google.calendar.addEvent({
      summary: 'Design review',
      start: { dateTime: '2026-11-23T14:00:00+01:00' },
      end: { dateTime: '2026-11-23T15:00:00+01:00' },
    });
    await connectGoogle(fixture.host);
  }

  it('a refresh under way when the index is cleared writes nothing more: it stays empty', async () => {
    await connectedWithDesignReview();
    const pass = fixture.host.context.refresh();
    const cleared = await fixture.host.invoke('context.clear', {});
    expect(cleared).toMatchObject({ contacts: 0, upcomingEvents: 0, recentMail: 0 });

    await pass;
    expect(fixture.host.context.stats()).toMatchObject({ contacts: 0, upcomingEvents: 0, recentMail: 0 });
    // The next pass fills it again.
    await fixture.host.context.refresh();
    expect(fixture.host.context.stats()).toMatchObject({ contacts: 1, upcomingEvents: 1, recentMail: 1 });
  });

  it('once Google is disconnected, its events are no longer told to a run and the kept recent mail goes', async () => {
    await connectedWithDesignReview();
    await fixture.host.context.refresh();
    expect(fixture.host.context.knowledgeFor('What is next?')).toContain('Design review');
    expect(fixture.host.context.stats()).toMatchObject({ upcomingEvents: 1, recentMail: 1 });

    await fixture.host.invoke('connections.disconnect', { name: 'google' });
    await fixture.host.context.refresh();

    expect(fixture.host.context.knowledgeFor('What is next?')).not.toContain('Design review');
    expect(fixture.host.context.stats()).toMatchObject({ upcomingEvents: 0, recentMail: 0 });
    // Who the person dealt with stays, as the README says: it helps resolve names, it reads nothing more.
    expect(fixture.host.context.stats().contacts).toBe(1);
  });
});
