import { afterEach, describe, expect, it, vi } from 'vitest';
import { ThreadId } from '../../../shared/contract/data';
import { newRowId } from '../../../electron/store/row-ids';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function timeOf(id: string): number {
  return Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
}

describe('newRowId', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('makes version-7 UUIDs that carry the time they were made and that the contract accepts', () => {
    const before = Date.now();
    const id = newRowId();
    const after = Date.now();
    expect(id).toMatch(UUID_V7);
    expect(timeOf(id)).toBeGreaterThanOrEqual(before);
    expect(timeOf(id)).toBeLessThanOrEqual(after + 1);
    expect(ThreadId.safeParse(id).success).toBe(true);
  });

  it('sorts in the order the ids were made, within one millisecond and when the clock steps back', () => {
    const clock = vi.spyOn(Date, 'now');
    const ids: string[] = [];
    clock.mockReturnValue(Date.UTC(2031, 0, 1));
    for (let index = 0; index < 5_000; index += 1) ids.push(newRowId());
    // The clock steps back by a second: the ids still sort after the ones before.
    clock.mockReturnValue(Date.UTC(2031, 0, 1) - 1_000);
    for (let index = 0; index < 100; index += 1) ids.push(newRowId());
    clock.mockReturnValue(Date.UTC(2031, 0, 1) + 60_000);
    for (let index = 0; index < 100; index += 1) ids.push(newRowId());
    for (const id of ids) expect(id).toMatch(UUID_V7);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    // The counter starts below 2,048, so 5,000 ids in one millisecond overflow its 12 bits: the time moved on.
    expect(timeOf(ids[4_999] ?? '')).toBeGreaterThan(Date.UTC(2031, 0, 1));
    expect(timeOf(ids.at(-1) ?? '')).toBe(Date.UTC(2031, 0, 1) + 60_000);
  });

  it('keeps 62 random bits: ids made in the same millisecond differ past the counter', () => {
    const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2032, 5, 1));
    const tails = new Set<string>();
    for (let index = 0; index < 2_000; index += 1) tails.add(newRowId().slice(19));
    clock.mockRestore();
    expect(tails.size).toBe(2_000);
    // Each of the 15 free hex digits takes several values, so none of them is fixed by the code.
    for (let digit = 1; digit < 17; digit += 1) {
      if (digit === 4) continue;
      const values = new Set([...tails].map((tail) => tail[digit]));
      expect(values.size).toBeGreaterThan(4);
    }
  });
});
