import type { RoutingPolicy } from '../../shared/contract';
import { DEFAULT_MODEL, MODEL_PROFILES, profileOf, type ModelTier } from '../llm/model-config';

/**
 * Which model answers the next turn (Keep-Up §5.7). The person picks a model and a policy; routing may
 * hand the routine reading of tool results to a lighter model of the same family, and says why, so the
 * decision can be recorded in the event log.
 */

/** plan: answering a prompt, deciding what to do; act: reading tool results; recover: the final-warning turn. */
export type RunPhase = 'plan' | 'act' | 'recover';

export interface RoutingDecision {
  requested: string;
  resolved: string;
  /** One sentence a person can read in the run's history. */
  reason: string;
  policy: RoutingPolicy;
  phase: RunPhase;
}

// Gemini's lighter tiers are both the cheaper and the faster ones.
const TIER_WEIGHT: Record<ModelTier, number> = { lite: 0, flash: 1, pro: 2 };

// An API model name: letters, digits, dots, dashes, underscores, with the API's optional prefix.
const MODEL_NAME = /^(?:models\/)?[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Resolves the model for one turn; never throws, an unusable name falls back to the safe default. */
export function routeModel(input: {
  requested: string;
  phase: RunPhase;
  policy: RoutingPolicy;
}): RoutingDecision {
  const { requested, phase, policy } = input;
  const decide = (resolved: string, reason: string): RoutingDecision => ({
    requested,
    resolved,
    reason,
    policy,
    phase,
  });
  const name = requested.trim();
  if (!MODEL_NAME.test(name)) {
    return decide(
      DEFAULT_MODEL,
      `The requested model name is empty or not valid, so the safe default ${DEFAULT_MODEL} is used.`,
    );
  }
  const profile = profileOf(name);
  if (profile === null) {
    return decide(name, `${name} is not in Deputy's model catalogue, so it is used as requested.`);
  }
  if (phase === 'recover') {
    return decide(name, `The final-warning turn uses the requested model, ${name}, whatever the policy.`);
  }
  if (policy === 'quality') {
    return decide(name, `The quality policy always uses the requested model, ${name}.`);
  }
  const aim = policy === 'cost' ? 'cheapest' : 'fastest';
  if (phase === 'plan') {
    return decide(
      name,
      `The ${policy} policy plans with the requested model, ${name}, and only reads tool results with a lighter one.`,
    );
  }
  const lighter = lightestSibling(profile.family);
  if (lighter === null || lighter.weight >= TIER_WEIGHT[profile.tier]) {
    return decide(
      name,
      `The ${policy} policy keeps ${name}, already the ${aim} model of the ${profile.family} family.`,
    );
  }
  return decide(
    lighter.name,
    `The ${policy} policy reads tool results with ${lighter.name}, the ${aim} model of the ${profile.family} family, instead of ${name}.`,
  );
}

function lightestSibling(family: string): { name: string; weight: number } | null {
  let best: { name: string; weight: number } | null = null;
  for (const [name, profile] of Object.entries(MODEL_PROFILES)) {
    const weight = TIER_WEIGHT[profile.tier];
    if (profile.family === family && (best === null || weight < best.weight)) best = { name, weight };
  }
  return best;
}
