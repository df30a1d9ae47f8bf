import { createHash, randomBytes } from 'node:crypto';
import type { FakeHandler, FakeRequest, FakeResponse } from '../http-kit';

/** The OAuth client the fake knows by default: a Desktop-app client, as the user would create one. */
export const FAKE_OAUTH_CLIENT = {
  clientId: 'deputy-test.apps.googleusercontent.com',
  clientSecret: 'GOCSPX-test-secret-0001',
};

/** Everything the user consented to; what a token exchange or refresh hands out, until revoked. */
interface Grant {
  clientId: string;
  refreshToken: string;
  scope: string;
  isRevoked: boolean;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  isUsed: boolean;
}

/** One visit to the consent page, as the fake saw it. */
export interface Authorization {
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string | null;
  codeChallenge: string;
  accessType: string | null;
  prompt: string | null;
}

export interface OAuthFakeState {
  /** Known OAuth clients: id → secret. */
  clients: Map<string, string>;
  /** The signed-in user's address, as userinfo reports it. */
  accountEmail: string;
  /** What the user does on the next consent page: allow (the default) or deny. Reset to allow after a deny. */
  nextConsent: 'allow' | 'deny';
  /** `expires_in` of the access tokens issued from now on. */
  accessTokenLifetimeSeconds: number;
  /** Consent page visits, oldest first. */
  authorizations: Authorization[];
  /** How many refresh_token grants succeeded. */
  refreshCount: number;
  /** Tokens that were revoked through /revoke, in order. */
  revokedTokens: string[];
  isValidAccessToken(token: string | null): boolean;
  /** Tokens that are valid at once, for tests that start already signed in. */
  issueTokens(): { accessToken: string; refreshToken: string };
  /** Every access token issued so far stops working (as if an hour had passed); refresh tokens still do. */
  expireAccessTokens(): void;
  /** Revokes a grant by its refresh token, as the user removing the app from their Google account does. */
  revokeRefreshToken(refreshToken: string): void;
}

const OAUTH_ERROR = (status: number, error: string, description: string): FakeResponse => ({
  status,
  json: { error, error_description: description },
});

/**
 * Google's OAuth 2.0 for installed apps, stateful in memory: the consent page (answering at once with the
 * redirect, so a test "opens the browser" by fetching the auth URL), the token endpoint with PKCE, refresh
 * and revocation, and userinfo. Tokens look like Google's (ya29.…, 1//…) so the redactor's patterns are hit.
 */
export function createOAuthFake(): { handler: FakeHandler; state: OAuthFakeState } {
  const grants = new Map<string, Grant>();
  const accessTokens = new Map<string, { grant: Grant; expiresAt: number }>();
  const codes = new Map<string, PendingCode>();

  const state: OAuthFakeState = {
    clients: new Map([[FAKE_OAUTH_CLIENT.clientId, FAKE_OAUTH_CLIENT.clientSecret]]),
    accountEmail: 'ada@example.com',
    nextConsent: 'allow',
    accessTokenLifetimeSeconds: 3599,
    authorizations: [],
    refreshCount: 0,
    revokedTokens: [],
    isValidAccessToken: (token) => {
      const issued = token === null ? undefined : accessTokens.get(token);
      return issued !== undefined && !issued.grant.isRevoked && issued.expiresAt > Date.now();
    },
    issueTokens: () => {
      const grant = newGrant(FAKE_OAUTH_CLIENT.clientId, 'openid email');
      return { accessToken: issueAccessToken(grant), refreshToken: grant.refreshToken };
    },
    expireAccessTokens: () => {
      for (const issued of accessTokens.values()) issued.expiresAt = 0;
    },
    revokeRefreshToken: (refreshToken) => {
      const grant = grants.get(refreshToken);
      if (grant) grant.isRevoked = true;
    },
  };

  function newGrant(clientId: string, scope: string): Grant {
    const grant = { clientId, scope, refreshToken: `1//0${token(48)}`, isRevoked: false };
    grants.set(grant.refreshToken, grant);
    return grant;
  }

  function issueAccessToken(grant: Grant): string {
    const accessToken = `ya29.a0${token(60)}`;
    accessTokens.set(accessToken, { grant, expiresAt: Date.now() + state.accessTokenLifetimeSeconds * 1000 });
    return accessToken;
  }

  function authorize(request: FakeRequest): FakeResponse {
    const query = request.query;
    const clientId = query.get('client_id') ?? '';
    if (!state.clients.has(clientId))
      return page(401, 'Error 401: invalid_client. The OAuth client was not found.');
    const redirectUri = query.get('redirect_uri') ?? '';
    if (!isLoopback(redirectUri)) return page(400, 'Error 400: redirect_uri_mismatch');
    if (query.get('response_type') !== 'code') return page(400, 'Error 400: unsupported_response_type');
    const challenge = query.get('code_challenge') ?? '';
    if (query.get('code_challenge_method') !== 'S256' || !/^[\w-]{43}$/.test(challenge))
      return page(400, 'Error 400: invalid_request. Desktop clients must use PKCE with S256.');
    const scope = query.get('scope') ?? '';
    if (!scope.trim()) return page(400, 'Error 400: invalid_request. Missing required parameter: scope');
    const consentState = query.get('state');
    state.authorizations.push({
      clientId,
      redirectUri,
      scope,
      state: consentState,
      codeChallenge: challenge,
      accessType: query.get('access_type'),
      prompt: query.get('prompt'),
    });

    const target = new URL(redirectUri);
    if (state.nextConsent === 'deny') {
      state.nextConsent = 'allow';
      target.searchParams.set('error', 'access_denied');
    } else {
      const code = `4/0A${token(40)}`;
      codes.set(code, { clientId, redirectUri, challenge, scope, isUsed: false });
      target.searchParams.set('code', code);
      target.searchParams.set('scope', scope);
    }
    if (consentState !== null) target.searchParams.set('state', consentState);
    return { status: 302, headers: { location: target.toString() } };
  }

  function exchangeCode(form: URLSearchParams, clientId: string): FakeResponse {
    const pending = codes.get(form.get('code') ?? '');
    if (!pending || pending.isUsed || pending.clientId !== clientId)
      return OAUTH_ERROR(400, 'invalid_grant', 'Malformed auth code.');
    pending.isUsed = true;
    if (form.get('redirect_uri') !== pending.redirectUri)
      return OAUTH_ERROR(400, 'redirect_uri_mismatch', 'Bad Request');
    const verifier = form.get('code_verifier');
    if (!verifier) return OAUTH_ERROR(400, 'invalid_grant', 'Missing code verifier.');
    if (createHash('sha256').update(verifier).digest('base64url') !== pending.challenge)
      return OAUTH_ERROR(400, 'invalid_grant', 'Invalid code verifier.');
    const grant = newGrant(clientId, pending.scope);
    return {
      status: 200,
      json: {
        access_token: issueAccessToken(grant),
        expires_in: state.accessTokenLifetimeSeconds,
        refresh_token: grant.refreshToken,
        scope: grant.scope,
        token_type: 'Bearer',
      },
    };
  }

  function refresh(form: URLSearchParams, clientId: string): FakeResponse {
    const grant = grants.get(form.get('refresh_token') ?? '');
    if (!grant || grant.isRevoked || grant.clientId !== clientId)
      return OAUTH_ERROR(400, 'invalid_grant', 'Token has been expired or revoked.');
    state.refreshCount += 1;
    // As Google does, a refresh answer carries no new refresh token.
    return {
      status: 200,
      json: {
        access_token: issueAccessToken(grant),
        expires_in: state.accessTokenLifetimeSeconds,
        scope: grant.scope,
        token_type: 'Bearer',
      },
    };
  }

  function tokenEndpoint(request: FakeRequest): FakeResponse {
    const form = request.form;
    const clientId = form.get('client_id') ?? '';
    const secret = state.clients.get(clientId);
    if (secret === undefined || form.get('client_secret') !== secret)
      return OAUTH_ERROR(401, 'invalid_client', 'The OAuth client was not found.');
    switch (form.get('grant_type')) {
      case 'authorization_code':
        return exchangeCode(form, clientId);
      case 'refresh_token':
        return refresh(form, clientId);
      default:
        return OAUTH_ERROR(400, 'unsupported_grant_type', 'Invalid grant_type.');
    }
  }

  function revoke(request: FakeRequest): FakeResponse {
    const revoked = request.form.get('token') ?? request.query.get('token') ?? '';
    // Revoking either token of a grant ends the whole grant, as at Google.
    const grant = grants.get(revoked) ?? accessTokens.get(revoked)?.grant;
    if (!grant || grant.isRevoked) return OAUTH_ERROR(400, 'invalid_token', 'Token expired or revoked');
    grant.isRevoked = true;
    state.revokedTokens.push(revoked);
    return { status: 200, json: {} };
  }

  function userinfo(request: FakeRequest): FakeResponse {
    if (!state.isValidAccessToken(request.accessToken))
      return OAUTH_ERROR(401, 'invalid_request', 'Invalid Credentials');
    return {
      status: 200,
      json: { sub: '110248495921238986420', email: state.accountEmail, email_verified: true },
    };
  }

  const handler: FakeHandler = (request) => {
    const route = `${request.method} ${request.path}`;
    if (route === 'GET /o/oauth2/v2/auth') return authorize(request);
    if (route === 'POST /token') return tokenEndpoint(request);
    if (route === 'POST /revoke') return revoke(request);
    if (route === 'GET /oauth2/v3/userinfo') return userinfo(request);
    return null;
  };
  return { handler, state };
}

function token(length: number): string {
  return randomBytes(length).toString('base64url').slice(0, length);
}

/** Google accepts only loopback redirects (any port) for Desktop-app clients. */
function isLoopback(redirectUri: string): boolean {
  try {
    const url = new URL(redirectUri);
    return url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  } catch {
    return false;
  }
}

function page(status: number, text: string): FakeResponse {
  return { status, text, headers: { 'content-type': 'text/plain; charset=utf-8' } };
}
