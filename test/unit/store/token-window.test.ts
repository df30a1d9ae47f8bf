import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/store/database';
import { Store } from '../../../electron/store/store';

const minute = (n: number): string => new Date(Date.UTC(2026, 10, 26, 9, 0) + n * 60_000).toISOString();

describe('the hour’s model tokens', () => {
  it('carries the sum forward exactly as a count over the window would say, as rows come and the window moves', () => {
    const store = new Store(openDatabase(':memory:'));
    const counted = (since: string): number =>
      store.db
        .prepare<[string], number | null>('SELECT sum(tokens) FROM model_usage WHERE timestamp > ?')
        .pluck()
        .get(since) ?? 0;
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    let clock = 0;
    for (let step = 0; step < 400; step += 1) {
      clock += Math.floor(random() * 3);
      // Rows mostly at the current minute, sometimes late (a clock behind), some in a burst.
      const rows = Math.floor(random() * 3);
      for (let row = 0; row < rows; row += 1)
        store.policy.recordTokens(
          'r',
          minute(clock - (random() < 0.1 ? 70 : 0)),
          1 + Math.floor(random() * 500),
        );
      // The window starts an hour back; now and then it is asked for further back (it moves back, too).
      const since = minute(clock - 60 - (random() < 0.05 ? 30 : 0));
      expect(store.policy.tokensSince(since)).toBe(counted(since));
    }
  });
});
