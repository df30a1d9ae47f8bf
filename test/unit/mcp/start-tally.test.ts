import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STAYED_UP_MS, StartTally } from '../../../electron/mcp/start-tally';
import { MCP_START_ATTEMPTS } from '../../../shared/contract';

describe('the tally of a server’s starts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('counts a death before the server has stayed up long enough as a failed start, and one after as none', () => {
    const tally = new StartTally();
    tally.running();
    vi.advanceTimersByTime(STAYED_UP_MS - 1);
    expect(tally.ended()).toBe(true);

    tally.running();
    vi.advanceTimersByTime(STAYED_UP_MS);
    expect(tally.ended()).toBe(false);
  });

  it('waits 1 s, 2 s, 4 s … up to a minute, and gives up after the allowed failed starts, until a start works', () => {
    const tally = new StartTally();
    const tries = Array.from({ length: MCP_START_ATTEMPTS }, () => tally.failedStart(true));
    expect(tries).toEqual([...Array.from({ length: MCP_START_ATTEMPTS - 1 }, () => true), false]);
    expect(Array.from({ length: 8 }, () => tally.nextDelay())).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000,
    ]);

    // A start that stays up begins both again; one that only ran for moments does not.
    tally.running();
    vi.advanceTimersByTime(STAYED_UP_MS / 2);
    tally.ended();
    expect(tally.nextDelay()).toBe(60_000);
    tally.running();
    vi.advanceTimersByTime(STAYED_UP_MS);
    expect(tally.nextDelay()).toBe(1_000);
    expect(tally.failedStart(true)).toBe(true);
  });

  it('does not count an address it could not reach', () => {
    const tally = new StartTally();
    const tries = Array.from({ length: 2 * MCP_START_ATTEMPTS }, () => tally.failedStart(false));
    expect(tries.every(Boolean)).toBe(true);
  });
});
