import { afterEach, describe, expect, it } from 'vitest';
import { SLACK_USER_SCOPES } from '../../electron/connections/slack-connector';
import { ToolError } from '../../electron/tools/tool';
import { DeputyError } from '../../shared/contract/errors';
import { FAKE_SLACK_SCOPES, startFakeSlack } from '../fakes/slack/server';
import { expectNoToken, failure, settled, startSlackHarness, type SlackHarness } from './slack-test-kit';

let harness: SlackHarness | null = null;

async function start(options: Parameters<typeof startSlackHarness>[0] = {}): Promise<SlackHarness> {
  harness = await startSlackHarness(options);
  return harness;
}

afterEach(async () => {
  await harness?.close();
  harness = null;
});

function rawSecrets(h: SlackHarness): Buffer {
  const rows = h.db
    .prepare<[], { name: string; ciphertext: Buffer }>('SELECT name, ciphertext FROM secrets')
    .all();
  return Buffer.concat(rows.map((row) => Buffer.concat([Buffer.from(row.name), row.ciphertext])));
}

describe('Slack connector: a pasted user token', () => {
  it('is checked with auth.test, then stored encrypted with who it belongs to', async () => {
    const h = await start();
    const token = h.slack.state.issueToken();

    const { status, authUrl } = await h.connector.connect({ name: 'slack', token });

    expect(authUrl).toBeNull();
    expect(status).toMatchObject({
      name: 'slack',
      state: 'connected',
      account: 'alice @ Deputy Test',
      scopes: FAKE_SLACK_SCOPES,
      error: null,
    });
    const check = h.slack.requests.find((request) => request.path === '/api/auth.test');
    expect(check?.accessToken).toBe(token);
    expect(h.vault.getJson('slack.token', (value) => value)).toEqual({
      token,
      userId: 'U0ALICE01',
      user: 'alice',
      teamId: 'T0DEPUTY01',
      team: 'Deputy Test',
      scopes: FAKE_SLACK_SCOPES,
    });
    expect(rawSecrets(h).includes(token)).toBe(false);
    expect(h.changes.at(-1)?.state).toBe('connected');
    expectNoToken(JSON.stringify(h.changes), token);
  });

  it('refuses a token Slack does not accept and stores nothing', async () => {
    const h = await start();
    const token = 'xoxp-1234567890-1234567890-1234567890-0123456789abcdef0123456789abcdef';

    const error = await failure(h.connector.connect({ name: 'slack', token }));

    expect(error).toBeInstanceOf(DeputyError);
    expect((error as DeputyError).code).toBe('invalid_input');
    expect(error.message).toContain('invalid_auth');
    expectNoToken(error.message, token);
    expect(h.vault.has('slack.token')).toBe(false);
    expect(h.connector.status().state).toBe('disconnected');
  });

  it('drops characters nobody sees, and refuses one no token has without asking Slack or blaming the network', async () => {
    const h = await start();
    const token = h.slack.state.issueToken();
    const connected = await h.connector.connect({ name: 'slack', token: `\u200B${token}\uFEFF` });
    expect(connected.status.state).toBe('connected');
    expect(h.vault.getJson('slack.token', (value) => value)).toMatchObject({ token });
    await h.connector.disconnect();

    const checks = h.slack.requests.filter((request) => request.path === '/api/auth.test').length;
    for (const [pasted, at] of [
      [`${token.slice(0, 9)}é${token.slice(9)}`, 10],
      [`${token.slice(0, 12)} ${token.slice(12)}`, 13],
    ] as const) {
      const error = await failure(h.connector.connect({ name: 'slack', token: pasted }));
      expect((error as DeputyError).code).toBe('invalid_input');
      expect(error.message).toContain(`character ${at} of it cannot be part of a Slack token`);
      expectNoToken(error.message, token);
    }
    expect(h.slack.requests.filter((request) => request.path === '/api/auth.test')).toHaveLength(checks);
    expect(h.vault.has('slack.token')).toBe(false);
  });

  it('refuses a revoked token and a bot token', async () => {
    const h = await start();
    const revoked = h.slack.state.issueToken();
    const grant = h.slack.state.tokens.get(revoked);
    if (grant) grant.isRevoked = true;
    const bot = h.slack.state.issueToken({ isBot: true });

    const revokedError = await failure(h.connector.connect({ name: 'slack', token: revoked }));
    const botError = await failure(h.connector.connect({ name: 'slack', token: bot }));

    expect(revokedError.message).toContain('token_revoked');
    expect(botError.message).toMatch(/bot token; paste a user token/);
    expect(h.vault.has('slack.token')).toBe(false);
  });

  it('says Slack failed on its side when the check fails with HTTP 500, not the network, and stores nothing', async () => {
    const h = await start();
    h.slack.inject({ match: /auth\.test/, response: { status: 500, text: 'oops' } });
    const token = h.slack.state.issueToken();

    const error = await failure(h.connector.connect({ name: 'slack', token }));

    expect(error).toBeInstanceOf(DeputyError);
    expect((error as DeputyError).code).toBe('service_unavailable');
    expect(error.message).toBe(
      'Slack could not check the token just now (it answered HTTP 500); try again in a moment.',
    );
    expect(error.message).not.toContain(token);
    expect(h.vault.has('slack.token')).toBe(false);
  });

  it('reports a rate-limited check as rate_limited', async () => {
    const h = await start();
    h.slack.inject({
      match: /auth\.test/,
      response: { status: 429, headers: { 'retry-after': '30' }, json: { ok: false, error: 'ratelimited' } },
    });

    const error = await failure(h.connector.connect({ name: 'slack', token: h.slack.state.issueToken() }));

    expect((error as DeputyError).code).toBe('rate_limited');
  });
});

describe('Slack connector: the client and a lapsed token', () => {
  it('has no client before connecting', async () => {
    const h = await start();

    const error = await failure(h.connector.client());

    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('not_connected');
    expect(error.message).toMatch(/Connect Slack in Settings/);
  });

  it('turns to error when Slack refuses the saved token, and gives no client until reconnected', async () => {
    const h = await start();
    const token = await h.signIn();
    const client = await h.connector.client();
    const grant = h.slack.state.tokens.get(token);
    if (grant) grant.isRevoked = true;

    await failure(client.auth.test());

    const status = h.connector.status();
    expect(status.state).toBe('error');
    expect(status.error).toMatch(/no longer valid; reconnect/);
    expect(h.changes.at(-1)?.state).toBe('error');
    const error = await failure(h.connector.client());
    expect((error as ToolError).code).toBe('not_connected');
    expect(error.message).toMatch(/no longer valid/);

    await h.signIn();
    expect(h.connector.status().state).toBe('connected');
    await expect(h.connector.client()).resolves.toBeDefined();
  });
});

describe('Slack connector: disconnect', () => {
  it('revokes the token at Slack and forgets it', async () => {
    const h = await start();
    const token = await h.signIn();

    const status = await h.connector.disconnect();

    expect(status.state).toBe('disconnected');
    expect(status.account).toBeNull();
    expect(h.slack.state.tokens.get(token)?.isRevoked).toBe(true);
    expect(h.vault.has('slack.token')).toBe(false);
    expect((await failure(h.connector.client())).message).toMatch(/not connected/);
  });

  it('forgets the token even when revoking fails, and logs it without the token', async () => {
    const h = await start();
    const token = await h.signIn();
    h.slack.inject({ match: /auth\.revoke/, response: { status: 503, text: 'down' } });

    const status = await h.connector.disconnect();

    expect(status.state).toBe('disconnected');
    expect(h.vault.has('slack.token')).toBe(false);
    expect(h.logged).toHaveLength(1);
    expectNoToken(h.logged.join('\n'), token);
  });
});

describe('Slack connector: OAuth v2 in the browser', () => {
  it('signs in end to end: authorize page, loopback redirect, oauth.v2.access, token stored', async () => {
    const slack = await startFakeSlack();
    const env = {
      DEPUTY_SLACK_CLIENT_ID: slack.state.app.clientId,
      DEPUTY_SLACK_CLIENT_SECRET: slack.state.app.clientSecret,
    };
    const h = await start({ slack, env });
    expect(h.connector.status().isConfigured).toBe(true);

    const { status, authUrl } = await h.connector.connect({ name: 'slack' });

    expect(status.state).toBe('connecting');
    expect(status.authUrl).toBe(authUrl);
    expect(h.opened).toEqual([authUrl]);
    const url = new URL(authUrl ?? '');
    expect(`${url.origin}${url.pathname}`).toBe(`${h.slack.url}/oauth/v2/authorize`);
    expect(url.searchParams.get('user_scope')).toBe(SLACK_USER_SCOPES.join(','));
    expect(url.searchParams.get('client_id')).toBe(env.DEPUTY_SLACK_CLIENT_ID);
    expect(url.searchParams.get('state')?.length).toBeGreaterThanOrEqual(32);
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    const page = await fetch(authUrl ?? '');
    expect(page.status).toBe(200);
    const final = await settled(h.connector);

    expect(final).toMatchObject({ state: 'connected', account: 'alice @ Deputy Test', error: null });
    expect(final.scopes).toEqual([...SLACK_USER_SCOPES]);
    const access = h.slack.requests.find((request) => request.path === '/api/oauth.v2.access');
    expect(access?.form.get('redirect_uri')).toBe(url.searchParams.get('redirect_uri'));
    const stored = h.vault.getJson('slack.token', (value) => value as { token: string });
    expect(stored?.token).toMatch(/^xoxp-/);
    expect(h.vault.has('slack.client')).toBe(false);
    expectNoToken(JSON.stringify(h.changes), stored?.token);
    expect(JSON.stringify(h.changes)).not.toContain(env.DEPUTY_SLACK_CLIENT_SECRET);
    await expect((await h.connector.client()).auth.test()).resolves.toMatchObject({ user_id: 'U0ALICE01' });
  });

  it('says a sign-in Slack failed on its side (HTTP 500) was Slack’s failure, not the network’s, and stores nothing', async () => {
    const slack = await startFakeSlack();
    const env = {
      DEPUTY_SLACK_CLIENT_ID: slack.state.app.clientId,
      DEPUTY_SLACK_CLIENT_SECRET: slack.state.app.clientSecret,
    };
    const h = await start({ slack, env });
    h.slack.inject({ match: /oauth\.v2\.access/, response: { status: 500, text: 'oops' } });

    const { authUrl } = await h.connector.connect({ name: 'slack' });
    await fetch(authUrl ?? '');
    const final = await settled(h.connector);

    expect(final.error).toBe(
      'Slack could not finish the sign-in just now (it answered HTTP 500); try again in a moment.',
    );
    expect(final.state).not.toBe('connected');
    expect(h.vault.has('slack.token')).toBe(false);
  });

  it('keeps a client id and secret given in Settings in the vault', async () => {
    const h = await start();
    expect(h.connector.status().isConfigured).toBe(false);
    const { clientId, clientSecret } = h.slack.state.app;

    const { authUrl } = await h.connector.connect({ name: 'slack', clientId, clientSecret });
    await fetch(authUrl ?? '');
    const final = await settled(h.connector);

    expect(final.state).toBe('connected');
    expect(final.isConfigured).toBe(true);
    expect(h.vault.getJson('slack.client', (value) => value)).toEqual({ clientId, clientSecret });
    expect(rawSecrets(h).includes(clientSecret)).toBe(false);
  });

  it('asks for a token or an app when neither is there', async () => {
    const h = await start();

    const error = await failure(h.connector.connect({ name: 'slack' }));

    expect((error as DeputyError).code).toBe('invalid_input');
    expect(error.message).toMatch(/Paste a Slack user token/);
    expect(h.connector.status().state).toBe('disconnected');
  });

  it('shows a denied sign-in as an error', async () => {
    const h = await start();
    h.slack.state.authorizeDecision = 'deny';
    const { clientId, clientSecret } = h.slack.state.app;

    const { authUrl } = await h.connector.connect({ name: 'slack', clientId, clientSecret });
    await fetch(authUrl ?? '');
    const final = await settled(h.connector);

    expect(final.state).toBe('error');
    expect(final.error).toMatch(/denied/);
    expect(h.vault.has('slack.token')).toBe(false);
  });

  it('shows a wrong client secret as Slack refusing the sign-in, without the secret', async () => {
    const h = await start();
    const wrongSecret = 'f00dbabe-not-the-secret-0123456789';
    const { authUrl } = await h.connector.connect({
      name: 'slack',
      clientId: h.slack.state.app.clientId,
      clientSecret: wrongSecret,
    });
    await fetch(authUrl ?? '');
    const final = await settled(h.connector);

    expect(final.state).toBe('error');
    expect(final.error).toMatch(/bad_client_secret/);
    expect(JSON.stringify(h.changes)).not.toContain(wrongSecret);
    expect(h.logged.join('\n')).not.toContain(wrongSecret);
  });

  it('times out when the browser never comes back', async () => {
    const h = await start({ timeoutMs: 50 });
    const { clientId, clientSecret } = h.slack.state.app;

    await h.connector.connect({ name: 'slack', clientId, clientSecret });
    const final = await settled(h.connector);

    expect(final.state).toBe('error');
    expect(final.error).toMatch(/not completed in time/);
  });

  it('two sign-ins started at once leave one listener: the newest', async () => {
    const h = await start();
    const { clientId, clientSecret } = h.slack.state.app;
    const connect = () => h.connector.connect({ name: 'slack', clientId, clientSecret });

    const [first, second] = await Promise.all([connect(), connect()]);

    const current = h.connector.status().authUrl;
    expect([first.authUrl, second.authUrl]).toContain(current);
    const replaced = current === first.authUrl ? second.authUrl : first.authUrl;
    const replacedListener = new URL(replaced ?? '').searchParams.get('redirect_uri') ?? '';
    await expect(fetch(`${replacedListener}?code=late&state=late`)).rejects.toThrow();
    await fetch(current ?? '');
    expect(await settled(h.connector)).toMatchObject({ state: 'connected', error: null });
  });

  it('cancels a pending sign-in on disconnect, and the late redirect changes nothing', async () => {
    const h = await start();
    const { clientId, clientSecret } = h.slack.state.app;
    const { authUrl } = await h.connector.connect({ name: 'slack', clientId, clientSecret });

    const status = await h.connector.disconnect();

    expect(status.state).toBe('disconnected');
    await fetch(authUrl ?? '').catch(() => undefined);
    expect(h.connector.status().state).toBe('disconnected');
    expect(h.vault.has('slack.token')).toBe(false);
  });
});
