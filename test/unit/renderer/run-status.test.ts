import { describe, expect, it } from 'vitest';
import { runStatusText } from '../../../renderer/src/features/chat/run-status';

describe('the line under a running conversation', () => {
  it('says how many runs a queued run waits for, in words', () => {
    expect(runStatusText('queued', 1)).toBe('Queued — waiting for 1 other run to finish');
    expect(runStatusText('queued', 3)).toBe('Queued — waiting for 3 other runs to finish');
  });

  it('says starting for a run not (yet) known to wait, and ignores a place in line once it works', () => {
    expect(runStatusText('queued')).toBe('Starting…');
    expect(runStatusText('planning', 2)).toBe('Planning…');
  });
});
