import { createStore, type StoreApi } from 'zustand/vanilla';
import type { DeputyClient, Plan, ThreadDetail } from '../../../../shared/contract';
import { toClientError } from '../../api/client-error';
import { applyPlanEvent, isPlanBehind, madeBy } from './plans-model';

export interface PlansState {
  plans: Record<string, Plan>;
  /** The run whose request a plan sits under: the one that made it, though an answer goes on in a new run. */
  anchors: Record<string, string>;
  /** What is on its way for a plan (a button's label), and the last thing that went wrong. */
  busy: Record<string, string | null>;
  errors: Record<string, string | null>;
}

export interface PlansActions {
  /** Follows `plan` run events for the window's lifetime; returns the undo. */
  connect(): () => void;
  /** One plan, by id (the approval window shows the plan its approval belongs to). */
  load(planId: string): Promise<void>;
  /** Takes the plans of a stored conversation from its reading (the chat store's, when it opens one). */
  fromThread(detail: ThreadDetail): void;
  approve(planId: string): Promise<void>;
  approveStep(planId: string, actionIds: readonly string[]): Promise<void>;
  answer(planId: string, answer: string): Promise<void>;
  resume(planId: string): Promise<void>;
  cancel(planId: string): Promise<void>;
}

export type PlansStore = StoreApi<PlansState & PlansActions>;

export function createPlansStore(client: DeputyClient): PlansStore {
  return createStore<PlansState & PlansActions>()((set, get) => {
    // A command's answer is put unless the window already drew the plan further on from its events.
    const put = (plan: Plan) =>
      set((state) =>
        isPlanBehind(plan, state.plans[plan.id])
          ? state
          : {
              plans: { ...state.plans, [plan.id]: plan },
              anchors: { [plan.id]: plan.runId, ...state.anchors },
            },
      );
    const act = async (planId: string, label: string, work: () => Promise<Plan | null>) => {
      set((state) => ({
        busy: { ...state.busy, [planId]: label },
        errors: { ...state.errors, [planId]: null },
      }));
      try {
        const plan = await work();
        if (plan) put(plan);
      } catch (error) {
        set((state) => ({ errors: { ...state.errors, [planId]: toClientError(error).message } }));
      } finally {
        set((state) => ({ busy: { ...state.busy, [planId]: null } }));
      }
    };
    return {
      plans: {},
      anchors: {},
      busy: {},
      errors: {},
      connect() {
        return client.on('run.events', {}, (event) => {
          if (event.type !== 'plan') return;
          set((state) => ({
            plans: applyPlanEvent(state.plans, event),
            anchors: event.plan ? { [event.plan.id]: event.plan.runId, ...state.anchors } : state.anchors,
          }));
        });
      },
      async load(planId) {
        try {
          put((await client.invoke('plan.get', { planId })).plan);
        } catch (error) {
          set((state) => ({ errors: { ...state.errors, [planId]: toClientError(error).message } }));
        }
      },
      fromThread(detail) {
        const plans = detail.plans ?? [];
        if (plans.length === 0) return;
        // A plan the window already drew further on from its events keeps that: the reading is older news.
        set((state) => ({
          plans: {
            ...state.plans,
            ...Object.fromEntries(
              plans
                .filter((plan) => !isPlanBehind(plan, state.plans[plan.id]))
                .map((plan) => [plan.id, plan]),
            ),
          },
          // Under the request that made each, as live, not the answer's run that went on with it.
          anchors: {
            ...Object.fromEntries(plans.map((plan) => [plan.id, madeBy(plan, detail.runs)])),
            ...state.anchors,
          },
        }));
      },
      approve: (planId) =>
        act(planId, 'Approving…', async () => (await client.invoke('plan.approve', { planId })).plan),
      answer: (planId, answer) =>
        act(planId, 'Sending…', async () => (await client.invoke('plan.continue', { planId, answer })).plan),
      resume: (planId) =>
        act(planId, 'Continuing…', async () => (await client.invoke('plan.continue', { planId })).plan),
      cancel: (planId) =>
        act(planId, 'Cancelling…', async () => (await client.invoke('plan.cancel', { planId })).plan),
      approveStep: (planId, actionIds) =>
        act(planId, 'Approving…', async () => {
          const { approvals } = await client.invoke('approval.list', { status: 'pending' });
          const approval = approvals.find((candidate) => actionIds.includes(candidate.actionId));
          if (!approval) throw new Error('This step is no longer waiting for an approval.');
          await client.invoke('approval.decide', { approvalId: approval.id, decision: 'approve' });
          return get().plans[planId] ?? null;
        }),
    };
  });
}
