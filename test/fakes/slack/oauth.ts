import { randomBytes } from 'node:crypto';
import type { FakeRequest, FakeResponse } from '../http-kit';
import type { FakeSlackState } from './state';
import { readArgs, slackError } from './web-api';

interface IssuedCode {
  redirectUri: string;
  userId: string;
  scopes: string[];
}

/**
 * Slack's OAuth v2 for user tokens: the browser page (which "approves" at once and redirects back with a
 * code and the state, or with `error=access_denied`) and `oauth.v2.access`, which swaps a code once.
 */
export function createSlackOAuth(state: FakeSlackState): (request: FakeRequest) => FakeResponse | null {
  const codes = new Map<string, IssuedCode>();

  const authorize = (request: FakeRequest): FakeResponse => {
    state.authorizeRequests.push(request.query);
    const redirectUri = request.query.get('redirect_uri');
    if (request.query.get('client_id') !== state.app.clientId || !redirectUri)
      return { status: 400, text: 'Invalid client_id parameter or missing redirect_uri' };
    const back = new URL(redirectUri);
    back.searchParams.set('state', request.query.get('state') ?? '');
    if (state.authorizeDecision === 'deny') {
      back.searchParams.set('error', 'access_denied');
    } else {
      const code = `${Date.now()}.${randomBytes(12).toString('hex')}`;
      const scopes = (request.query.get('user_scope') ?? '').split(',').filter(Boolean);
      codes.set(code, { redirectUri, userId: state.signInUserId, scopes });
      back.searchParams.set('code', code);
    }
    return { status: 302, headers: { location: back.toString() } };
  };

  const access = (request: FakeRequest): FakeResponse => {
    const args = readArgs(request);
    const basic = request.headers.authorization?.startsWith('Basic ')
      ? Buffer.from(request.headers.authorization.slice('Basic '.length), 'base64')
          .toString('utf8')
          .split(':')
      : [];
    const clientId = args.client_id ?? basic[0];
    const clientSecret = args.client_secret ?? basic[1];
    if (clientId !== state.app.clientId) return slackError('invalid_client_id');
    if (clientSecret !== state.app.clientSecret) return slackError('bad_client_secret');
    const issued = codes.get(args.code ?? '');
    if (!issued) return slackError('invalid_code');
    codes.delete(args.code ?? '');
    if (args.redirect_uri !== issued.redirectUri) return slackError('bad_redirect_uri');
    const token = state.issueToken({ userId: issued.userId, scopes: issued.scopes });
    return {
      status: 200,
      json: {
        ok: true,
        app_id: 'A0DEPUTYAPP',
        authed_user: {
          id: issued.userId,
          scope: issued.scopes.join(','),
          access_token: token,
          token_type: 'user',
        },
        team: { id: state.team.id, name: state.team.name },
        enterprise: null,
        is_enterprise_install: false,
      },
    };
  };

  return (request) => {
    if (request.method === 'GET' && request.path === '/oauth/v2/authorize') return authorize(request);
    if (request.path === '/api/oauth.v2.access') return access(request);
    return null;
  };
}
