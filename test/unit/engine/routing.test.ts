import { describe, expect, it } from 'vitest';
import { routeModel, type RunPhase } from '../../../electron/engine/routing';
import { DEFAULT_MODEL } from '../../../electron/llm/model-config';
import type { RoutingPolicy } from '../../../shared/contract';

const route = (requested: string, policy: RoutingPolicy, phase: RunPhase) =>
  routeModel({ requested, policy, phase });

describe('routeModel', () => {
  it('records what was asked, what was chosen, the policy and the phase', () => {
    expect(route('gemini-2.5-pro', 'cost', 'act')).toEqual({
      requested: 'gemini-2.5-pro',
      resolved: 'gemini-2.5-flash-lite',
      reason:
        'The cost policy reads tool results with gemini-2.5-flash-lite, the cheapest model of the gemini-2.5 family, instead of gemini-2.5-pro.',
      policy: 'cost',
      phase: 'act',
    });
  });

  it('quality always uses the requested model', () => {
    for (const phase of ['plan', 'act', 'recover'] as const) {
      expect(route('gemini-2.5-pro', 'quality', phase).resolved).toBe('gemini-2.5-pro');
    }
    expect(route('gemini-2.5-pro', 'quality', 'act').reason).toMatch(/quality policy always uses/);
  });

  it('cost plans with the requested model and acts with the cheapest sibling', () => {
    expect(route('gemini-2.5-pro', 'cost', 'plan')).toMatchObject({
      resolved: 'gemini-2.5-pro',
      reason: expect.stringMatching(/plans with the requested model/),
    });
    expect(route('gemini-2.5-flash', 'cost', 'act').resolved).toBe('gemini-2.5-flash-lite');
    expect(route('gemini-3-pro-preview', 'cost', 'act').resolved).toBe('gemini-3-flash-preview');
  });

  it('latency plans with the requested model and acts with the fastest sibling', () => {
    expect(route('gemini-2.5-pro', 'latency', 'plan').resolved).toBe('gemini-2.5-pro');
    expect(route('gemini-2.5-pro', 'latency', 'act')).toMatchObject({
      resolved: 'gemini-2.5-flash-lite',
      reason: expect.stringMatching(/fastest model of the gemini-2\.5 family/),
    });
  });

  it('keeps a model that is already the lightest of its family, and says so', () => {
    expect(route('gemini-2.5-flash-lite', 'cost', 'act')).toMatchObject({
      resolved: 'gemini-2.5-flash-lite',
      reason:
        'The cost policy keeps gemini-2.5-flash-lite, already the cheapest model of the gemini-2.5 family.',
    });
  });

  it('recovers with the requested model whatever the policy', () => {
    for (const policy of ['cost', 'latency', 'quality'] as const) {
      const decision = route('gemini-2.5-pro', policy, 'recover');
      expect(decision.resolved).toBe('gemini-2.5-pro');
      expect(decision.reason).toMatch(/final-warning turn/);
    }
  });

  it('keeps an unknown model as asked and says why', () => {
    expect(route('gemini-9-ultra', 'cost', 'act')).toMatchObject({
      requested: 'gemini-9-ultra',
      resolved: 'gemini-9-ultra',
      reason: "gemini-9-ultra is not in Deputy's model catalogue, so it is used as requested.",
    });
  });

  it('accepts the API prefix models/ on a known model', () => {
    expect(route('models/gemini-2.5-pro', 'cost', 'act').resolved).toBe('gemini-2.5-flash-lite');
    expect(route('models/gemini-2.5-pro', 'quality', 'act').resolved).toBe('models/gemini-2.5-pro');
  });

  it.each(['', '   ', 'gemini 2.5', '../etc', 'x'.repeat(200), 'gemini\n2.5'])(
    'falls back to the safe default for %j',
    (requested) => {
      const decision = route(requested, 'quality', 'plan');
      expect(decision.requested).toBe(requested);
      expect(decision.resolved).toBe(DEFAULT_MODEL);
      expect(decision.reason).toMatch(/safe default/);
    },
  );

  it('gives one readable sentence for every branch', () => {
    const models = ['gemini-2.5-pro', 'gemini-2.5-flash-lite', 'unknown-model', ''];
    for (const requested of models) {
      for (const policy of ['cost', 'latency', 'quality'] as const) {
        for (const phase of ['plan', 'act', 'recover'] as const) {
          const { reason } = route(requested, policy, phase);
          expect(reason).toMatch(/^[A-Z\w].*\.$/);
          expect(reason.split(/\.\s/)).toHaveLength(1);
        }
      }
    }
  });
});
