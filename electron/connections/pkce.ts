import { createHash, randomBytes } from 'node:crypto';

/**
 * PKCE (RFC 7636) for the installed-app sign-in: the code in the redirect is useless without the verifier
 * that only this process holds, so another app listening for the redirect cannot redeem it.
 */
export interface PkcePair {
  /** 43 characters of base64url: 32 random bytes, the RFC's recommended minimum entropy. */
  verifier: string;
  /** BASE64URL(SHA256(verifier)), sent with code_challenge_method=S256. */
  challenge: string;
}

export function createPkcePair(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier) };
}

export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** An unguessable value for the `state` parameter, which ties the redirect to the request we made. */
export function randomState(): string {
  return randomBytes(32).toString('base64url');
}
