import type { PlanDesk } from '../plan-desk';
import type { HandlersFor } from './handlers';

/** The plans domain: a plan's tree, its approval, its question answered, and its end. */
export function planChannels(
  plans: PlanDesk,
): HandlersFor<'plan.get' | 'plan.approve' | 'plan.continue' | 'plan.cancel'> {
  return {
    'plan.get': (input) => plans.get(input.planId),
    'plan.approve': (input) => plans.approve(input.planId),
    'plan.continue': (input) => plans.continue(input),
    'plan.cancel': (input) => plans.cancel(input.planId),
  };
}
