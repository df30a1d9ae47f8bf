import { ApiError } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toModelError } from '../../../electron/llm/gemini-errors';

const NOW = new Date('2026-03-09T08:00:00Z');
const RETRY_INFO = { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '22.4s' };

/** The wait a 429 answer with this Retry-After (and Google's RetryInfo, when given) is read as. */
function waitFor(header: string | null, details: unknown[] = []): number | null {
  const body = JSON.stringify({ error: { message: 'Quota exceeded.', details } });
  const error = new ApiError({ message: `got status: 429. ${body}`, status: 429 });
  const context = { model: 'gemini-x', host: 'g.test', hasResponse: false, retryAfterHeader: header };
  return toModelError(error, context).retryAfterSeconds;
}

describe("Gemini's Retry-After", () => {
  const zone = process.env.TZ;
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    process.env.TZ = 'America/New_York';
  });
  afterAll(() => {
    vi.useRealTimers();
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('reads seconds, as before', () => {
    expect(waitFor('17')).toBe(17);
    expect(waitFor(' 1.2 ')).toBe(2);
    expect(waitFor(null, [RETRY_INFO])).toBe(23);
  });
  it('reads all three forms of HTTP date in GMT, in a time zone other than GMT, an asctime date too', () => {
    expect(new Date(2026, 2, 9).getTimezoneOffset()).not.toBe(0); // the zone is in force
    expect(waitFor('Mon, 09 Mar 2026 08:00:30 GMT')).toBe(30);
    expect(waitFor('Monday, 09-Mar-26 08:00:40 GMT')).toBe(40);
    expect(waitFor('Mon Mar  9 08:00:50 2026')).toBe(50);
    expect(waitFor('Mon, 09 Mar 2026 07:00:00 GMT')).toBe(0);
  });
  it("takes a date that does not exist for none, and falls back to Google's RetryInfo", () => {
    expect(waitFor('Tue, 31 Feb 2026 08:00:00 GMT')).toBeNull();
    expect(waitFor('Tue, 31 Feb 2026 08:00:00 GMT', [RETRY_INFO])).toBe(23);
    expect(waitFor('soon', [RETRY_INFO])).toBe(23);
  });
});
