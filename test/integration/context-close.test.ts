import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContextService } from '../../electron/context/context-service';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { connectGoogle, googleEnv } from '../support/connect';
import { openHost, type HostFixture } from '../support/host-fixture';

const NOW = new Date('2026-11-23T07:00:00.000Z');
const GMAIL_LIST = /^GET \/gmail\/v1\/users\/me\/messages$/;

let google: FakeGoogle;
let fixture: HostFixture;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  process.off('unhandledRejection', onUnhandled);
  unhandled.length = 0;
  await fixture.close();
  await google.close();
});

describe('the context index’s passes in the background', () => {
  it('end quietly when Deputy closes during one, reading nothing more, and the next start reads the accounts again', async () => {
    google = await startFakeGoogle();
    fixture = await openHost(null, { env: googleEnv(google), now: () => NOW });
    google.gmail.addMessage({
      from: 'Dana Reyes <dana@example.org>',
      to: 'me@example.com',
      subject: 'Lunch on Friday?',
      text: 'Are you free?',
    });
    await connectGoogle(fixture.host);
    process.on('unhandledRejection', onUnhandled);
    // Gmail is slow to answer: Deputy closes while the pass (its timer's, every half hour) waits for the list.
    google.inject({ match: GMAIL_LIST, response: { status: 200, json: {}, delayMs: 5_000 } });
    const pass = fixture.host.context.refresh();
    await vi.waitFor(() =>
      expect(google.requests.some((request) => request.path.endsWith('/messages'))).toBe(true),
    );
    await fixture.stop();
    const seenAtClose = google.requests.length;

    // It used to go on to ask whether Slack was connected, of a database already closed, and the pass's promise
    // (which the timer does not wait for) rejected with "The database connection is not open".
    await expect(pass).resolves.toEqual({ observed: 0, failed: [] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
    expect(fixture.errorMessages).toEqual([]);
    expect(google.requests.slice(seenAtClose)).toEqual([]);

    // Nothing of it is lost: the index is read again from the accounts at the next start.
    const closed = fixture;
    fixture = await openHost(null, { env: googleEnv(google), now: () => NOW, dataDir: closed.dataDir });
    expect(await fixture.host.context.refresh()).toMatchObject({ failed: [] });
    expect(fixture.host.context.isDealtWith('dana@example.org')).toBe(false);
    expect(fixture.host.context.stats().contacts).toBe(1);
    expect(fixture.errorMessages).toEqual([]);
  });

  it('are logged when one its timer started fails, since nothing else waits for it', async () => {
    google = await startFakeGoogle();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fixture = await openHost(null, { env: googleEnv(google), now: () => NOW });
    process.on('unhandledRejection', onUnhandled);
    vi.spyOn(ContextService.prototype, 'refresh').mockRejectedValue(new Error('the index could not be read'));

    // The first pass starts 5 s after Deputy does.
    await vi.advanceTimersByTimeAsync(5_000);
    vi.useRealTimers();
    await new Promise((resolve) => setImmediate(resolve));

    expect(unhandled).toEqual([]);
    expect(fixture.errorMessages).toEqual(['refreshing the context index failed']);
  });
});
