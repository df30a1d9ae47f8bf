import { randomBytes } from 'node:crypto';
import type { FakeHandler } from '../http-kit';

/** Placeholder: the Google sign-in work replaces this with authorize, token (PKCE) and revoke endpoints. */
export interface OAuthFakeState {
  isValidAccessToken(token: string | null): boolean;
  /** Tokens that are valid at once, for tests that start already signed in. */
  issueTokens(): { accessToken: string; refreshToken: string };
}

export function createOAuthFake(): { handler: FakeHandler; state: OAuthFakeState } {
  const valid = new Set<string>();
  return {
    handler: () => null,
    state: {
      isValidAccessToken: (token) => token !== null && valid.has(token),
      issueTokens: () => {
        const accessToken = `ya29.fake-${randomBytes(12).toString('hex')}`;
        valid.add(accessToken);
        return { accessToken, refreshToken: `1//fake-${randomBytes(16).toString('hex')}` };
      },
    },
  };
}
