import { WebClient } from '@slack/web-api';
import type {
  ConnectionStatus,
  ConnectionsConnectInput,
  ConnectionsConnectOutput,
} from '../../shared/contract';
import { DeputyError } from '../../shared/contract/errors';
import type { Env } from '../host/settings';
import {
  isRateLimited,
  isRejectedSignIn,
  safeSlackCode,
  slackErrorCode,
  slackHttpStatus,
} from '../tools/slack/slack-errors';
import { redactError } from '../vault/redactor';
import type { Vault } from '../vault/vault';
import { notConnected, type SlackAccess } from './access';
import { emptyStatus, type Connector } from './connections-service';
import { LoopbackError, startLoopbackRedirect, type LoopbackRedirect } from './loopback';
import { randomState } from './pkce';
import { slackClientOptions, WatchedWebClient } from './slack-client';
import { parseApp, parseSignIn, type SlackApp, type SlackSignIn } from './slack-credentials';
import { cleanPaste, unsendableAt, unsendableWords } from './pasted-secret';

/**
 * The least the tools need: list and read public and private channels and the person's direct messages (for
 * the contacts index and context), name people, post as the user.
 */
export const SLACK_USER_SCOPES = [
  'channels:read',
  'channels:history',
  'groups:read',
  'groups:history',
  'im:read',
  'im:history',
  'users:read',
  'chat:write',
] as const;

const DEFAULT_API_URL = 'https://slack.com/api/';
const DEFAULT_OAUTH_BASE = 'https://slack.com';
const SIGN_IN_TIMEOUT_MS = 5 * 60_000;
const LAPSED = 'Slack sign-in is no longer valid; reconnect Slack in Settings → Connections.';

export interface SlackConnectorDeps {
  vault: Vault;
  env: Env;
  changed: () => void;
  /** Opens the sign-in page in the user's browser (the shell's shell.openExternal). */
  openExternal?: (url: string) => void;
  logError?: (message: string, error: unknown) => void;
  /** How long a browser sign-in may take. */
  timeoutMs?: number;
}

interface PendingSignIn {
  authUrl: string;
  loopback: LoopbackRedirect;
}

/**
 * Slack for one user: a pasted user token (checked with auth.test before it is kept) or OAuth v2 in the
 * browser. Tools get a WebClient carrying the token; a token Slack refuses turns the connection to `error`.
 */
export class SlackConnector implements Connector<'slack'>, SlackAccess {
  readonly name = 'slack' as const;
  private readonly apiUrl: string;
  private readonly oauthBase: string;
  private pending: PendingSignIn | null = null;
  /** The saved token Slack has refused (revoked, deactivated account): only reconnecting helps. */
  private lapsedToken: string | null = null;
  /** Why the last browser sign-in failed, shown until the next connect or disconnect. */
  private signInError: string | null = null;
  private cached: { token: string; client: WebClient } | null = null;

  constructor(private readonly deps: SlackConnectorDeps) {
    this.apiUrl = deps.env.DEPUTY_SLACK_API_URL?.trim() || DEFAULT_API_URL;
    this.oauthBase = (deps.env.DEPUTY_SLACK_OAUTH_BASE?.trim() || DEFAULT_OAUTH_BASE).replace(/\/+$/, '');
  }

  status(): ConnectionStatus {
    const base = emptyStatus('slack', this.app() !== null);
    if (this.pending) return { ...base, state: 'connecting', authUrl: this.pending.authUrl };
    const signIn = this.signIn();
    if (signIn) {
      const hasLapsed = this.lapsedToken === signIn.token;
      return {
        ...base,
        state: hasLapsed ? 'error' : 'connected',
        account: `${signIn.user} @ ${signIn.team}`,
        scopes: signIn.scopes,
        error: hasLapsed ? LAPSED : this.signInError,
      };
    }
    if (this.signInError) return { ...base, state: 'error', error: this.signInError };
    return { ...base, error: this.deps.vault.unavailableReason() };
  }

  /** A saved token works until Slack refuses it, a browser sign-in in progress or not. */
  isUsable(): boolean {
    const signIn = this.signIn();
    return signIn !== null && this.lapsedToken !== signIn.token;
  }

  async connect(
    input: Extract<ConnectionsConnectInput, { name: 'slack' }>,
  ): Promise<ConnectionsConnectOutput> {
    const reason = this.deps.vault.unavailableReason();
    if (reason) throw new DeputyError('secrets_unavailable', `Slack cannot be connected: ${reason}`);
    if (input.token) {
      // A pasted token replaces a browser sign-in in progress.
      const token = cleanPaste(input.token);
      const badAt = unsendableAt(token);
      if (badAt !== null)
        throw new DeputyError(
          'invalid_input',
          unsendableWords('Slack token', badAt, 'your Slack app’s OAuth & Permissions page'),
        );
      this.cancelPending();
      const signIn = await this.verify(token);
      this.keep(signIn);
      return { status: this.status(), authUrl: null };
    }
    return this.startBrowserSignIn(input);
  }

  async disconnect(): Promise<ConnectionStatus> {
    this.cancelPending();
    const signIn = this.signIn();
    // A token Slack already refused cannot be revoked; asking would only log a second failure.
    if (signIn && this.lapsedToken !== signIn.token) {
      try {
        await this.newClient(signIn.token).auth.revoke();
      } catch (error) {
        // Best effort: the token is forgotten here either way; a revoke that failed leaves it valid at Slack
        // until the user removes the app there, which the log says.
        this.deps.logError?.('Slack: revoking the token on disconnect failed', redactError(error));
      }
    }
    this.deps.vault.delete('slack.token');
    this.cached = null;
    this.lapsedToken = null;
    this.signInError = null;
    this.deps.changed();
    return this.status();
  }

  close(): void {
    this.cancelPending();
  }

  async client(): Promise<WebClient> {
    const signIn = this.signIn();
    if (!signIn) throw notConnected('slack');
    if (this.lapsedToken === signIn.token) throw notConnected('slack', 'Slack sign-in is no longer valid.');
    if (this.cached?.token !== signIn.token) {
      const client = new WatchedWebClient(signIn.token, slackClientOptions(this.apiUrl), () =>
        this.lapse(signIn.token),
      );
      this.cached = { token: signIn.token, client };
    }
    return this.cached.client;
  }

  private newClient(token?: string): WebClient {
    return new WebClient(token, slackClientOptions(this.apiUrl));
  }

  private lapse(token: string): void {
    if (this.signIn()?.token !== token || this.lapsedToken === token) return;
    this.lapsedToken = token;
    this.deps.changed();
  }

  private signIn(): SlackSignIn | null {
    return this.deps.vault.getJson('slack.token', parseSignIn);
  }

  private app(): SlackApp | null {
    const stored = this.deps.vault.getJson('slack.client', parseApp);
    if (stored) return stored;
    const clientId = this.deps.env.DEPUTY_SLACK_CLIENT_ID?.trim();
    const clientSecret = this.deps.env.DEPUTY_SLACK_CLIENT_SECRET?.trim();
    return clientId && clientSecret ? { clientId, clientSecret } : null;
  }

  private keep(signIn: SlackSignIn): void {
    this.deps.vault.setJson('slack.token', signIn);
    this.cached = null;
    this.lapsedToken = null;
    this.signInError = null;
    this.deps.changed();
  }

  /** auth.test says whose token this is; a bot token is refused because the tools act as the user. */
  private async verify(token: string): Promise<SlackSignIn> {
    let result;
    try {
      result = await this.newClient(token).auth.test();
    } catch (error) {
      throw verifyError(error);
    }
    if (result.bot_id)
      throw new DeputyError('invalid_input', 'That is a Slack bot token; paste a user token (xoxp-…).');
    if (!result.user_id || !result.team_id)
      throw new DeputyError('service_unavailable', 'Slack did not say whose token this is; try again.');
    return {
      token,
      userId: result.user_id,
      user: result.user ?? result.user_id,
      teamId: result.team_id,
      team: result.team ?? result.team_id,
      scopes: result.response_metadata?.scopes ?? [],
    };
  }

  private async startBrowserSignIn(
    input: Extract<ConnectionsConnectInput, { name: 'slack' }>,
  ): Promise<ConnectionsConnectOutput> {
    if (input.clientId && input.clientSecret) {
      this.deps.vault.setJson('slack.client', { clientId: input.clientId, clientSecret: input.clientSecret });
    } else if (input.clientId || input.clientSecret) {
      throw new DeputyError('invalid_input', 'Give both the Slack app’s client id and its client secret.');
    }
    const app = this.app();
    if (!app)
      throw new DeputyError(
        'invalid_input',
        'Paste a Slack user token (xoxp-…), or give your Slack app’s client id and secret to sign in in the browser.',
      );
    // The state ties the redirect to this request: a redirect carrying any other state is refused (login CSRF).
    const state = randomState();
    const loopback = await startLoopbackRedirect({
      state,
      timeoutMs: this.deps.timeoutMs ?? SIGN_IN_TIMEOUT_MS,
    });
    // After the await, so two connects in a row leave exactly one listener: the newest.
    this.cancelPending();
    const url = new URL(`${this.oauthBase}/oauth/v2/authorize`);
    url.searchParams.set('client_id', app.clientId);
    url.searchParams.set('user_scope', SLACK_USER_SCOPES.join(','));
    url.searchParams.set('redirect_uri', loopback.redirectUri);
    url.searchParams.set('state', state);
    const pending: PendingSignIn = { authUrl: url.toString(), loopback };
    this.pending = pending;
    this.signInError = null;
    this.deps.changed();
    this.finishBrowserSignIn(pending, app).catch((error: unknown) =>
      this.deps.logError?.('Slack: finishing the browser sign-in failed', redactError(error)),
    );
    this.deps.openExternal?.(pending.authUrl);
    return { status: this.status(), authUrl: pending.authUrl };
  }

  private async finishBrowserSignIn(pending: PendingSignIn, app: SlackApp): Promise<void> {
    try {
      const code = await pending.loopback.code;
      const answer = await this.newClient().oauth.v2.access({
        client_id: app.clientId,
        client_secret: app.clientSecret,
        code,
        redirect_uri: pending.loopback.redirectUri,
      });
      const token = answer.authed_user?.access_token;
      if (!token)
        throw new DeputyError('service_unavailable', 'Slack’s sign-in answer carried no user token.');
      const signIn = await this.verify(token);
      if (this.pending !== pending) return;
      this.pending = null;
      this.keep(signIn);
    } catch (error) {
      // A sign-in that was cancelled or replaced by a newer one ends quietly.
      if (this.pending !== pending) return;
      this.pending = null;
      this.signInError = signInFailure(error);
      this.deps.logError?.('Slack: browser sign-in failed', redactError(error));
      this.deps.changed();
    } finally {
      pending.loopback.close();
    }
  }

  private cancelPending(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    pending.loopback.close();
    this.deps.changed();
  }
}

/** Why a pasted token (or the one a sign-in returned) could not be checked, without the token. */
function verifyError(error: unknown): DeputyError {
  const raw = slackErrorCode(error);
  const code = raw === null ? null : safeSlackCode(raw);
  if (isRejectedSignIn(error))
    return new DeputyError(
      'invalid_input',
      `Slack did not accept that token (${code}). Check it and paste it again.`,
    );
  if (isRateLimited(error))
    return new DeputyError('rate_limited', 'Slack is limiting requests; try connecting again in a minute.');
  if (code) return new DeputyError('invalid_input', `Slack refused the token check (${code}).`);
  // Slack was reached and failed on its side: the network is not the thing to check.
  const status = slackHttpStatus(error);
  if (status !== null)
    return new DeputyError(
      'service_unavailable',
      `Slack could not check the token just now (it answered HTTP ${status}); try again in a moment.`,
    );
  return new DeputyError(
    'service_unavailable',
    'Could not reach Slack to check the token; check the network and try again.',
  );
}

function signInFailure(error: unknown): string {
  if (error instanceof LoopbackError || error instanceof DeputyError) return error.message;
  const code = slackErrorCode(error);
  if (code)
    return `Slack refused the sign-in (${/^[\w.-]{1,64}$/.test(code) ? code : 'unknown error'}). Try again.`;
  const status = slackHttpStatus(error);
  if (status !== null)
    return `Slack could not finish the sign-in just now (it answered HTTP ${status}); try again in a moment.`;
  return 'The Slack sign-in did not complete; check the network and try again.';
}
