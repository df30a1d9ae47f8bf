import { describe, expect, it } from 'vitest';
import { modelRetryNotice, toolRetryNotice } from '../../../electron/engine/retry-notice';

describe('what a person reads while Deputy waits to try again', () => {
  it('says what went wrong with Gemini in the chat’s own words, then the wait, as two sentences', () => {
    expect(modelRetryNotice('rate_limited', 800)).toBe('Gemini is busy right now. Trying again in 1 s.');
    expect(modelRetryNotice('server_error', 4_000)).toBe(
      'Gemini had a problem answering. Trying again in 4 s.',
    );
    expect(modelRetryNotice('unavailable', 2_100)).toBe('Deputy couldn’t reach Gemini. Trying again in 3 s.');
    expect(modelRetryNotice('timeout', 1_000)).toBe('Gemini took too long to answer. Trying again in 1 s.');
  });

  it('names the service that is busy, or the step that failed, never the service’s own message', () => {
    const slack = { name: 'slack_read', requires: 'slack' as const };
    expect(toolRetryNotice(slack, { channel: 'general' }, 'rate_limited', 30_000)).toBe(
      'Slack is busy right now. Trying again in 30 s.',
    );
    expect(toolRetryNotice(slack, { channel: 'general' }, 'unavailable', 1_000)).toBe(
      'Couldn’t read #general. Trying again in 1 s.',
    );
    expect(toolRetryNotice({ name: 'notes__post_note' }, {}, 'rate_limited', 1_500)).toBe(
      'Couldn’t use notes: post note. Trying again in 2 s.',
    );
  });

  it('names a channel given by id as its card does, when the tool knows its name', () => {
    const slack = { name: 'slack_send', requires: 'slack' as const };
    const post = { channel: 'C0RANDOM01', text: 'Hi' };
    expect(toolRetryNotice(slack, post, 'unavailable', 1_000, { C0RANDOM01: '#random' })).toBe(
      'Couldn’t post in #random. Trying again in 1 s.',
    );
    expect(toolRetryNotice(slack, post, 'unavailable', 1_000)).toBe(
      'Couldn’t post in Slack channel C0RANDOM01. Trying again in 1 s.',
    );
  });
});
