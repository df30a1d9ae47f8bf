import { createHash, timingSafeEqual } from 'node:crypto';

// Hashing both sides first gives equal lengths, so the comparison takes the same time whatever was sent.
const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

export function isValidToken(candidate: string | undefined, token: string): boolean {
  if (!candidate) return false;
  return timingSafeEqual(digest(candidate), digest(token));
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
