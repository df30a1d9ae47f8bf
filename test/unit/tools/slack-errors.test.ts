import {
  WebAPIHTTPError,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebAPIRequestError,
} from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../electron/tools/service-errors';
import { isRejectedSignIn, slackToolError } from '../../../electron/tools/slack/slack-errors';
import { ToolError } from '../../../electron/tools/tool';

const platform = (error: string, extra: Record<string, unknown> = {}) =>
  new WebAPIPlatformError({ ok: false, error, ...extra });

const TOKEN = 'xoxp-1111111111-2222222222-3333333333-abcdefabcdefabcdefabcdefabcdefab';

describe('slackToolError', () => {
  it('treats every rejected-token answer as a lapsed sign-in', () => {
    for (const code of ['invalid_auth', 'not_authed', 'token_revoked', 'token_expired', 'account_inactive']) {
      expect(isRejectedSignIn(platform(code))).toBe(true);
      expect(slackToolError(platform(code), 'reading #general').code).toBe('not_connected');
    }
    expect(isRejectedSignIn(platform('channel_not_found'))).toBe(false);
    expect(isRejectedSignIn(new WebAPIHTTPError(401, 'Unauthorized', {}))).toBe(false);
  });

  it('maps rate limits from the 429 error and from the platform answer', () => {
    expect(slackToolError(new WebAPIRateLimitedError(12), 'reading #general')).toMatchObject({
      code: 'rate_limited',
      retryAfterSeconds: 12,
    });
    expect(slackToolError(platform('ratelimited'), 'reading #general')).toMatchObject({
      code: 'rate_limited',
      retryAfterSeconds: null,
    });
  });

  it('keeps the wait Slack asked for on a platform ratelimited answer, and marks it transient', () => {
    const limited = platform('ratelimited', { response_metadata: { retryAfter: 12 } });
    expect(slackToolError(limited, 'posting to #general')).toMatchObject({
      code: 'rate_limited',
      isTransient: true,
      retryAfterSeconds: 12,
    });
    expect(slackToolError(new WebAPIRateLimitedError(3), 'posting')).toMatchObject({ isTransient: true });
  });

  it('does not retry a refused token, a missing scope or a missing channel', () => {
    for (const code of [
      'invalid_auth',
      'token_revoked',
      'missing_scope',
      'channel_not_found',
      'not_in_channel',
    ]) {
      expect(slackToolError(platform(code), 'posting'), code).toMatchObject({ isTransient: false });
    }
  });

  it('maps Slack’s own failures to transient unavailable', () => {
    for (const code of ['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']) {
      expect(slackToolError(platform(code), 'posting')).toMatchObject({
        code: 'unavailable',
        isTransient: true,
      });
    }
    expect(
      slackToolError(new WebAPIHTTPError(503, 'Unavailable', { 'retry-after': '20' }), 'posting'),
    ).toMatchObject({ code: 'unavailable', status: 503, retryAfterSeconds: 20 });
  });

  it('names the cause of a network failure or a timeout', () => {
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }),
    });
    const timedOut = new DOMException('The operation timed out.', 'TimeoutError');

    expect(slackToolError(new WebAPIRequestError(refused), 'posting').message).toMatch(/\(ECONNRESET\)/);
    expect(slackToolError(new WebAPIRequestError(timedOut), 'posting')).toMatchObject({
      code: 'timeout',
      isTransient: true,
      message: expect.stringMatching(/did not answer in time while posting \(timeout\)/),
    });
    expect(slackToolError(new WebAPIRequestError(refused), 'posting')).toMatchObject({
      code: 'unavailable',
      isTransient: true,
    });
  });

  it('explains threads, long messages and unknown codes, never echoing a token', () => {
    expect(slackToolError(platform('thread_not_found'), 'posting', '#general').message).toMatch(
      /No message with that thread_ts exists in #general/,
    );
    expect(slackToolError(platform('msg_too_long'), 'posting').message).toMatch(/too long/);
    const unknown = slackToolError(platform('restricted_action'), 'posting to #general');
    expect(unknown).toBeInstanceOf(ServiceError);
    expect(unknown.message).toBe('Slack refused posting to #general (restricted_action).');
    expect(slackToolError(platform(TOKEN), 'posting').message).not.toContain(TOKEN);
    expect(slackToolError(platform(`bad ${TOKEN} here`), 'posting').message).toMatch(/unknown_error/);
  });

  it('passes ToolErrors through and rethrows what is not Slack’s', () => {
    const own = new ToolError('not_found', 'No channel named #x');
    expect(slackToolError(own, 'reading')).toBe(own);
    const bug = new RangeError('a bug');
    expect(() => slackToolError(bug, 'reading')).toThrow(bug);
  });
});
