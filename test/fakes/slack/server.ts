import { startFakeServer, type FakeServer } from '../http-kit';
import { createSlackOAuth } from './oauth';
import { createSlackState, type FakeSlackState } from './state';
import { handleWebApi } from './web-api';

export { FAKE_SLACK_SCOPES, createSlackState, fakeSlackToken } from './state';
export type { FakeSlackChannel, FakeSlackMessage, FakeSlackPost, FakeSlackState } from './state';
export { slackError, slackRateLimited } from './web-api';

export interface FakeSlack extends FakeServer {
  state: FakeSlackState;
  /** The environment that points Deputy's real Slack client and sign-in at this fake. */
  env: Record<string, string>;
}

/**
 * One local server standing in for Slack: the Web API methods Deputy uses (POST form or JSON to
 * /api/<method>, `{ok:false, error}` with HTTP 200 for platform errors) and OAuth v2 for user tokens.
 * Inject HTTP-level faults (429 with Retry-After, 500) with `inject`.
 */
export async function startFakeSlack(options: { state?: FakeSlackState } = {}): Promise<FakeSlack> {
  const state = options.state ?? createSlackState();
  const oauth = createSlackOAuth(state);
  const server = await startFakeServer([oauth, (request) => handleWebApi(request, state)]);
  return {
    ...server,
    state,
    env: { DEPUTY_SLACK_API_URL: `${server.url}/api/`, DEPUTY_SLACK_OAUTH_BASE: server.url },
  };
}
