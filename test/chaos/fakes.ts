import { DEPUTY_KEY_PROPERTY } from '../../electron/tools/calendar/calendar-tools';
import { DEPUTY_KEY_FIELD } from '../../electron/tools/slack/slack-tools';
import { startFakeGemini } from '../fakes/gemini/server';
import type { FakeGemini } from '../fakes/gemini/types';
import { createCalendarFake, type CalendarFakeState } from '../fakes/google/calendar';
import { createGmailFake, type GmailFakeState } from '../fakes/google/gmail';
import { createOAuthFake, FAKE_OAUTH_CLIENT, type OAuthFakeState } from '../fakes/google/oauth';
import {
  googleError,
  startFakeServer,
  type FakeHandler,
  type FakeRequest,
  type FakeServer,
} from '../fakes/http-kit';
import { createSlackOAuth } from '../fakes/slack/oauth';
import { createSlackState, type FakeSlackState } from '../fakes/slack/state';
import { handleWebApi } from '../fakes/slack/web-api';
import { chaosReply } from './chaos-model';
import type { Rng } from './prng';

/** One side effect as a fake recorded it: which run made it (by its marker) and the idempotency key it carried. */
export interface RecordedEffect {
  marker: string;
  /** The Message-ID, the calendar's private deputyKey or the Slack metadata key; null when it carried none. */
  key: string | null;
}

/** What the three services did, read from the fakes' own records (never from Deputy's). */
export interface EffectsAtFakes {
  mail: RecordedEffect[];
  events: RecordedEffect[];
  posts: RecordedEffect[];
}

export interface ChaosFakes {
  gemini: FakeGemini;
  google: FakeServer & { oauth: OAuthFakeState; gmail: GmailFakeState; calendar: CalendarFakeState };
  slack: FakeServer & { state: FakeSlackState };
  /** The environment that points the headless host at the fakes (the Gemini key is the fake's). */
  env: Record<string, string>;
  effects(): EffectsAtFakes;
  /** How often the model was asked each turn (run K, results already given) more than once. */
  turnsAskedAgain(): number;
  /** The fakes keep every request; across hundreds of cycles that is memory the checks never read. */
  forgetRequests(): void;
  close(): Promise<void>;
}

export const FAKE_GEMINI_KEY = 'AIzaSyChaos-fake-gemini-key-000000000000';

/**
 * Starts the fakes in this process, so what they record survives every kill of the host. Writes are slowed
 * (25–150 ms before the effect and as long again before the answer) so that kills land while a send is in
 * flight, including after the effect happened but before the host heard about it.
 */
export async function startChaosFakes(rng: Rng): Promise<ChaosFakes> {
  const asked = new Map<string, number>();
  const gemini = await startFakeGemini({
    fallback: (request) => {
      const { k, answered, step } = chaosReply(request);
      const key = `${k}/${answered}`;
      asked.set(key, (asked.get(key) ?? 0) + 1);
      return step;
    },
  });

  const oauth = createOAuthFake();
  const gmail = createGmailFake();
  const calendar = createCalendarFake();
  // As the shared Google fake does: the APIs answer 401 to a missing, expired or revoked token.
  const requireToken: FakeHandler = (request) => {
    const isApi = request.path.startsWith('/gmail/') || request.path.startsWith('/calendar/');
    if (!isApi || oauth.state.isValidAccessToken(request.accessToken)) return null;
    return googleError(401, 'Request had invalid authentication credentials.', 'authError');
  };
  const slow = (handler: FakeHandler): FakeHandler => withLatency(handler, rng);
  const googleServer = await startFakeServer([
    oauth.handler,
    requireToken,
    slow(gmail.handler),
    slow(calendar.handler),
  ]);

  const slackState = createSlackState();
  const slackServer = await startFakeServer([
    createSlackOAuth(slackState),
    slow((request) => handleWebApi(request, slackState)),
  ]);

  const google = { ...googleServer, oauth: oauth.state, gmail: gmail.state, calendar: calendar.state };
  const slack = { ...slackServer, state: slackState };
  return {
    gemini,
    google,
    slack,
    env: {
      DEPUTY_GEMINI_BASE_URL: gemini.url,
      GEMINI_API_KEY: FAKE_GEMINI_KEY,
      DEPUTY_GOOGLE_API_ROOT: `${googleServer.url}/`,
      DEPUTY_GOOGLE_OAUTH_BASE: googleServer.url,
      DEPUTY_GOOGLE_CLIENT_ID: FAKE_OAUTH_CLIENT.clientId,
      DEPUTY_GOOGLE_CLIENT_SECRET: FAKE_OAUTH_CLIENT.clientSecret,
      DEPUTY_SLACK_API_URL: `${slackServer.url}/api/`,
      DEPUTY_SLACK_OAUTH_BASE: slackServer.url,
    },
    effects: () => ({
      mail: gmail.state.sent.map((sent) => ({ marker: sent.subject, key: sent.messageId || null })),
      events: calendar.state.created.map(({ event }) => ({
        marker: event.summary ?? '',
        key: event.extendedProperties?.private?.[DEPUTY_KEY_PROPERTY] ?? null,
      })),
      posts: slackState.posted.map((post) => {
        const key = post.metadata?.event_payload[DEPUTY_KEY_FIELD];
        return { marker: post.text, key: typeof key === 'string' ? key : null };
      }),
    }),
    turnsAskedAgain: () => [...asked.values()].filter((count) => count > 1).length,
    forgetRequests: () => {
      gemini.requests.length = 0;
      googleServer.requests.length = 0;
      slackServer.requests.length = 0;
    },
    close: async () => {
      await Promise.all([gemini.close(), googleServer.close(), slackServer.close()]);
    },
  };
}

const isWrite = (request: FakeRequest): boolean =>
  (request.method === 'POST' &&
    (request.path.endsWith('/messages/send') ||
      /\/calendar\/v3\/calendars\/[^/]+\/events$/.test(request.path))) ||
  request.path.endsWith('/chat.postMessage');

/** Reads answer after 5–30 ms; writes wait before the effect and again before the answer. */
function withLatency(handler: FakeHandler, rng: Rng): FakeHandler {
  return async (request) => {
    const write = isWrite(request);
    if (write) await sleep(rng.int(25, 150));
    const response = await handler(request);
    if (response === null) return null;
    return { ...response, delayMs: (response.delayMs ?? 0) + (write ? rng.int(25, 150) : rng.int(5, 30)) };
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
