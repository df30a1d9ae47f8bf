import { describe, expect, it } from 'vitest';
import { createPkcePair, pkceChallenge, randomState } from '../../../electron/connections/pkce';

describe('PKCE', () => {
  it('computes the S256 challenge of RFC 7636 Appendix B', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes a fresh 43-character base64url verifier with its matching challenge each time', () => {
    const first = createPkcePair();
    const second = createPkcePair();
    expect(first.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.challenge).toBe(pkceChallenge(first.verifier));
    expect(first.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.verifier).not.toBe(first.verifier);
  });

  it('makes unguessable, URL-safe states', () => {
    const state = randomState();
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomState()).not.toBe(state);
  });
});
