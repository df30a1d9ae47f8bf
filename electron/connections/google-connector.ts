import { CodeChallengeMethod, type Credentials, type OAuth2Client } from 'google-auth-library';
import type {
  ConnectionStatus,
  ConnectionsConnectInput,
  ConnectionsConnectOutput,
} from '../../shared/contract';
import { DeputyError } from '../../shared/contract/errors';
import type { Env } from '../host/settings';
import { redactError, rememberSecret } from '../vault/redactor';
import type { Vault } from '../vault/vault';
import { notConnected, type GoogleAccess } from './access';
import { emptyStatus, type Connector } from './connections-service';
import {
  GOOGLE_SCOPES,
  GoogleClient,
  googleEndpoints,
  GoogleTokens,
  newOAuthClient,
  parseWith,
  SignedInClient,
  toStoredTokens,
  type GoogleEndpoints,
} from './google-oauth';
import {
  describeSignInFailure,
  fetchAccount,
  REQUEST_TIMEOUT_MS,
  SignInError,
  withTimeout,
} from './google-sign-in';
import { startLoopbackRedirect, type LoopbackRedirect } from './loopback';
import { duration } from '../../shared/duration-words';
import { createPkcePair, randomState } from './pkce';

export interface GoogleConnectorDeps {
  vault: Vault;
  env: Env;
  /** Called on every status change (ConnectionsService.changed). */
  changed: () => void;
  /** Opens the consent page in the user's browser (Electron's shell.openExternal); without it the caller opens `authUrl`. */
  openExternal?: (url: string) => void | Promise<void>;
  /** Receives already-redacted descriptions only. */
  logError?: (message: string, error: unknown) => void;
  /** How long the browser sign-in may take; 5 minutes unless told. */
  timeoutMs?: number;
  /** How long Google's token endpoint may take to redeem the code; 30 seconds unless told. */
  tokenTimeoutMs?: number;
}

const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;

const NO_CLIENT = [
  'Google needs an OAuth client of your own before it can connect.',
  'In Google Cloud Console → APIs & Services: enable the Gmail API and the Google Calendar API, then under',
  'Credentials create an OAuth client ID of type "Desktop app".',
  'Paste its client ID and secret in Settings → Connections, or set DEPUTY_GOOGLE_CLIENT_ID and',
  'DEPUTY_GOOGLE_CLIENT_SECRET.',
].join(' ');
const REVOKED = 'Google sign-in has expired or was revoked; reconnect Google to continue.';
const REVOKE_FAILED =
  'Deputy forgot its Google sign-in, but could not reach Google to revoke it. To be sure, remove Deputy at https://myaccount.google.com/permissions.';

interface SignIn {
  loopback: LoopbackRedirect;
  authUrl: string;
  /** Saved only together with the tokens it obtains: see finishSignIn. */
  client: GoogleClient;
}

/** Shown in the status until the next connect: a failed sign-in, a lapsed grant, a revoke that did not reach Google. */
interface Problem {
  state: 'error' | 'disconnected';
  message: string;
}

/**
 * Google through OAuth 2.0 for installed apps: PKCE, a loopback redirect, tokens in the vault. It is both the
 * connector Settings drives and the GoogleAccess the Gmail and Calendar tools draw their client from.
 */
export class GoogleConnector implements Connector<'google'>, GoogleAccess {
  readonly name = 'google' as const;
  readonly apiRoot: string | undefined;
  private readonly endpoints: GoogleEndpoints;
  private readonly timeoutMs: number;
  private readonly tokenTimeoutMs: number;
  private signIn: SignIn | null = null;
  private problem: Problem | null = null;
  /** One client per stored sign-in, so concurrent tool calls share a single refresh. */
  private signedIn: SignedInClient | null = null;

  constructor(private readonly deps: GoogleConnectorDeps) {
    this.endpoints = googleEndpoints(deps.env);
    this.apiRoot = deps.env.DEPUTY_GOOGLE_API_ROOT?.trim() || undefined;
    this.timeoutMs = deps.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS;
    this.tokenTimeoutMs = deps.tokenTimeoutMs ?? REQUEST_TIMEOUT_MS;
  }

  status(): ConnectionStatus {
    const base = emptyStatus('google', this.client() !== null);
    if (this.signIn) return { ...base, state: 'connecting', authUrl: this.signIn.authUrl };
    const tokens = this.tokens();
    if (tokens)
      return {
        ...base,
        state: 'connected',
        account: tokens.account,
        scopes: tokens.scope.split(' ').filter(Boolean),
        expiresAt: tokens.expiry_date === null ? null : new Date(tokens.expiry_date).toISOString(),
        // A failed reconnect leaves the earlier sign-in working; the status still says what went wrong.
        error: this.problem?.message ?? null,
      };
    if (this.problem) return { ...base, state: this.problem.state, error: this.problem.message };
    return { ...base, error: this.deps.vault.unavailableReason() };
  }

  /** Saved tokens work until Google refuses them (which deletes them), a reconnect in progress or not. */
  isUsable(): boolean {
    return this.tokens() !== null;
  }

  /** Starts the browser sign-in and returns at once with the page to open; the status follows the redirect. */
  async connect(
    input: Extract<ConnectionsConnectInput, { name: 'google' }>,
  ): Promise<ConnectionsConnectOutput> {
    const unavailable = this.deps.vault.unavailableReason();
    // No sign-in when its tokens could not be stored encrypted.
    if (unavailable)
      throw new DeputyError('secrets_unavailable', `Google cannot be connected: ${unavailable}`);
    const client = this.clientFor(input);
    const state = randomState();
    const pkce = createPkcePair();
    const loopback = await startLoopbackRedirect({ state, timeoutMs: this.timeoutMs });
    // After the await, so two connects in a row leave exactly one listener: the newest.
    this.cancelSignIn();
    const oauth = newOAuthClient(client, this.endpoints);
    const authUrl = oauth.generateAuthUrl({
      access_type: 'offline',
      // Always show consent, so Google always returns a refresh token, even for an account that consented before.
      prompt: 'consent',
      scope: [...GOOGLE_SCOPES],
      state,
      code_challenge_method: CodeChallengeMethod.S256,
      code_challenge: pkce.challenge,
      redirect_uri: loopback.redirectUri,
    });
    const signIn = { loopback, authUrl, client };
    this.signIn = signIn;
    this.problem = null;
    this.finishSignIn(signIn, oauth, pkce.verifier).catch((error: unknown) =>
      this.deps.logError?.('finishing the Google sign-in failed', redactError(error)),
    );
    this.deps.changed();
    if (this.deps.openExternal) this.open(this.deps.openExternal, authUrl);
    return { status: this.status(), authUrl };
  }

  /** Forgets the sign-in at once, then revokes it at Google (best effort: see REVOKE_FAILED). */
  async disconnect(): Promise<ConnectionStatus> {
    this.cancelSignIn();
    const tokens = this.tokens();
    // Deleted before the revoke call, so no tool call can pick the tokens up while it is under way.
    this.signedIn = null;
    this.deps.vault.delete('google.tokens');
    this.problem = tokens ? await this.revoke(tokens.refresh_token) : null;
    this.deps.changed();
    return this.status();
  }

  close(): void {
    this.cancelSignIn();
  }

  async authClient(): Promise<OAuth2Client> {
    if (this.signedIn) return this.signedIn;
    const tokens = this.tokens();
    // The saved client, never a pending sign-in's: the saved tokens were issued to it.
    const client = this.savedClient();
    if (!tokens || !client) throw notConnected('google');
    const signedIn: SignedInClient = new SignedInClient(client, this.endpoints, () => this.lapsed(signedIn));
    signedIn.setCredentials({
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token,
      expiry_date: tokens.expiry_date,
      scope: tokens.scope,
    });
    signedIn.on('tokens', (fresh: Credentials) => this.saveRefreshed(signedIn, fresh));
    this.signedIn = signedIn;
    return signedIn;
  }

  private async finishSignIn(signIn: SignIn, oauth: OAuth2Client, codeVerifier: string): Promise<void> {
    try {
      const code = await signIn.loopback.code;
      // Bounded: a token endpoint that never answers would otherwise leave the status `connecting` forever.
      const { tokens: credentials } = await withTimeout(
        oauth.getToken({ code, codeVerifier, redirect_uri: signIn.loopback.redirectUri }),
        this.tokenTimeoutMs,
        () =>
          new SignInError(
            `Google did not finish the sign-in within ${duration(this.tokenTimeoutMs)}. Connect again to retry.`,
          ),
      );
      const account = await fetchAccount(this.endpoints.userinfo, credentials.access_token);
      if (this.signIn !== signIn) return;
      const tokens = toStoredTokens(credentials, account);
      if (!tokens)
        throw new SignInError(
          'Google did not grant offline access (no refresh token came back). Connect again.',
        );
      // The client is saved only now, with the tokens it obtained: a sign-in that fails or is cancelled leaves
      // the earlier client and its tokens paired as they were.
      if (!isSameClient(signIn.client, this.savedClient()))
        this.deps.vault.setJson('google.client', signIn.client);
      this.deps.vault.setJson('google.tokens', tokens);
      this.signedIn = null;
      this.problem = null;
    } catch (error) {
      // A sign-in that was cancelled or replaced by a newer one has nothing to report.
      if (this.signIn !== signIn) return;
      this.problem = {
        state: 'error',
        message: describeSignInFailure(error, this.timeoutMs, this.deps.logError),
      };
    } finally {
      if (this.signIn === signIn) {
        this.signIn = null;
        this.deps.changed();
      }
    }
  }

  /** A refresh answer has no refresh token: the stored one is kept. */
  private saveRefreshed(client: SignedInClient, fresh: Credentials): void {
    // Disconnected or reconnected meanwhile: a late refresh must not bring old tokens back.
    if (this.signedIn !== client || !fresh.access_token) return;
    const stored = this.tokens();
    if (!stored) return;
    try {
      this.deps.vault.setJson('google.tokens', {
        ...stored,
        access_token: fresh.access_token,
        refresh_token: fresh.refresh_token ?? stored.refresh_token,
        expiry_date: fresh.expiry_date ?? null,
        scope: fresh.scope ?? stored.scope,
      } satisfies GoogleTokens);
    } catch (error) {
      // The client keeps the new token in memory; only the next start would refresh again.
      this.deps.logError?.('saving the refreshed Google token failed', redactError(error));
      return;
    }
    this.deps.changed();
  }

  /** Google refused the refresh token (invalid_grant): the sign-in is gone and only reconnecting helps. */
  private lapsed(client: SignedInClient): Error {
    if (this.signedIn === client) {
      this.signedIn = null;
      this.deps.vault.delete('google.tokens');
      this.problem = { state: 'error', message: REVOKED };
      this.deps.changed();
    }
    return notConnected('google', 'Google sign-in has expired or was revoked.');
  }

  private async revoke(refreshToken: string): Promise<Problem | null> {
    try {
      // In the form body, not the query string the library would use: URLs end up in logs.
      const response = await fetch(this.endpoints.revoke, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: refreshToken }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      // 400 is invalid_token: already revoked or expired at Google, which is what disconnecting wants.
      if (response.ok || response.status === 400) return null;
      this.deps.logError?.('revoking the Google sign-in failed', `HTTP ${response.status}`);
    } catch (error) {
      this.deps.logError?.('revoking the Google sign-in failed', redactError(error));
    }
    return { state: 'disconnected', message: REVOKE_FAILED };
  }

  /**
   * The client given to connect (saved only once its sign-in succeeds), else the one in use: a pending
   * sign-in's, the stored one, or the environment's.
   */
  private clientFor(input: Extract<ConnectionsConnectInput, { name: 'google' }>): GoogleClient {
    if (input.clientId) {
      // The same client id again without its secret keeps the known secret rather than erasing it.
      const known = this.client();
      const secret =
        input.clientSecret ?? (known?.clientId === input.clientId ? known.clientSecret : undefined);
      // Not in the vault yet, but it must be redacted from whatever the sign-in logs.
      rememberSecret(secret);
      return { clientId: input.clientId, clientSecret: secret };
    }
    if (input.clientSecret)
      throw new DeputyError('invalid_input', 'A Google client secret needs its client ID: give both.');
    const client = this.client();
    if (!client) throw new DeputyError('invalid_input', NO_CLIENT);
    return client;
  }

  /** The client in use: a pending sign-in's (so Settings does not ask for it again meanwhile), else the saved one. */
  private client(): GoogleClient | null {
    return this.signIn?.client ?? this.savedClient();
  }

  private savedClient(): GoogleClient | null {
    const stored = this.deps.vault.getJson('google.client', parseWith(GoogleClient));
    if (stored) return stored;
    const clientId = this.deps.env.DEPUTY_GOOGLE_CLIENT_ID?.trim();
    if (!clientId) return null;
    return { clientId, clientSecret: this.deps.env.DEPUTY_GOOGLE_CLIENT_SECRET?.trim() || undefined };
  }

  private tokens(): GoogleTokens | null {
    return this.deps.vault.getJson('google.tokens', parseWith(GoogleTokens));
  }

  private cancelSignIn(): void {
    const signIn = this.signIn;
    this.signIn = null;
    signIn?.loopback.close();
  }

  private open(openExternal: (url: string) => void | Promise<void>, url: string): void {
    // The authUrl is also returned, so a browser that does not open is not fatal: Settings shows the link.
    Promise.resolve()
      .then(() => openExternal(url))
      .catch((error: unknown) => this.deps.logError?.('opening the browser failed', redactError(error)));
  }
}

function isSameClient(a: GoogleClient, b: GoogleClient | null): boolean {
  return a.clientId === b?.clientId && a.clientSecret === b.clientSecret;
}
