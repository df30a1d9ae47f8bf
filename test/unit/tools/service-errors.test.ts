import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpToolError, parseRetryAfter } from '../../../electron/tools/service-errors';

describe('httpToolError: what the engine may retry', () => {
  it('retries what may pass: no answer, timeouts, 408, 429 and 5xx', () => {
    const cases: [number | null, string][] = [
      [null, 'unavailable'],
      [408, 'timeout'],
      [429, 'rate_limited'],
      [500, 'unavailable'],
      [502, 'unavailable'],
      [503, 'unavailable'],
      [504, 'unavailable'],
    ];
    for (const [status, code] of cases) {
      expect(httpToolError('google', 'reading', status), String(status)).toMatchObject({
        code,
        status,
        isTransient: true,
      });
    }
  });

  it('does not retry what will fail the same way: 400, 401, 403, 404, 409', () => {
    const cases: [number, string][] = [
      [400, 'invalid_request'],
      [401, 'not_connected'],
      [403, 'forbidden'],
      [404, 'not_found'],
      [409, 'invalid_request'],
    ];
    for (const [status, code] of cases) {
      expect(httpToolError('slack', 'posting', status), String(status)).toMatchObject({
        code,
        isTransient: false,
        retryAfterSeconds: null,
      });
    }
  });

  it('calls a network timeout a timeout and a refused connection unavailable, both transient', () => {
    for (const networkCode of ['timeout', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']) {
      const error = httpToolError('slack', 'posting to #general', null, { networkCode });
      expect(error).toMatchObject({ code: 'timeout', status: null, isTransient: true });
      expect(error.message).toContain(`did not answer in time while posting to #general (${networkCode})`);
    }
    expect(httpToolError('google', 'reading', null, { networkCode: 'ECONNREFUSED' })).toMatchObject({
      code: 'unavailable',
      isTransient: true,
    });
  });

  it('keeps Retry-After on 429 and 503 only', () => {
    expect(httpToolError('google', 'x', 429, { retryAfterSeconds: 9 }).retryAfterSeconds).toBe(9);
    expect(httpToolError('google', 'x', 503, { retryAfterSeconds: 9 }).retryAfterSeconds).toBe(9);
    expect(httpToolError('google', 'x', 400, { retryAfterSeconds: 9 }).retryAfterSeconds).toBeNull();
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, and ignores anything else', () => {
    const now = new Date('2026-03-09T08:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('1.2', now)).toBe(2);
    expect(parseRetryAfter('Mon, 09 Mar 2026 08:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
  describe('in a time zone other than GMT', () => {
    const zone = process.env.TZ;
    beforeAll(() => {
      process.env.TZ = 'America/New_York';
    });
    afterAll(() => {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    });
    it('reads all three forms of HTTP date in GMT, an asctime date too', () => {
      const now = new Date('2026-03-09T08:00:00Z');
      expect(new Date(2026, 2, 9).getTimezoneOffset()).not.toBe(0); // the zone is in force
      expect(parseRetryAfter('Mon, 09 Mar 2026 08:00:30 GMT', now)).toBe(30);
      expect(parseRetryAfter('Monday, 09-Mar-26 08:00:40 GMT', now)).toBe(40);
      expect(parseRetryAfter('Mon Mar  9 08:00:50 2026', now)).toBe(50);
    });
  });
  it('takes a date that does not exist, or one in no form of HTTP date, for none', () => {
    const now = new Date('2026-02-27T08:00:00Z');
    expect(parseRetryAfter('Tue, 31 Feb 2026 08:00:00 GMT', now)).toBeNull();
    expect(parseRetryAfter('Fri, 27 Feb 2026 24:00:00 GMT', now)).toBeNull();
    expect(parseRetryAfter('2026-02-27T08:01:00Z', now)).toBeNull();
  });
});
