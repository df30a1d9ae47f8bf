import type { Rng } from '../chaos/prng';

/** Picks one element; the arrays here are never empty. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[rng.int(0, items.length - 1)] as T;
}

const NASTY_STRINGS = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '\u0001\u001f\u007f',
  '\ud800',
  '\udfff\ud800',
  '👍🏽‍🔥',
  'e\u0301',
  '%',
  '%E0%A4%A',
  '../../etc/passwd',
  '..\\..\\windows',
  '${7*7}',
  '{{constructor}}',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  "'; DROP TABLE runs; --",
  'NaN',
  'null',
  'undefined',
  '-1',
  '1e309',
  'Bearer xoxb-1234567890-abcdefghij',
  'ya29.a0AfH6SMBxxxxxxxxxxxxxxxx',
  'mailto:someone@example.com',
  'javascript:alert(1)',
  'Europe/Nowhere',
  '\r\nX-Injected: 1',
];

/** A string from the nasty list, a random run of code units, or a long one. */
export function randomString(rng: Rng): string {
  const roll = rng.next();
  if (roll < 0.45) return pick(rng, NASTY_STRINGS);
  if (roll < 0.9) {
    const length = rng.int(0, 40);
    let out = '';
    for (let i = 0; i < length; i += 1)
      out += String.fromCharCode(rng.int(0, rng.chance(0.8) ? 0x7f : 0xffff));
    return out;
  }
  return 'x'.repeat(rng.int(1_000, rng.chance(0.2) ? 300_000 : 25_000));
}

const NUMBERS = [0, -0, 1, -1, 0.5, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, Number.MIN_VALUE, 15, 16, 7, 8, 100];

/** Any JSON value, with a bias toward the shapes that break validators (nesting, empty, huge). */
export function randomJson(rng: Rng, depth = 0): unknown {
  const roll = rng.next();
  if (depth > 3 || roll < 0.35) return randomScalar(rng);
  if (roll < 0.4) return deepNest(rng);
  if (roll < 0.7) {
    return Array.from({ length: rng.int(0, 5) }, () => randomJson(rng, depth + 1));
  }
  const object: Record<string, unknown> = {};
  for (let i = rng.int(0, 5); i > 0; i -= 1) object[randomKey(rng)] = randomJson(rng, depth + 1);
  return object;
}

export function randomScalar(rng: Rng): unknown {
  const roll = rng.next();
  if (roll < 0.4) return randomString(rng);
  if (roll < 0.7) return pick(rng, NUMBERS);
  if (roll < 0.85) return rng.chance(0.5);
  return null;
}

const KEYS = [
  'prompt',
  'threadId',
  'id',
  'text',
  'args',
  'name',
  'token',
  'limit',
  'cursor',
  '__proto__',
  'constructor',
];

function randomKey(rng: Rng): string {
  return rng.chance(0.7) ? pick(rng, KEYS) : randomString(rng).slice(0, 40);
}

/** Nesting between 20 and 1,000 levels: the cap is 32, so both sides of it are tried (deeper is sent as text). */
export function deepNest(rng: Rng): unknown {
  const levels = rng.chance(0.5) ? rng.int(20, 40) : rng.int(40, 1_000);
  let value: unknown = randomScalar(rng);
  for (let i = 0; i < levels; i += 1) value = rng.chance(0.5) ? [value] : { a: value };
  return value;
}

/** Replaces, drops or adds one field of a plausible input, or swaps the whole of it for noise. */
export function mutate(rng: Rng, input: unknown): unknown {
  if (rng.chance(0.25)) return input;
  if (rng.chance(0.15) || input === null || typeof input !== 'object' || Array.isArray(input)) {
    return randomJson(rng);
  }
  const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  const keys = Object.keys(copy);
  const roll = rng.next();
  if (roll < 0.5 && keys.length > 0) copy[pick(rng, keys)] = randomJson(rng);
  else if (roll < 0.7 && keys.length > 0) {
    const dropped = pick(rng, keys);
    return Object.fromEntries(Object.entries(copy).filter(([key]) => key !== dropped));
  } else copy[randomKey(rng)] = randomJson(rng);
  return copy;
}
