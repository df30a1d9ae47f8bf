import { z } from 'zod';

/** A top-level key of a state as JSON text: whole, or element by element for arrays. */
export type KeyText = { json: string; items?: undefined } | { json?: undefined; items: string[] };

/** A state as the JSON text of each top-level key, to compare against the next one without re-serialising. */
export type StateText = Map<string, KeyText>;

/** A stored blob that cannot be read back; the repo names the run and step it belongs to. */
export class UnreadableCheckpoint extends Error {
  override readonly name = 'UnreadableCheckpoint';
}

/**
 * Serialises states key by key, remembering the JSON of array elements by identity: a run's messages are never
 * mutated once pushed, so a 200-message history costs 200 look-ups per save instead of 200 serialisations.
 */
export class StateEncoder {
  private readonly elementJson = new WeakMap<object, string>();

  describe(state: Record<string, unknown>): StateText {
    const keys: StateText = new Map();
    for (const [key, value] of Object.entries(state)) {
      if (Array.isArray(value)) {
        keys.set(key, { items: value.map((item: unknown) => this.jsonOfElement(item)) });
      } else {
        const json = JSON.stringify(value) as string | undefined;
        // Like JSON itself: a key whose value has no JSON (undefined) is absent.
        if (json !== undefined) keys.set(key, { json });
      }
    }
    return keys;
  }

  private jsonOfElement(item: unknown): string {
    if (typeof item !== 'object' || item === null)
      return (JSON.stringify(item) as string | undefined) ?? 'null';
    let json = this.elementJson.get(item);
    if (json === undefined) {
      json = (JSON.stringify(item) as string | undefined) ?? 'null';
      this.elementJson.set(item, json);
    }
    return json;
  }
}

const textOf = (text: KeyText): string => text.json ?? `[${text.items.join(',')}]`;

/** The whole state as one JSON object. */
export function snapshotText(keys: StateText): string {
  return `{${[...keys].map(([key, text]) => `${JSON.stringify(key)}:${textOf(text)}`).join(',')}}`;
}

/** How many leading items two arrays share. */
function sharedPrefix(before: readonly string[], after: readonly string[]): number {
  const length = Math.min(before.length, after.length);
  let index = 0;
  while (index < length && before[index] === after[index]) index += 1;
  return index;
}

/**
 * What turns `before` into `after`: changed keys in full, arrays that share a start with their previous value as
 * how many items to keep and what follows (a grown history, or one whose last message was replaced), removed
 * keys by name.
 */
export function deltaText(before: StateText, after: StateText): string {
  const set: string[] = [];
  const arrays: string[] = [];
  for (const [key, now] of after) {
    const then = before.get(key);
    const keep = now.items && then?.items ? sharedPrefix(then.items, now.items) : 0;
    if (now.items && then?.items && keep === then.items.length && keep === now.items.length) continue;
    if (now.items && keep > 0) {
      arrays.push(`${JSON.stringify(key)}:{"keep":${keep},"append":[${now.items.slice(keep).join(',')}]}`);
    } else if (now.json === undefined || then?.json !== now.json) {
      set.push(`${JSON.stringify(key)}:${textOf(now)}`);
    }
  }
  const removed = [...before.keys()].filter((key) => !after.has(key)).map((key) => JSON.stringify(key));
  // Only the parts that say something: most deltas change a few keys, many change none.
  const parts = [
    ...(set.length > 0 ? [`"set":{${set.join(',')}}`] : []),
    ...(arrays.length > 0 ? [`"arrays":{${arrays.join(',')}}`] : []),
    ...(removed.length > 0 ? [`"removed":[${removed.join(',')}]`] : []),
  ];
  return `{${parts.join(',')}}`;
}

const Delta = z.object({
  set: z.record(z.string(), z.unknown()).default({}),
  arrays: z
    .record(z.string(), z.object({ keep: z.number().int().nonnegative(), append: z.array(z.unknown()) }))
    .default({}),
  removed: z.array(z.string()).default([]),
});

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UnreadableCheckpoint('is not readable JSON');
  }
}

/** A snapshot's state, keyed in a Map so that no stored key (even "__proto__") can reach an object's prototype. */
export function readSnapshot(text: string): Map<string, unknown> {
  const value = parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UnreadableCheckpoint('does not hold a state');
  }
  return new Map(Object.entries(value));
}

/** Applies a delta to a state read by `readSnapshot` (and earlier deltas), in place. */
export function applyDelta(state: Map<string, unknown>, text: string): void {
  const parsed = Delta.safeParse(parse(text));
  if (!parsed.success) throw new UnreadableCheckpoint('is not a readable delta');
  const { set, arrays, removed } = parsed.data;
  for (const key of removed) state.delete(key);
  for (const [key, value] of Object.entries(set)) state.set(key, value);
  for (const [key, { keep, append }] of Object.entries(arrays)) {
    const current = state.get(key);
    if (!Array.isArray(current) || current.length < keep) {
      throw new UnreadableCheckpoint(
        `keeps ${keep} items of "${key}", which the state before it does not have`,
      );
    }
    // These arrays were parsed for this load alone, so growing them in place is safe and keeps loading linear.
    current.length = keep;
    for (const item of append) current.push(item);
  }
}
