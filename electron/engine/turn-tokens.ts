import type { RunState } from './run-state';

/**
 * The tokens of a run's latest model turn, which each call that turn asked for is charged in the audit trail.
 * Kept in memory beside the state, not in it: a checkpoint grows by nothing for it, and a call resumed after a
 * restart (its turn's figure gone) records no tokens rather than a wrong number.
 */
const latest = new WeakMap<RunState, number | null>();

export function setTurnTokens(state: RunState, tokens: number | null): void {
  latest.set(state, tokens);
}

export function turnTokens(state: RunState): number | null {
  return latest.get(state) ?? null;
}
