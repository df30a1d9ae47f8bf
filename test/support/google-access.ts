import { OAuth2Client } from 'google-auth-library';
import type { GoogleAccess } from '../../electron/connections/access';
import type { FakeGoogle } from '../fakes/google/server';

export const FAKE_CLIENT = {
  clientId: 'deputy-test.apps.googleusercontent.com',
  clientSecret: 'GOCSPX-test-secret-0001',
};

/** A signed-in GoogleAccess against the fake, as if the user had connected: for tool tests that skip the sign-in. */
export function signedInGoogle(fake: FakeGoogle): GoogleAccess & { client: OAuth2Client } {
  const { accessToken, refreshToken } = fake.oauth.issueTokens();
  const client = new OAuth2Client({
    ...FAKE_CLIENT,
    endpoints: {
      oauth2TokenUrl: `${fake.url}/token`,
      oauth2RevokeUrl: `${fake.url}/revoke`,
      oauth2AuthBaseUrl: `${fake.url}/o/oauth2/v2/auth`,
    },
  });
  client.setCredentials({
    access_token: accessToken,
    refresh_token: refreshToken,
    expiry_date: Date.now() + 3_600_000,
  });
  return { client, authClient: () => Promise.resolve(client), apiRoot: fake.env.DEPUTY_GOOGLE_API_ROOT };
}
