import {
  LogLevel,
  WebClient,
  type Logger,
  type WebAPICallResult,
  type WebClientOptions,
} from '@slack/web-api';
import { isRejectedSignIn } from '../tools/slack/slack-errors';

/** One Web API call; a hung connection must not hold a run forever. */
const REQUEST_TIMEOUT_MS = 30_000;

/** The library logs request failures at warn level; Deputy reports them itself, redacted, so it stays quiet. */
const quietLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  setLevel: () => undefined,
  getLevel: () => LogLevel.ERROR,
  setName: () => undefined,
};

/** A client that tells the connector when Slack refuses its token, so the status turns to `error` at once. */
export class WatchedWebClient extends WebClient {
  constructor(
    token: string,
    options: WebClientOptions,
    private readonly onRejected: () => void,
  ) {
    super(token, options);
  }

  override async apiCall(method: string, args?: Record<string, unknown>): Promise<WebAPICallResult> {
    try {
      return await super.apiCall(method, args);
    } catch (error) {
      if (isRejectedSignIn(error)) this.onRejected();
      throw error;
    }
  }
}

/**
 * Options for a client of the Slack at `apiUrl` (the fake's URL in tests). No retries and no waiting out a 429: the
 * engine's retry layer decides, and the library's own policy would wait up to half an hour.
 */
export function slackClientOptions(apiUrl: string): WebClientOptions {
  return {
    slackApiUrl: apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: REQUEST_TIMEOUT_MS,
    logger: quietLogger,
  };
}
