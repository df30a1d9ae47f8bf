import { describe, expect, it } from 'vitest';
import { totalCostWords } from '../../../renderer/src/features/usage/usage-words';

describe('totalCostWords', () => {
  it('begins the total with "About" for an estimate, and with the bound alone for a tiny one', () => {
    expect(totalCostWords(0.0012)).toEqual({ lead: 'About ', amount: '$0.0012' });
    // Not "About under $0.0001": the bound says it is not exact already.
    expect(totalCostWords(0.00002)).toEqual({ lead: '', amount: 'Under $0.0001' });
    expect(totalCostWords(null)).toEqual({ lead: 'About ', amount: '—' });
  });
});
