import { describe, expect, it } from 'vitest';
import { isoTime } from '../../../shared/iso-time';

describe('isoTime', () => {
  it('writes what toISOString writes, across minutes, years and signs', () => {
    const instants = [
      0,
      -1,
      59_999,
      60_000,
      1_764_201_599_999,
      1_764_201_600_000,
      Date.UTC(2026, 10, 26, 23, 59, 59, 9),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10_000, 0, 1),
      -62_198_755_200_000,
      8.64e15,
      -8.64e15,
    ];
    let seed = 7;
    for (let index = 0; index < 5_000; index += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      // Neighbours in time (the cache's common case) and far-apart instants, before and after 1970.
      instants.push(1_764_201_600_000 + (seed % 200_000), Math.round((seed / 2_147_483_648 - 0.5) * 2e14));
    }
    for (const ms of instants) expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString());
  });

  it('throws a RangeError for an invalid date, as toISOString does', () => {
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
    expect(isoTime(new Date(1000))).toBe('1970-01-01T00:00:01.000Z');
  });
});
