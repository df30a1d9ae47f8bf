import { describe, expect, it } from 'vitest';
import { installProcessGuard } from '../../../electron/host/process-guard';

/** The guard's own listener (the one added last), called directly: emitting the event would reach vitest's too. */
function guardListener(event: 'uncaughtException' | 'unhandledRejection'): (error: unknown) => void {
  const listener = (process.listeners(event as 'uncaughtException') as unknown[]).at(-1);
  if (!listener) throw new Error(`no ${event} listener`);
  return listener as (error: unknown) => void;
}

describe('the process guard', () => {
  it('logs an escaped error redacted, and never throws itself (a throw there ends the process)', () => {
    const lines: string[] = [];
    const remove = installProcessGuard((line) => lines.push(line));
    try {
      guardListener('uncaughtException')(new Error('boom with AIzaSyA-0123456789abcdefghijklmnopqrstuv'));
      expect(lines[0]).toContain('boom with [redacted]');
      const unreadable = {
        get message(): string {
          throw new Error('no message for you');
        },
      };
      expect(() => guardListener('unhandledRejection')(unreadable)).not.toThrow();
      expect(lines[1]).toMatch(/^\[deputy\] a promise was rejected and nothing handled it: /);
    } finally {
      remove();
    }
    const failing = installProcessGuard(() => {
      throw new Error('stderr is gone');
    });
    try {
      expect(() => guardListener('uncaughtException')(new Error('x'))).not.toThrow();
    } finally {
      failing();
    }
  });
});
