import { useEffect } from 'react';
import { usePlans, useStores } from '../../stores';
import { PlanTree } from './PlanTree';

/**
 * In the approval window: the plan the approval is a step of, live, so the person sees the whole of it. The
 * approval's card above it is where its step is approved: the step says no second "Approve this step".
 */
export function PlanForApproval({ planId, actionId }: { planId: string; actionId: string }) {
  const stores = useStores();
  const plan = usePlans((state) => state.plans[planId]);
  useEffect(() => {
    const disconnect = stores.plans.getState().connect();
    void stores.plans.getState().load(planId);
    return disconnect;
  }, [stores, planId]);
  return plan ? <PlanTree plan={plan} shownApprovalFor={actionId} /> : null;
}
