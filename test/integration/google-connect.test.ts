import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gmail } from '@googleapis/gmail';
import type { OAuth2Client } from 'google-auth-library';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeputyError } from '../../shared/contract/errors';
import type { ConnectionStatus } from '../../shared/contract';
import { GoogleConnector, type GoogleConnectorDeps } from '../../electron/connections/google-connector';
import { GOOGLE_SCOPES, GoogleTokens, parseWith } from '../../electron/connections/google-oauth';
import { pkceChallenge } from '../../electron/connections/pkce';
import { openDatabase, type Db } from '../../electron/store/database';
import { ToolError } from '../../electron/tools/tool';
import { createKeyFileCipher } from '../../electron/vault/cipher';
import { Vault } from '../../electron/vault/vault';
import { FAKE_OAUTH_CLIENT } from '../fakes/google/oauth';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';

let fake: FakeGoogle;
let dir: string;
let db: Db;
let vault: Vault;
let connector: GoogleConnector;
let changes: number;
let opened: string[];
let logged: unknown[];

beforeEach(async () => {
  fake = await startFakeGoogle();
  dir = mkdtempSync(join(tmpdir(), 'deputy-google-'));
  db = openDatabase(':memory:');
  vault = new Vault(db, createKeyFileCipher(join(dir, 'vault.key')));
  changes = 0;
  opened = [];
  logged = [];
  connector = makeConnector();
});

afterEach(async () => {
  connector.close();
  await fake.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const CLIENT_ENV = {
  DEPUTY_GOOGLE_CLIENT_ID: FAKE_OAUTH_CLIENT.clientId,
  DEPUTY_GOOGLE_CLIENT_SECRET: FAKE_OAUTH_CLIENT.clientSecret,
};

function makeConnector(deps: Partial<GoogleConnectorDeps> = {}): GoogleConnector {
  return new GoogleConnector({
    vault,
    env: { ...fake.env, ...CLIENT_ENV },
    changed: () => (changes += 1),
    openExternal: (url) => void opened.push(url),
    logError: (message, error) => logged.push(message, error),
    ...deps,
  });
}

const storedTokens = () => vault.getJson('google.tokens', parseWith(GoogleTokens));
const userinfoUrl = () => `${fake.url}/oauth2/v3/userinfo`;

async function waitForState(state: ConnectionStatus['state']): Promise<ConnectionStatus> {
  await vi.waitFor(() => expect(connector.status().state).toBe(state), { timeout: 3_000, interval: 10 });
  return connector.status();
}

/** "The user opens the page and consents": the fake answers the auth URL with the redirect, fetch follows it. */
async function signIn(): Promise<GoogleTokens> {
  const { authUrl } = await connector.connect({ name: 'google' });
  const page = await fetch(authUrl ?? '');
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('You can close this tab.');
  await waitForState('connected');
  const tokens = storedTokens();
  if (!tokens) throw new Error('no tokens stored');
  return tokens;
}

/** Everything in the status, as it would cross to the renderer. */
function expectNoSecretsIn(status: ConnectionStatus, secrets: readonly string[]): void {
  const text = JSON.stringify(status);
  for (const secret of secrets) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/ya29\.|1\/\/|GOCSPX-/);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('Google connect', () => {
  it('signs in through the browser with PKCE and keeps the tokens encrypted in the vault', async () => {
    const result = await connector.connect({ name: 'google' });
    // connect returns at once, before anyone has opened the page.
    expect(result.status.state).toBe('connecting');
    expect(result.authUrl).toBe(result.status.authUrl);
    expect(opened).toEqual([result.authUrl]);
    const url = new URL(result.authUrl ?? '');
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/o/oauth2/v2/auth`);
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('prompt')).toBe('consent');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')?.split(' ')).toEqual([...GOOGLE_SCOPES]);
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    await fetch(result.authUrl ?? '');
    const status = await waitForState('connected');
    expect(status).toMatchObject({
      account: 'ada@example.com',
      error: null,
      authUrl: null,
      isConfigured: true,
    });
    expect(status.scopes).toEqual([...GOOGLE_SCOPES]);
    const expiresIn = Date.parse(status.expiresAt ?? '') - Date.now();
    expect(expiresIn).toBeGreaterThan(3_500_000);
    expect(expiresIn).toBeLessThanOrEqual(3_600_000);
    expect(changes).toBeGreaterThanOrEqual(2);

    const tokens = storedTokens();
    expect(tokens?.access_token).toMatch(/^ya29\./);
    expect(tokens?.refresh_token).toMatch(/^1\/\//);
    expect(fake.oauth.isValidAccessToken(tokens?.access_token ?? null)).toBe(true);
    const rows = db
      .prepare<[], { name: string; ciphertext: Buffer }>('SELECT name, ciphertext FROM secrets')
      .all();
    expect(rows.map((row) => row.name)).toContain('google.tokens');
    const raw = Buffer.concat(rows.map((row) => row.ciphertext));
    for (const secret of [tokens?.access_token, tokens?.refresh_token, 'ada@example.com'])
      expect(raw.includes(secret ?? '')).toBe(false);
    expectNoSecretsIn(status, [tokens?.access_token ?? '', tokens?.refresh_token ?? '']);

    const client = await connector.authClient();
    const me = await client.request<{ email: string }>({ url: userinfoUrl() });
    expect(me.data.email).toBe('ada@example.com');
    expect(connector.apiRoot).toBe(fake.env.DEPUTY_GOOGLE_API_ROOT);

    // A restart: a new connector over the same vault is still signed in.
    const restarted = makeConnector();
    expect(restarted.status()).toMatchObject({ state: 'connected', account: 'ada@example.com' });
  });

  it('stores a client given to connect, encrypted, and uses it without any environment', async () => {
    connector = makeConnector({ env: fake.env });
    expect(connector.status().isConfigured).toBe(false);
    const { authUrl } = await connector.connect({ name: 'google', ...FAKE_OAUTH_CLIENT });
    expect(new URL(authUrl ?? '').searchParams.get('client_id')).toBe(FAKE_OAUTH_CLIENT.clientId);
    expect(connector.status().isConfigured).toBe(true);
    // Kept only once its sign-in has succeeded.
    expect(vault.has('google.client')).toBe(false);
    await fetch(authUrl ?? '');
    await waitForState('connected');
    expect(vault.getJson('google.client', (value) => value)).toEqual(FAKE_OAUTH_CLIENT);
    const raw = db
      .prepare<[], { ciphertext: Buffer }>("SELECT ciphertext FROM secrets WHERE name = 'google.client'")
      .get();
    expect(raw?.ciphertext.includes(FAKE_OAUTH_CLIENT.clientSecret)).toBe(false);
    expect(makeConnector({ env: fake.env }).status().isConfigured).toBe(true);
  });

  it('keeps the saved secret when the same client id comes again alone', async () => {
    connector = makeConnector({ env: fake.env });
    await connector.connect({ name: 'google', ...FAKE_OAUTH_CLIENT });
    const { authUrl } = await connector.connect({ name: 'google', clientId: FAKE_OAUTH_CLIENT.clientId });
    await fetch(authUrl ?? '');
    await waitForState('connected');
  });

  it('keeps the stored client and its tokens when a sign-in with another client fails', async () => {
    connector = makeConnector({ env: fake.env });
    const { authUrl: first } = await connector.connect({ name: 'google', ...FAKE_OAUTH_CLIENT });
    await fetch(first ?? '');
    await waitForState('connected');
    const before = storedTokens();

    const other = { clientId: 'other.apps.googleusercontent.com', clientSecret: 'GOCSPX-other-right' };
    fake.oauth.clients.set(other.clientId, other.clientSecret);
    const { authUrl } = await connector.connect({
      name: 'google',
      clientId: other.clientId,
      clientSecret: 'GOCSPX-other-wrong',
    });
    expect(new URL(authUrl ?? '').searchParams.get('client_id')).toBe(other.clientId);
    await fetch(authUrl ?? '');
    await vi.waitFor(() => expect(connector.status().error).toMatch(/invalid_client/), { timeout: 3_000 });
    expect(JSON.stringify(logged)).not.toContain('GOCSPX-other-wrong');

    expect(vault.getJson('google.client', (value) => value)).toEqual(FAKE_OAUTH_CLIENT);
    expect(storedTokens()).toEqual(before);
    // The earlier sign-in still works, with the client its tokens were issued to.
    fake.oauth.expireAccessTokens();
    const client = await connector.authClient();
    const me = await client.request<{ email: string }>({ url: userinfoUrl() });
    expect(me.data.email).toBe('ada@example.com');
    expect(fake.oauth.refreshCount).toBe(1);
  });

  it('explains how to create a Desktop-app client when there is none', async () => {
    connector = makeConnector({ env: fake.env });
    expect(connector.status()).toMatchObject({ state: 'disconnected', isConfigured: false });
    const error = await rejection(connector.connect({ name: 'google' }));
    expect(error).toBeInstanceOf(DeputyError);
    expect((error as DeputyError).code).toBe('invalid_input');
    expect((error as DeputyError).message).toMatch(/Desktop app/);
    expect((error as DeputyError).message).toMatch(/DEPUTY_GOOGLE_CLIENT_ID/);
    expect(connector.status().state).toBe('disconnected');
    expect(fake.requests).toHaveLength(0);
  });

  it('fails with invalid_grant when the code verifier does not match the challenge', async () => {
    const { authUrl } = await connector.connect({ name: 'google' });
    const tampered = new URL(authUrl ?? '');
    tampered.searchParams.set(
      'code_challenge',
      pkceChallenge('a-verifier-that-deputy-never-made-0123456789'),
    );
    await fetch(tampered);
    const status = await waitForState('error');
    expect(status.error).toMatch(
      /Google refused to finish the sign-in \(invalid_grant: Invalid code verifier\.\)/,
    );
    expect(storedTokens()).toBeNull();
    const exchange = fake.requests.find((request) => request.path === '/token');
    expect(exchange?.form.get('code_verifier')).toMatch(/^[\w-]{43}$/);
    expectNoSecretsIn(status, [exchange?.form.get('code') ?? '', exchange?.form.get('code_verifier') ?? '']);
  });

  it('refuses a redirect whose state is not the one it sent, never redeems its code, and keeps waiting', async () => {
    const { authUrl } = await connector.connect({ name: 'google' });
    const consent = await fetch(authUrl ?? '', { redirect: 'manual' });
    const redirect = new URL(consent.headers.get('location') ?? '');
    const forged = new URL(redirect);
    forged.searchParams.set('state', 'forged-state');
    const page = await fetch(forged);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('did not match the request Deputy made');
    // Any local web page could send that, so it must not cancel the sign-in.
    expect(connector.status()).toMatchObject({ state: 'connecting', authUrl, error: null });
    expect(fake.requests.some((request) => request.path === '/token')).toBe(false);
    expect(storedTokens()).toBeNull();

    await fetch(redirect);
    expect((await waitForState('connected')).error).toBeNull();
  });

  it('reports a denial in the browser', async () => {
    fake.oauth.nextConsent = 'deny';
    const { authUrl } = await connector.connect({ name: 'google' });
    const page = await fetch(authUrl ?? '');
    expect(await page.text()).toContain('Access was denied');
    const status = await waitForState('error');
    expect(status.error).toMatch(/access was denied in the browser/);
    expect(status.authUrl).toBeNull();
  });

  it('times out when the browser never comes back, and stops listening', async () => {
    connector = makeConnector({ timeoutMs: 80 });
    const { authUrl } = await connector.connect({ name: 'google' });
    const status = await waitForState('error');
    expect(status.error).toBe(
      'Google sign-in timed out: the browser did not come back within 1 second. Connect again to retry.',
    );
    await expect(fetch(authUrl ?? '')).rejects.toThrow();
  });

  it('ends in error when the token endpoint never answers', async () => {
    connector = makeConnector({ tokenTimeoutMs: 80 });
    fake.inject({ match: /^POST \/token$/, response: { status: 200, json: {}, delayMs: 10_000 } });
    const { authUrl } = await connector.connect({ name: 'google' });
    await fetch(authUrl ?? '');
    const status = await waitForState('error');
    expect(status.error).toBe('Google did not finish the sign-in within 1 second. Connect again to retry.');
    expect(storedTokens()).toBeNull();
  });

  it('a second connect cancels the first', async () => {
    const first = await connector.connect({ name: 'google' });
    const second = await connector.connect({ name: 'google' });
    expect(connector.status()).toMatchObject({ state: 'connecting', authUrl: second.authUrl });
    await expect(fetch(first.authUrl ?? '')).rejects.toThrow();
    expect(connector.status().state).toBe('connecting');
    await fetch(second.authUrl ?? '');
    expect((await waitForState('connected')).error).toBeNull();
  });

  it('refreshes once on a 401 when Google expired the token early, and keeps the new token', async () => {
    const before = await signIn();
    const client = await connector.authClient();
    const changesBefore = changes;
    fake.oauth.expireAccessTokens();

    const me = await client.request<{ email: string }>({ url: userinfoUrl() });
    expect(me.data.email).toBe('ada@example.com');
    expect(fake.oauth.refreshCount).toBe(1);
    const after = storedTokens();
    expect(after?.access_token).not.toBe(before.access_token);
    expect(fake.oauth.isValidAccessToken(after?.access_token ?? null)).toBe(true);
    expect(after?.refresh_token).toBe(before.refresh_token);
    expect(changes).toBeGreaterThan(changesBefore);
    expectNoSecretsIn(connector.status(), [
      before.access_token,
      after?.access_token ?? '',
      before.refresh_token,
    ]);
  });

  it('the real Gmail client refreshes through it once, on its own, when the token expired at Google', async () => {
    await signIn();
    const api = gmail({
      version: 'v1',
      auth: await connector.authClient(),
      rootUrl: connector.apiRoot,
      retry: false,
    });
    fake.oauth.expireAccessTokens();
    const profile = await api.users.getProfile({ userId: 'me' });
    expect(profile.status).toBe(200);
    expect(fake.oauth.refreshCount).toBe(1);
    const tokensSent = fake.requests
      .filter((request) => request.path === '/gmail/v1/users/me/profile')
      .map((request) => request.accessToken);
    expect(tokensSent).toHaveLength(2);
    expect(tokensSent[1]).toBe(storedTokens()?.access_token);
  });

  it('refreshes before calling when the stored token has expired (after a restart)', async () => {
    const before = await signIn();
    vault.setJson('google.tokens', { ...before, expiry_date: Date.now() - 1_000 } satisfies GoogleTokens);
    connector = makeConnector();
    const client = await connector.authClient();
    await client.request({ url: userinfoUrl() });
    expect(fake.oauth.refreshCount).toBe(1);
    const userinfoCalls = fake.requests.filter((request) => request.path === '/oauth2/v3/userinfo');
    // The sign-in's own look-up, then the call with the refreshed token; the expired one was never sent.
    expect(userinfoCalls.map((request) => request.accessToken)).toEqual([
      before.access_token,
      storedTokens()?.access_token,
    ]);
    expect(Date.parse(connector.status().expiresAt ?? '')).toBeGreaterThan(Date.now());
  });

  it('turns a revoked grant into not_connected for the tool and an error status', async () => {
    const tokens = await signIn();
    const client: OAuth2Client = await connector.authClient();
    fake.oauth.revokeRefreshToken(tokens.refresh_token);

    const error = await rejection(client.request({ url: userinfoUrl() }));
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('not_connected');
    expect((error as ToolError).message).toMatch(/expired or was revoked.*Settings → Connections/);
    expect(connector.status()).toMatchObject({
      state: 'error',
      account: null,
      error: 'Google sign-in has expired or was revoked; reconnect Google to continue.',
    });
    expect(storedTokens()).toBeNull();
    expect(((await rejection(connector.authClient())) as ToolError).code).toBe('not_connected');
  });

  it('disconnect revokes the grant at Google and forgets the tokens', async () => {
    const tokens = await signIn();
    await connector.authClient();
    const changesBefore = changes;
    const status = await connector.disconnect();
    expect(status).toMatchObject({ state: 'disconnected', account: null, error: null, isConfigured: true });
    expect(fake.oauth.revokedTokens).toEqual([tokens.refresh_token]);
    expect(fake.oauth.isValidAccessToken(tokens.access_token)).toBe(false);
    const revoke = fake.requests.find((request) => request.path === '/revoke');
    expect(revoke?.query.has('token')).toBe(false);
    expect(storedTokens()).toBeNull();
    expect(vault.has('google.tokens')).toBe(false);
    expect(changes).toBe(changesBefore + 1);
    expect(((await rejection(connector.authClient())) as ToolError).code).toBe('not_connected');
  });

  it('disconnect still forgets the tokens when Google cannot be reached, and says so', async () => {
    const tokens = await signIn();
    fake.inject({ match: /^POST \/revoke$/, response: { status: 503, text: 'unavailable' } });
    const status = await connector.disconnect();
    expect(status.state).toBe('disconnected');
    expect(status.error).toMatch(/could not reach Google to revoke it.*myaccount\.google\.com\/permissions/);
    expect(storedTokens()).toBeNull();
    expect(fake.oauth.isValidAccessToken(tokens.access_token)).toBe(true);
    expectNoSecretsIn(status, [tokens.access_token, tokens.refresh_token]);
    expect(JSON.stringify(logged)).not.toContain(tokens.refresh_token);
  });

  it('disconnect during a sign-in cancels it', async () => {
    const { authUrl } = await connector.connect({ name: 'google' });
    const status = await connector.disconnect();
    expect(status).toMatchObject({ state: 'disconnected', error: null, authUrl: null });
    await expect(fetch(authUrl ?? '')).rejects.toThrow();
    expect(fake.requests.some((request) => request.path === '/revoke')).toBe(false);
  });
});
