import type { Memory } from '../../../../shared/contract';
/**
 * Where a memory's words came from and whether the person stands behind it: only confirmed memories are given
 * to Deputy as facts about them, so an unconfirmed one says how to confirm it. A memory of the person's origin
 * was saved from a conversation with them (typed in Settings, or worded by the model from what they said): not
 * always their own words, so it does not claim to be.
 */
export function describeOrigin(memory: Memory): string {
  const from =
    memory.origin === 'person'
      ? 'From what you told Deputy'
      : memory.origin === 'source'
        ? `Drawn from ${memory.source ?? 'something Deputy read'}`
        : 'Saved before Deputy recorded where memories came from';
  return memory.confirmedAt
    ? `${from} · confirmed`
    : `${from} · not confirmed: Edit, then Save, to confirm it`;
}
