import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RETRY_AFTER_CAP_MS, retryAfterMs } from '../../../electron/mcp/retry-after';
import { STAYED_UP_MS, StartTally } from '../../../electron/mcp/start-tally';
import { MCP_START_ATTEMPTS } from '../../../shared/contract';

describe('the tally of a server’s starts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('counts a death before the server has stayed up long enough as a failed start, and one after as none', () => {
    const tally = new StartTally();
    tally.running();
    vi.advanceTimersByTime(STAYED_UP_MS - 1);
    expect(tally.ended()).toBe(true);

    tally.running();
    vi.advanceTimersByTime(STAYED_UP_MS);
    expect(tally.ended()).toBe(false);
  });

  it('waits 1 s, 2 s, 4 s … up to a minute, and gives up after the allowed failed starts, until a start works', () => {
    const tally = new StartTally();
    const tries = Array.from({ length: MCP_START_ATTEMPTS }, () => tally.failedStart('counted'));
    expect(tries).toEqual([...Array.from({ length: MCP_START_ATTEMPTS - 1 }, () => true), false]);
    expect(Array.from({ length: 8 }, () => tally.nextDelay())).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000,
    ]);

    // A start that stays up begins both again; one that only ran for moments does not.
    tally.running();
    vi.advanceTimersByTime(STAYED_UP_MS / 2);
    tally.ended();
    expect(tally.nextDelay()).toBe(60_000);
    tally.running();
    vi.advanceTimersByTime(STAYED_UP_MS);
    expect(tally.nextDelay()).toBe(1_000);
    expect(tally.failedStart('counted')).toBe(true);
  });

  it('does not count an address it could not reach', () => {
    const tally = new StartTally();
    const tries = Array.from({ length: 2 * MCP_START_ATTEMPTS }, () => tally.failedStart('may pass'));
    expect(tries.every(Boolean)).toBe(true);
  });

  it('counts an HTTP 500, yet waits at least 10 s after one and 20 s after two, so its last try comes 30 s after its first', () => {
    expect(MCP_START_ATTEMPTS).toBe(3);
    const tally = new StartTally();
    expect([tally.failedStart('server error'), tally.nextDelay()]).toEqual([true, 10_000]);
    expect([tally.failedStart('server error'), tally.nextDelay()]).toEqual([true, 20_000]);
    expect(tally.failedStart('server error')).toBe(false);

    // Another answer between two 500s begins the longer waits again; a start that ran ends them.
    const mixed = new StartTally();
    mixed.failedStart('server error');
    mixed.failedStart('may pass');
    expect([mixed.nextDelay(), mixed.nextDelay()]).toEqual([1_000, 2_000]);
    mixed.failedStart('server error');
    mixed.running();
    expect(mixed.nextDelay()).toBe(4_000);
    mixed.ended();
  });

  it('waits as long as the server asked (never less than the first delay), and grows as before after it', () => {
    const tally = new StartTally();
    expect([tally.nextDelay(3_000), tally.nextDelay(0), tally.nextDelay(), tally.nextDelay(null)]).toEqual([
      3_000, 1_000, 4_000, 8_000,
    ]);
  });
});

describe('a Retry-After header', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');

  it('is a number of seconds or an HTTP date, at most 5 minutes away, a date past being no wait', () => {
    expect(retryAfterMs('3', now)).toBe(3_000);
    expect(retryAfterMs(' 120 ', now)).toBe(120_000);
    expect(retryAfterMs('86400', now)).toBe(RETRY_AFTER_CAP_MS);
    expect(retryAfterMs('Sat, 28 Nov 2026 12:00:45 GMT', now)).toBe(45_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 13:00:00 GMT', now)).toBe(RETRY_AFTER_CAP_MS);
    expect(retryAfterMs('Sat, 28 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('is also an HTTP date in either obsolete form (RFC 850, asctime), at most 5 minutes away', () => {
    expect(retryAfterMs('Saturday, 28-Nov-26 12:00:45 GMT', now)).toBe(45_000);
    expect(retryAfterMs('Saturday, 28-Nov-26 13:00:00 GMT', now)).toBe(RETRY_AFTER_CAP_MS);
    expect(retryAfterMs('Saturday, 28-Nov-26 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('Sat Nov 28 12:00:45 2026', now)).toBe(45_000);
    expect(retryAfterMs(' Sat Nov 28 13:00:00 2026 ', now)).toBe(RETRY_AFTER_CAP_MS);
    expect(retryAfterMs('Sun Nov  6 08:49:37 1994', now)).toBe(0);
    const soon = Date.parse('2026-12-03T12:00:00Z');
    expect(retryAfterMs('Thu Dec  3 12:01:30 2026', soon)).toBe(90_000);
  });

  it('is none when absent or written otherwise', () => {
    for (const header of [
      null,
      '',
      '-1',
      '1.5',
      '3s',
      'soon',
      '2026-11-28T12:00:45Z',
      'Sat, 28 Nov 2026',
      'Sat, 28-Nov-26 12:00:45 GMT',
      'Sat Nov 28 12:00:45 2026 GMT',
      'Sat, 31 Feb 2026 12:00:45 GMT',
    ])
      expect(retryAfterMs(header, now)).toBeNull();
  });
});
