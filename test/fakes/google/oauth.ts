import type { FakeHandler } from '../http-kit';

/** Placeholder: the Google sign-in work replaces this with authorize, token (PKCE) and revoke endpoints. */
export interface OAuthFakeState {
  isValidAccessToken(token: string | null): boolean;
}

export function createOAuthFake(): { handler: FakeHandler; state: OAuthFakeState } {
  return { handler: () => null, state: { isValidAccessToken: (token) => token !== null } };
}
