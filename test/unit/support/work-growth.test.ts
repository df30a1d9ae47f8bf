import { describe, expect, it } from 'vitest';
import { describeGrowth, findOutgrowingStep } from '../../support/work-growth';

const A_RUN = (count: number) => 'a'.repeat(count);

describe('the guard against readings that outgrow their text', () => {
  it('finds a quadratic reading at the first steps, long before the largest text', () => {
    // Each start tries the rest of the run for a "b" that is not there: a quadratic reading.
    const growth = findOutgrowingStep(A_RUN, (text) => text.replace(/a*b/g, ''));
    expect(growth).not.toBeNull();
    expect(growth?.after.chars).toBeLessThan(100_000);
    expect(describeGrowth(growth)).toMatch(/^\d+ characters took [\d.]+ ms, \d+ took [\d.]+ ms: /);
  });
  it('passes a reading in step with its text', () => {
    expect(describeGrowth(findOutgrowingStep(A_RUN, (text) => text.replace(/a(?=a)/g, 'b')))).toBe(
      describeGrowth(null),
    );
  });
});
