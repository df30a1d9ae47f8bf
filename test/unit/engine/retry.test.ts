import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  MODEL_RETRY,
  TOOL_RETRY,
  backoffDelayMs,
  decideRetry,
  errorSignature,
  sleep,
  type Failure,
  type RetryPolicy,
} from '../../../electron/engine/retry';

const policy: RetryPolicy = { maxRetries: 2, baseDelayMs: 1000, multiplier: 2, maxDelayMs: 30_000 };
const half = (): number => 0.5;
const transient: Failure = { transient: true, retryAfterSeconds: null, signature: 'abc' };

describe('retry policies', () => {
  it('use the spec defaults: 2 tool retries, 3 model retries, 1 s doubling up to 30 s', () => {
    expect(TOOL_RETRY).toEqual({ maxRetries: 2, baseDelayMs: 1000, multiplier: 2, maxDelayMs: 30_000 });
    expect(MODEL_RETRY).toEqual({ maxRetries: 3, baseDelayMs: 1000, multiplier: 2, maxDelayMs: 30_000 });
  });
});

describe('decideRetry', () => {
  it('retries a transient failure with the backoff delay', () => {
    expect(decideRetry(transient, 0, 1, policy, half)).toEqual({ retry: true, delayMs: 750 });
    expect(decideRetry(transient, 1, 1, policy, half)).toEqual({ retry: true, delayMs: 1500 });
  });

  it('never retries a permanent failure, whatever else holds', () => {
    const permanent = { ...transient, transient: false };
    expect(decideRetry(permanent, 0, 1, policy, half)).toEqual({ retry: false, reason: 'permanent' });
    expect(decideRetry(permanent, 5, 5, policy, half)).toEqual({ retry: false, reason: 'permanent' });
  });

  it('does not retry an error signature seen twice in the run', () => {
    expect(decideRetry(transient, 0, 2, policy, half)).toEqual({ retry: false, reason: 'repeated' });
    // Checked before the retry budget.
    expect(decideRetry(transient, 2, 3, policy, half)).toEqual({ retry: false, reason: 'repeated' });
  });

  it('stops when the retries are used up', () => {
    expect(decideRetry(transient, 2, 1, policy, half)).toEqual({ retry: false, reason: 'exhausted' });
    expect(decideRetry(transient, 2, 1, MODEL_RETRY, half)).toMatchObject({ retry: true });
    expect(decideRetry(transient, 3, 1, MODEL_RETRY, half)).toEqual({ retry: false, reason: 'exhausted' });
  });

  it('refuses a Retry-After longer than the longest wait', () => {
    const slow = { ...transient, retryAfterSeconds: 31 };
    expect(decideRetry(slow, 0, 1, policy, half)).toEqual({ retry: false, reason: 'wait_too_long' });
    expect(decideRetry({ ...slow, retryAfterSeconds: 30 }, 0, 1, policy, half)).toEqual({
      retry: true,
      delayMs: 30_000,
    });
  });

  it('honours a Retry-After as the least delay, and the backoff when it is longer', () => {
    expect(decideRetry({ ...transient, retryAfterSeconds: 7 }, 0, 1, policy, half)).toEqual({
      retry: true,
      delayMs: 7000,
    });
    expect(decideRetry({ ...transient, retryAfterSeconds: 0.2 }, 1, 1, policy, () => 1)).toEqual({
      retry: true,
      delayMs: 2000,
    });
  });
});

describe('backoffDelayMs', () => {
  it('grows exponentially, with half of each delay fixed and half random', () => {
    expect([1, 2, 3, 4].map((retry) => backoffDelayMs(retry, policy, () => 0))).toEqual([
      500, 1000, 2000, 4000,
    ]);
    expect([1, 2, 3, 4].map((retry) => backoffDelayMs(retry, policy, () => 1))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
    expect(backoffDelayMs(3, policy, () => 0.25)).toBe(2500);
  });

  it('is capped at maxDelayMs', () => {
    expect(backoffDelayMs(20, policy, () => 1)).toBe(30_000);
    expect(backoffDelayMs(20, policy, () => 0)).toBe(15_000);
  });

  it('stays inside its bounds for any random value', () => {
    for (let i = 0; i <= 100; i++) {
      const delay = backoffDelayMs(2, policy, () => i / 100);
      expect(delay).toBeGreaterThanOrEqual(1000);
      expect(delay).toBeLessThanOrEqual(2000);
    }
  });
});

describe('errorSignature', () => {
  it('is the same for one error with other numbers, ids and quoted values', () => {
    const first = errorSignature('tool:gmail_send', 'timeout', 'timed out after 60 s (req 8f3a91c2)');
    const second = errorSignature('tool:gmail_send', 'timeout', 'timed out  after 120 s (req 0b77e4d1)');
    expect(first).toBe(second);
    expect(
      errorSignature(
        'model',
        'server_error',
        "No label 'Inbox/2024' for id 3f2504e0-4f89-11d3-9a0c-0305e82c3301",
      ),
    ).toBe(
      errorSignature('model', 'server_error', "No label 'Work' for id 6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
    );
    expect(first).toMatch(/^[0-9a-f]{16}$/);
  });

  it('differs by source, code and the words of the message', () => {
    const base = errorSignature('tool:slack_send', 'rate_limited', 'Slack is busy');
    expect(errorSignature('tool:gmail_send', 'rate_limited', 'Slack is busy')).not.toBe(base);
    expect(errorSignature('tool:slack_send', 'timeout', 'Slack is busy')).not.toBe(base);
    expect(errorSignature('tool:slack_send', 'rate_limited', 'Slack is down')).not.toBe(base);
  });

  it('keeps plain words made of hex letters and the apostrophes of words', () => {
    expect(errorSignature('s', 'c', 'a row was added')).not.toBe(errorSignature('s', 'c', 'a row was faded'));
    expect(errorSignature('s', 'c', "can't find it")).not.toBe(errorSignature('s', 'c', "won't find it"));
  });
});

describe('sleep', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves after the delay', async () => {
    vi.useFakeTimers();
    let done = false;
    const waiting = sleep(1000, new AbortController().signal).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
  });

  it('rejects with an AbortError when aborted, and leaves no timer behind', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once when the signal is already aborted', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    controller.abort();
    await expect(sleep(1000, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('works with real timers', async () => {
    const started = Date.now();
    await sleep(20, new AbortController().signal);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });
});
