import { googleError, startFakeServer, type FakeHandler, type FakeServer } from '../http-kit';
import { createCalendarFake, type CalendarFakeState } from './calendar';
import { createGmailFake, type GmailFakeState } from './gmail';
import { createOAuthFake, type OAuthFakeState } from './oauth';

export interface FakeGoogle extends FakeServer {
  oauth: OAuthFakeState;
  gmail: GmailFakeState;
  calendar: CalendarFakeState;
  /** The environment that points Deputy's real Google clients at this fake. */
  env: Record<string, string>;
}

/**
 * One local server standing in for Google: OAuth (authorize, token, revoke), and subsets of Gmail v1 and
 * Calendar v3, stateful in memory. Gmail and Calendar answer 401 to a missing, expired or revoked token,
 * as Google does, so the client's refresh-and-retry is exercised for real.
 */
export async function startFakeGoogle(): Promise<FakeGoogle> {
  const oauth = createOAuthFake();
  const gmail = createGmailFake();
  const calendar = createCalendarFake();
  const requireToken: FakeHandler = (request) => {
    const isApi = request.path.startsWith('/gmail/') || request.path.startsWith('/calendar/');
    if (!isApi || oauth.state.isValidAccessToken(request.accessToken)) return null;
    return googleError(401, 'Request had invalid authentication credentials.', 'authError');
  };
  const server = await startFakeServer([oauth.handler, requireToken, gmail.handler, calendar.handler]);
  return {
    ...server,
    oauth: oauth.state,
    gmail: gmail.state,
    calendar: calendar.state,
    env: { DEPUTY_GOOGLE_API_ROOT: `${server.url}/`, DEPUTY_GOOGLE_OAUTH_BASE: server.url },
  };
}
