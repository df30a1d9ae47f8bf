import { describe, expect, it } from 'vitest';
import { shortTimeWords, widestTimeSamples } from '../../../renderer/src/features/audit/time-column';

/** A local time of day, as the person's computer has it. */
const at = (hour: number) => new Date(2026, 10, 29, hour, 4, 47).toISOString();
/** ICU writes a narrow no-break space before "PM": compared as a space. */
const plain = (words: string) => words.replace(/\s/g, ' ');

describe('the audit table’s times', () => {
  it('follow the locale’s clock: 12 hours where it has 12, 24 where it has 24, not 24 everywhere', () => {
    expect(plain(shortTimeWords(at(0), 'en-US'))).toBe('Nov 29, 12:04:47 AM');
    expect(plain(shortTimeWords(at(19), 'en-US'))).toBe('Nov 29, 7:04:47 PM');
    expect(plain(shortTimeWords(at(19), 'en-GB'))).toBe('29 Nov, 19:04:47');
    expect(plain(shortTimeWords(at(0), 'de-DE'))).toBe('29. Nov., 00:04:47');
    expect(shortTimeWords('not a time')).toBe('not a time');
  });

  it('measure the column on times that include the widest: both halves of a 12-hour day, every month', () => {
    const samples = widestTimeSamples('en-US').map(plain);
    expect(samples).toHaveLength(24);
    expect(samples).toContain('Sep 28, 10:58:58 AM');
    expect(samples).toContain('Sep 28, 10:58:58 PM');
    expect(widestTimeSamples('en-GB').map(plain)).toContain('28 Sept, 22:58:58');
  });
});
