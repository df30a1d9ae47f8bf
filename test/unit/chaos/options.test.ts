import { describe, expect, it } from 'vitest';
import { CI_CYCLES, ChaosUsageError, LOCAL_CYCLES, parseChaosOptions } from '../../chaos/options';
import { createRng, seedFrom } from '../../chaos/prng';

describe('chaos options', () => {
  it('runs 200 cycles locally and 30 in CI unless told otherwise', () => {
    expect(parseChaosOptions([], {}).cycles).toBe(LOCAL_CYCLES);
    expect(LOCAL_CYCLES).toBeGreaterThanOrEqual(200);
    expect(parseChaosOptions([], { CI: 'true' }).cycles).toBe(CI_CYCLES);
    expect(parseChaosOptions(['--cycles', '7'], { CI: 'true' }).cycles).toBe(7);
  });

  it('reads the seed, report path and --keep', () => {
    expect(parseChaosOptions(['--seed', 'abc', '--report', '/tmp/r.json', '--keep'], {})).toEqual({
      cycles: LOCAL_CYCLES,
      seed: 'abc',
      reportPath: '/tmp/r.json',
      shouldKeepData: true,
    });
  });

  it('refuses a cycle count that is not a positive whole number, and unknown flags', () => {
    expect(() => parseChaosOptions(['--cycles', '0'], {})).toThrow(ChaosUsageError);
    expect(() => parseChaosOptions(['--cycles', '2.5'], {})).toThrow(/whole number/);
    expect(() => parseChaosOptions(['--cylces', '3'], {})).toThrow(/Usage: npm run test:chaos/);
  });

  it('draws the same numbers from the same seed, and other numbers from another', () => {
    const draw = (seed: string) => {
      const rng = createRng(seedFrom(seed));
      return Array.from({ length: 5 }, () => rng.int(0, 1_000_000));
    };
    expect(draw('42')).toEqual(draw('42'));
    expect(draw('42')).not.toEqual(draw('43'));
    const rng = createRng(1);
    for (let i = 0; i < 1000; i += 1) {
      const value = rng.int(3, 5);
      expect(value >= 3 && value <= 5).toBe(true);
    }
  });
});
