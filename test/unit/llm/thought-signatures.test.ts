import { describe, expect, it } from 'vitest';
import { ThoughtSignatures } from '../../../electron/llm/thought-signatures';

describe('ThoughtSignatures', () => {
  it('recalls a signature by call id and forgets the oldest beyond its capacity', () => {
    const signatures = new ThoughtSignatures(2);
    signatures.remember('a', 'sig-a');
    signatures.remember('b', 'sig-b');
    signatures.remember('a', 'sig-a2');
    signatures.remember('c', 'sig-c');
    expect(signatures.recall('a')).toBe('sig-a2');
    expect(signatures.recall('b')).toBeUndefined();
    expect(signatures.recall('c')).toBe('sig-c');
  });
});
