import { describe, expect, it } from 'vitest';
import {
  EXECUTION_POLICIES,
  ROUTING_POLICIES,
  explanationOf,
  runsPatch,
  toRunValues,
} from '../../../renderer/src/features/settings/run-settings';
import { sampleSettings } from './fixtures';

describe('the Runs group of General', () => {
  const settings = sampleSettings();

  it('sends nothing when nothing changed', () => {
    expect(runsPatch(settings, toRunValues(settings))).toEqual({ ok: true, value: {} });
  });

  it('sends only what changed', () => {
    const values = { ...toRunValues(settings), maxParallel: '6', routingPolicy: 'cost' as const };
    expect(runsPatch(settings, values)).toEqual({
      ok: true,
      value: { maxParallel: 6, routingPolicy: 'cost' },
    });
    const limit = { ...toRunValues(settings), runTimeLimitMinutes: ' 45 ' };
    expect(runsPatch(settings, limit)).toEqual({ ok: true, value: { runTimeLimitMinutes: 45 } });
  });

  it('sends the number of runs at once when it changed, and refuses one outside 1–32', () => {
    const more = { ...toRunValues(settings), maxConcurrentRuns: '6' };
    expect(runsPatch(settings, more)).toEqual({ ok: true, value: { maxConcurrentRuns: 6 } });
    const none = { ...toRunValues(settings), maxConcurrentRuns: '0' };
    expect(runsPatch(settings, none)).toEqual({
      ok: false,
      message: 'Runs at once: use a number from 1 to 32.',
    });
  });

  it('neither checks nor sends the hidden number of calls at once when calls run one at a time', () => {
    const values = { ...toRunValues(settings), executionPolicy: 'interactive' as const, maxParallel: '99' };
    expect(runsPatch(settings, values)).toEqual({ ok: true, value: { executionPolicy: 'interactive' } });
  });

  it('says which number is wrong, in the words of its field', () => {
    const parallel = { ...toRunValues(settings), maxParallel: '9' };
    expect(runsPatch(settings, parallel)).toEqual({
      ok: false,
      message: 'Actions at once: use a number from 1 to 8.',
    });
    const empty = { ...toRunValues(settings), runTimeLimitMinutes: '' };
    expect(runsPatch(settings, empty)).toEqual({
      ok: false,
      message: 'Run time limit (minutes): enter a whole number.',
    });
    const long = { ...toRunValues(settings), runTimeLimitMinutes: '1441' };
    expect(runsPatch(settings, long)).toEqual({
      ok: false,
      message: 'Run time limit (minutes): use a number from 1 to 1440.',
    });
    const fraction = { ...toRunValues(settings), maxParallel: '2.5' };
    expect(runsPatch(settings, fraction)).toMatchObject({ ok: false });
  });

  it('offers every policy of the contract with a one-line explanation', () => {
    expect(EXECUTION_POLICIES.map((policy) => [policy.value, policy.label])).toEqual([
      ['interactive', 'One at a time'],
      ['batch', 'Several at once'],
    ]);
    expect(ROUTING_POLICIES.map((policy) => [policy.value, policy.label])).toEqual([
      ['quality', 'Best quality'],
      ['cost', 'Lowest cost'],
      ['latency', 'Fastest'],
    ]);
    for (const policy of ROUTING_POLICIES) {
      expect(explanationOf(ROUTING_POLICIES, policy.value)).toMatch(/^[^\n]{10,100}$/);
    }
  });
});

describe('thought summaries', () => {
  const settings = sampleSettings();
  it('are off by default and sent only when switched', () => {
    expect(toRunValues(settings).showThinking).toBe(false);
    expect(runsPatch(settings, { ...toRunValues(settings), showThinking: true })).toEqual({
      ok: true,
      value: { showThinking: true },
    });
  });
});
