import { describe, expect, it } from 'vitest';
import { slackInstant } from '../../../electron/context/slack-dms';

describe("a Slack message's ts as an instant", () => {
  it('reads seconds with their fraction, and answers null for what names no time', () => {
    expect(slackInstant('1767243600.000700')).toBe('2026-01-01T05:00:00.000Z');
    expect(slackInstant('1767243600')).toBe('2026-01-01T05:00:00.000Z');
    for (const ts of ['99999999999999999999', '1e99', 'not-a-time', '', '-1', undefined, 42])
      expect(slackInstant(ts)).toBeNull();
  });
});
