import { describe, expect, it } from 'vitest';
import { parseHttpDate } from '../../../shared/http-date';

const now = Date.parse('2026-11-28T12:00:00Z');
const at = (iso: string) => Date.parse(iso);

describe('an HTTP date (RFC 9110 §5.6.7)', () => {
  it('is read in each of its three forms, as GMT', () => {
    const sameMoment = [
      'Sun, 06 Nov 1994 08:49:37 GMT',
      'Sunday, 06-Nov-94 08:49:37 GMT',
      'Sun Nov  6 08:49:37 1994',
    ];
    expect(sameMoment.map((text) => parseHttpDate(text, now))).toEqual(
      sameMoment.map(() => at('1994-11-06T08:49:37Z')),
    );
    expect(parseHttpDate('Sat Nov 28 12:00:45 2026', now)).toBe(at('2026-11-28T12:00:45Z'));
    expect(parseHttpDate('Saturday, 28-Nov-26 12:00:45 GMT', now)).toBe(at('2026-11-28T12:00:45Z'));
    // Names in another case than HTTP writes them, as some servers send them.
    expect(parseHttpDate('SAT, 28 NOV 2026 12:00:45 GMT', now)).toBe(at('2026-11-28T12:00:45Z'));
    expect(parseHttpDate('Wed, 31 Dec 2025 23:59:60 GMT', now)).toBe(at('2026-01-01T00:00:00Z'));
  });

  it('takes a two-digit year as the one at most 50 years ahead of now', () => {
    expect(parseHttpDate('Monday, 01-Jan-76 00:00:00 GMT', now)).toBe(at('2076-01-01T00:00:00Z'));
    expect(parseHttpDate('Friday, 01-Jan-77 00:00:00 GMT', now)).toBe(at('1977-01-01T00:00:00Z'));
    expect(parseHttpDate('Saturday, 01-Jan-00 00:00:00 GMT', now)).toBe(at('2000-01-01T00:00:00Z'));
  });

  it('is none when written otherwise, or when no such moment exists', () => {
    for (const text of [
      '',
      'soon',
      '2026-11-28T12:00:45Z',
      'Sat, 28 Nov 2026',
      'Sat, 28 Nov 2026 12:00:45',
      'Sat, 28 Nov 2026 12:00:45 UTC',
      'Sat, 28 Nov 2026 12:00:45 +0000',
      'Sat, 28 Nov 26 12:00:45 GMT',
      'Sat, 28-Nov-2026 12:00:45 GMT',
      'Saturday, 28 Nov 2026 12:00:45 GMT',
      'Sat, 28-Nov-26 12:00:45 GMT',
      'Saturday, 28-Nov-26 12:00:45',
      'Sat Nov 28 12:00:45 2026 GMT',
      'Sat Nov 6 12:00:45 2026',
      'Sat Nov  6 12:00:45 26',
      'Xyz, 28 Nov 2026 12:00:45 GMT',
      'Sat, 28 Nov 2026 12:00:45 GMT junk',
      ' Sat, 28 Nov 2026 12:00:45 GMT',
      'Sat, 31 Feb 2026 12:00:45 GMT',
      'Sat, 00 Nov 2026 12:00:45 GMT',
      'Sat, 28 Foo 2026 12:00:45 GMT',
      'Sat, 28 Nov 2026 24:00:00 GMT',
      'Sat, 28 Nov 2026 12:60:00 GMT',
      'Sat, 28 Nov 2026 12:00:61 GMT',
      'Sat, 28 Nov 2026 1:00:45 GMT',
      'Sunday, 31-Apr-95 08:49:37 GMT',
      'Sun Feb 29 08:49:37 2027',
    ])
      expect(parseHttpDate(text, now), text).toBeNull();
  });
});
