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
    fixture = await openHost(null, { env: googleEnv(google), now: () => NOW });
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

    expect(fixture.host.context.upcoming.next(NOW, 5).map((event) => event.title)).toEqual([
      'Company holiday',
      'Design review',
    ]);
    const knowledge = fixture.host.context.knowledgeFor('What is next today?');
    expect(knowledge).toContain('- 2026-11-23 “Company holiday”');
    expect(knowledge).not.toContain('Vendor pitch');
  });
});
