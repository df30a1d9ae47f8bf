import { describe, expect, it } from 'vitest';
import { notFound, quoteId } from '../../../shared/contract';

describe('ids in error messages', () => {
  it('quotes a short id whole and cuts a long one to 64 characters and an ellipsis', () => {
    expect(quoteId('abc')).toBe('"abc"');
    expect(quoteId('x'.repeat(64))).toBe(`"${'x'.repeat(64)}"`);
    expect(quoteId('x'.repeat(5_000))).toBe(`"${'x'.repeat(64)}…"`);
    expect(notFound('run', 'y'.repeat(5_000)).toBody()).toEqual({
      code: 'not_found',
      message: `There is no run with the id "${'y'.repeat(64)}…".`,
    });
  });

  it('never cuts a character in half', () => {
    const quoted = quoteId(`${'x'.repeat(63)}${'👍'.repeat(10)}`);
    expect(quoted).toBe(`"${'x'.repeat(63)}…"`);
  });
});
