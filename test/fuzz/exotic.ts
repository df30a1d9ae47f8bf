import type { Rng } from '../chaos/prng';
import { deepNest, pick } from './values';

/** Values IPC's structured clone can carry and JSON cannot: what a compromised page could send the handlers. */
export function exoticValue(rng: Rng): unknown {
  const sparse: unknown[] = [];
  sparse[rng.int(1, 100_000)] = 1;
  const bare = Object.create(null) as Record<string, unknown>;
  bare.prompt = 'hi';
  return pick(rng, [
    () => undefined,
    () => NaN,
    () => Infinity,
    () => 10n ** 30n,
    () => new Date(Number.NaN),
    () => new Map([['prompt', 'hi']]),
    () => new Set(['a']),
    () => new Uint8Array(rng.int(0, 2_000_000)),
    () => sparse,
    () => bare,
    () => ({ prompt: new String('hi') }),
    () => ({ prompt: 'hi', threadId: 10n }),
    () => /regex/g,
    () => new Error('from the page'),
    () => deepNest(rng),
    () => ({ ['__proto__']: { polluted: true }, prompt: 'hi' }),
  ])();
}
