import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMBED_AFTER_MS, EmbedSoon } from '../../../electron/context/embed-soon';

afterEach(() => {
  vi.useRealTimers();
});

describe('EmbedSoon', () => {
  it('embeds a change a moment later even when noting the change fails, and says so in the log', async () => {
    vi.useFakeTimers();
    const syncs: AbortSignal[] = [];
    const index = {
      changed: () => {
        throw new Error('database is locked');
      },
      sync: (signal: AbortSignal) => {
        syncs.push(signal);
        return Promise.resolve();
      },
    };
    const errors: string[] = [];
    const stop = new AbortController();
    const soon = new EmbedSoon(index, 'memories', stop.signal, (message) => errors.push(message));
    expect(() => soon.changed()).not.toThrow();
    expect(errors).toEqual(['noting a change to memories failed']);
    await vi.advanceTimersByTimeAsync(EMBED_AFTER_MS);
    expect(syncs).toHaveLength(1);
    soon.close();
  });

  it('embeds several changes made within a second once', async () => {
    vi.useFakeTimers();
    let changes = 0;
    let syncs = 0;
    const index = { changed: () => (changes += 1), sync: () => Promise.resolve((syncs += 1)) };
    const soon = new EmbedSoon(index, 'tasks', new AbortController().signal, () => {});
    soon.changed();
    soon.changed();
    await vi.advanceTimersByTimeAsync(EMBED_AFTER_MS / 2);
    soon.changed();
    await vi.advanceTimersByTimeAsync(EMBED_AFTER_MS);
    expect([changes, syncs]).toEqual([3, 1]);
    soon.close();
  });
});
