import { OAuth2Client, type Credentials } from 'google-auth-library';
import { z } from 'zod';
import type { Env } from '../host/settings';
import { redactSecrets } from '../vault/redactor';

/**
 * The scopes Deputy asks for: the least that its Google tools need. One list, so the consent screen, the
 * status and this comment cannot drift apart.
 */
export const GOOGLE_SCOPES = [
  // gmail_thread_read and mail search: read messages and threads, never change them.
  'https://www.googleapis.com/auth/gmail.readonly',
  // gmail_draft_create and gmail_send: create drafts and send. gmail.compose already authorises
  // messages.send and drafts.send, so gmail.send is not asked for as well: it would add a consent line
  // and no capability.
  'https://www.googleapis.com/auth/gmail.compose',
  // calendar_event_create, calendar_event_update, calendar_search: read and write events, not calendars'
  // settings or sharing.
  'https://www.googleapis.com/auth/calendar.events',
  // Free/busy look-ups when proposing times: availability only, no event details.
  'https://www.googleapis.com/auth/calendar.freebusy',
  // The account's address for Settings → Connections (read from the userinfo endpoint).
  'openid',
  'email',
] as const;

export interface GoogleEndpoints {
  authorize: string;
  token: string;
  revoke: string;
  userinfo: string;
}

/** Google's own endpoints, or DEPUTY_GOOGLE_OAUTH_BASE's (a local fake) with the same paths. */
export function googleEndpoints(env: Env): GoogleEndpoints {
  const base = env.DEPUTY_GOOGLE_OAUTH_BASE?.trim().replace(/\/+$/, '');
  if (!base)
    return {
      authorize: 'https://accounts.google.com/o/oauth2/v2/auth',
      token: 'https://oauth2.googleapis.com/token',
      revoke: 'https://oauth2.googleapis.com/revoke',
      userinfo: 'https://www.googleapis.com/oauth2/v3/userinfo',
    };
  return {
    authorize: `${base}/o/oauth2/v2/auth`,
    token: `${base}/token`,
    revoke: `${base}/revoke`,
    userinfo: `${base}/oauth2/v3/userinfo`,
  };
}

/** The user's own OAuth client (Desktop app type). Its "secret" is not secret for installed apps, but Google requires it. */
export const GoogleClient = z.object({ clientId: z.string().min(1), clientSecret: z.string().optional() });
export type GoogleClient = z.infer<typeof GoogleClient>;

/** What the vault keeps under 'google.tokens'. `account` is not a secret; it is kept so status survives a restart. */
export const GoogleTokens = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expiry_date: z.number().nullable(),
  scope: z.string(),
  account: z.string().nullable(),
});
export type GoogleTokens = z.infer<typeof GoogleTokens>;

export const parseWith =
  <T>(schema: z.ZodType<T>) =>
  (value: unknown): T | null => {
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : null;
  };

export function newOAuthClient(client: GoogleClient, endpoints: GoogleEndpoints): OAuth2Client {
  return new OAuth2Client({
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    endpoints: {
      oauth2AuthBaseUrl: endpoints.authorize,
      oauth2TokenUrl: endpoints.token,
      oauth2RevokeUrl: endpoints.revoke,
    },
  });
}

/**
 * The signed-in client the tools use. Two things differ from a plain OAuth2Client:
 * - `forceRefreshOnFailure`: the library only refreshes on a 401 when it has no expiry date; a token can be
 *   revoked or expire early at Google while its expiry date still lies ahead, and one refresh then fixes it.
 * - a refresh refused with invalid_grant (the user revoked access, or the grant lapsed) is reported once
 *   through `onRevoked` and thrown as the error the caller gives, so the tool answers "not connected"
 *   instead of a raw token-endpoint failure.
 */
export class SignedInClient extends OAuth2Client {
  constructor(
    client: GoogleClient,
    endpoints: GoogleEndpoints,
    private readonly onRevoked: () => Error,
  ) {
    super({
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      forceRefreshOnFailure: true,
      endpoints: { oauth2TokenUrl: endpoints.token, oauth2RevokeUrl: endpoints.revoke },
    });
  }

  protected override async refreshTokenNoCache(refreshToken?: string | null) {
    try {
      return await super.refreshTokenNoCache(refreshToken);
    } catch (error) {
      if (oauthErrorCode(error) === 'invalid_grant') throw this.onRevoked();
      throw error;
    }
  }
}

/** The `error` field of an OAuth error answer (invalid_grant, invalid_client…), if there was one. */
export function oauthErrorCode(error: unknown): string | null {
  const data = responseData(error);
  return typeof data?.error === 'string' ? data.error : null;
}

/** A token-endpoint failure in words, redacted: "invalid_grant: Invalid code verifier." or the network code. */
export function describeOAuthFailure(error: unknown): string {
  const data = responseData(error);
  if (typeof data?.error === 'string') {
    const description = typeof data.error_description === 'string' ? `: ${data.error_description}` : '';
    return redactSecrets(`${data.error}${description}`).slice(0, 300);
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return `could not reach Google (${code})`;
  return 'unexpected answer from Google';
}

function responseData(error: unknown): Record<string, unknown> | null {
  const data = (error as { response?: { data?: unknown } } | null)?.response?.data;
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : null;
}

/** The stored form of a fresh token answer; null when Google left out what Deputy cannot work without. */
export function toStoredTokens(credentials: Credentials, account: string | null): GoogleTokens | null {
  if (!credentials.access_token || !credentials.refresh_token) return null;
  return {
    access_token: credentials.access_token,
    refresh_token: credentials.refresh_token,
    expiry_date: credentials.expiry_date ?? null,
    scope: credentials.scope ?? GOOGLE_SCOPES.join(' '),
    account,
  };
}
