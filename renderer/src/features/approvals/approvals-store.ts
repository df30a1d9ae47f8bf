import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  Approval,
  ApprovalDecideInput,
  ApprovalsChangedEvent,
  DeputyClient,
} from '../../../../shared/contract';
import { toClientError } from '../../api/client-error';
import { readThreadTitle } from '../../api/thread-title';
import {
  applyApprovalsChanged,
  emptySnapshot,
  rememberApprovals,
  staleApprovalIds,
  type ApprovalsSnapshot,
} from './approvals-model';

export type DecisionKind = 'approve' | 'reject' | 'edit';

/** What this window did with one approval: the decision on its way, the last one accepted, what went wrong. */
export interface ApprovalActivity {
  inFlight: DecisionKind | null;
  accepted: DecisionKind | null;
  /** Why the last decision failed, in the host's words. */
  error: string | null;
  /** The host's `invalid_input` answer to edited arguments: shown in the editor, which stays open. */
  editError: string | null;
}

export interface ApprovalsState extends ApprovalsSnapshot {
  activity: Record<string, ApprovalActivity>;
  /** The pending list has arrived at least once. */
  hasPendingList: boolean;
  /** `approval.list {status:'all'}` has answered at least once. */
  hasLookedUp: boolean;
  isLookingUp: boolean;
  lookUpError: string | null;
  /**
   * The approval whose card should scroll into view, from its title, once it is on screen; and whether it takes
   * the keyboard too (not while the person is busy elsewhere in the window).
   */
  reveal: { approvalId: string; takesFocus: boolean } | null;
  /** Conversations' titles, by id, as looked up for approvals shown apart from their conversation. */
  threadTitles: Record<string, string>;
}

export interface ApprovalsActions {
  /** Follows `approvals.changed` for the window's lifetime; returns the undo. */
  connect(): () => void;
  remember(approval: Approval): void;
  /** Fetches recent approvals of every status, to find one the pending list does not hold. */
  lookUp(): Promise<void>;
  decide(input: ApprovalDecideInput): Promise<boolean>;
  edit(approvalId: string, args: Record<string, unknown>): Promise<boolean>;
  clearEditError(approvalId: string): void;
  requestReveal(approvalId: string, takesFocus: boolean): void;
  clearReveal(): void;
  /** Reads a conversation's title into `threadTitles`; without it, the approval is shown without one. */
  lookUpThreadTitle(threadId: string): Promise<void>;
  /**
   * Reads again every title already looked up: a conversation renamed while its approval is open shows its new
   * name. (The contract has no event for a rename, so the window asks when it regains focus or approvals change.)
   */
  refreshThreadTitles(): Promise<void>;
}

export type ApprovalsStore = StoreApi<ApprovalsState & ApprovalsActions>;

const LOOK_UP_LIMIT = 200;
/** Errors after which the card's state is stale: someone or something else decided first. */
const STALE_CODES = new Set(['approval_decided', 'approval_expired', 'not_found']);

export const idleActivity: ApprovalActivity = {
  inFlight: null,
  accepted: null,
  error: null,
  editError: null,
};

export interface ApprovalsStoreOptions {
  /** Told each `approvals.changed` as it arrives, so the other stores that show an approval's effect (the conversation list) follow it. */
  onChanged?: (event: ApprovalsChangedEvent) => void;
}

export function createApprovalsStore(
  client: DeputyClient,
  { onChanged }: ApprovalsStoreOptions = {},
): ApprovalsStore {
  let lookUpInFlight: Promise<void> | null = null;

  return createStore<ApprovalsState & ApprovalsActions>()((set, get) => {
    const setActivity = (approvalId: string, change: Partial<ApprovalActivity>) =>
      set((state) => ({
        activity: {
          ...state.activity,
          [approvalId]: { ...(state.activity[approvalId] ?? idleActivity), ...change },
        },
      }));

    const readTitle = async (threadId: string) => {
      try {
        const title = await readThreadTitle(client, threadId);
        set((state) =>
          state.threadTitles[threadId] === title
            ? state
            : { threadTitles: { ...state.threadTitles, [threadId]: title } },
        );
      } catch {
        // The approval is still whole without its conversation's title (or with the one it had).
      }
    };

    const remember = (approvals: Approval[]) => set((state) => rememberApprovals(state, approvals));

    /** The host took the decision: show it now rather than wait for the event that will confirm it. */
    const markDecided = (approvalId: string, status: 'approved' | 'rejected') => {
      const approval = get().known[approvalId];
      if (approval?.status === 'pending')
        remember([{ ...approval, status, decidedAt: new Date().toISOString() }]);
    };

    const send = async (
      approvalId: string,
      kind: DecisionKind,
      call: () => Promise<unknown>,
    ): Promise<boolean> => {
      if (get().activity[approvalId]?.inFlight) return false;
      setActivity(approvalId, { inFlight: kind, error: null, editError: null });
      try {
        await call();
        setActivity(approvalId, { inFlight: null, accepted: kind });
        markDecided(approvalId, kind === 'reject' ? 'rejected' : 'approved');
        return true;
      } catch (caught) {
        const error = toClientError(caught);
        if (kind === 'edit' && error.code === 'invalid_input') {
          setActivity(approvalId, { inFlight: null, editError: error.message });
          return false;
        }
        setActivity(approvalId, { inFlight: null, error: error.message });
        if (error.code === 'approval_expired') {
          const approval = get().known[approvalId];
          if (approval?.status === 'pending') remember([{ ...approval, status: 'expired' }]);
        }
        if (STALE_CODES.has(error.code)) await get().lookUp();
        return false;
      }
    };

    return {
      ...emptySnapshot(),
      activity: {},
      hasPendingList: false,
      hasLookedUp: false,
      isLookingUp: false,
      lookUpError: null,
      reveal: null,
      threadTitles: {},

      connect() {
        return client.on('approvals.changed', {}, (event) => {
          const stale = staleApprovalIds(get(), event);
          set((state) => ({ ...applyApprovalsChanged(state, event), hasPendingList: true }));
          if (stale.length > 0) void get().lookUp();
          void get().refreshThreadTitles();
          onChanged?.(event);
        });
      },

      async lookUpThreadTitle(threadId) {
        if (get().threadTitles[threadId] !== undefined) return;
        await readTitle(threadId);
      },

      async refreshThreadTitles() {
        await Promise.all(Object.keys(get().threadTitles).map(readTitle));
      },

      remember(approval) {
        remember([approval]);
      },

      lookUp() {
        // Several cards can ask at once (a thread with many waiting actions): one request answers them all.
        lookUpInFlight ??= (async () => {
          set({ isLookingUp: true });
          try {
            const { approvals } = await client.invoke('approval.list', {
              status: 'all',
              limit: LOOK_UP_LIMIT,
            });
            remember(approvals);
            set({ lookUpError: null });
          } catch (error) {
            set({ lookUpError: toClientError(error).message });
          } finally {
            set({ isLookingUp: false, hasLookedUp: true });
            lookUpInFlight = null;
          }
        })();
        return lookUpInFlight;
      },

      decide(input) {
        return send(input.approvalId, input.decision, () => client.invoke('approval.decide', input));
      },

      edit(approvalId, args) {
        return send(approvalId, 'edit', () => client.invoke('approval.edit', { approvalId, args }));
      },

      clearEditError(approvalId) {
        if (get().activity[approvalId]?.editError) setActivity(approvalId, { editError: null });
      },

      requestReveal(approvalId, takesFocus) {
        set({ reveal: { approvalId, takesFocus } });
      },

      clearReveal() {
        set({ reveal: null });
      },
    };
  });
}
