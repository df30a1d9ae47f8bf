import { createStore, type StoreApi } from 'zustand/vanilla';
import type { DeputyClient } from '../../../../shared/contract';
import { toClientError } from '../../api/client-error';
import { noUndoWords } from '../audit/audit-words';
import { undoQuestion } from '../audit/undo-words';
import {
  decideUndo,
  isUndoUnderWay,
  requestUndo,
  UNDO_UNDER_WAY,
  type UndoAnswer,
  type UndoNotice,
  type UndoPrompt,
} from './undo-flow';

/** Where the undo asked for from one chat card stands. */
export interface CardUndo {
  /** The question it stopped at: before it reaches outside Deputy, over a later change, or its approval. */
  prompt: UndoPrompt | null;
  /** The words of the yes to a `confirm` question ("Delete the post"). */
  yes: string | null;
  /** What came of it, or why it failed, in words. */
  notice: UndoNotice | null;
  /** A request is on its way: a second press does nothing. */
  isBusy: boolean;
  /** Undone from here (the conversation hears it from the host too, and a reopened one reads it). */
  isUndone: boolean;
  /** Whether an undo of the action waits for approval, once this window knows better than the stored copy. */
  isWaiting: boolean | null;
}

export const idleCardUndo: CardUndo = {
  prompt: null,
  yes: null,
  notice: null,
  isBusy: false,
  isUndone: false,
  isWaiting: null,
};

export interface CardUndoState {
  /** By the ledger action of the card. */
  cards: Record<string, CardUndo>;
}

export interface CardUndoActions {
  /**
   * Undo pressed on a card: the action's entry is read first (undone elsewhere meanwhile, or an undo of it under
   * way there, it says so), and an undo
   * that reaches outside Deputy asks its question before anything is sent. `isWaiting`: an undo of it already
   * waits for approval, which is brought back instead.
   */
  start(actionId: string, isWaiting: boolean): Promise<void>;
  /** The undo itself (after its question); `force` undoes over a later change, which waits for approval. */
  undo(actionId: string, force?: boolean): Promise<void>;
  /** Decides the approval the undo waits for, as the viewer's Approve the undo and Reject do. */
  decide(actionId: string, decision: 'approve' | 'reject'): Promise<void>;
  /** Keep it: the question goes, nothing is undone. */
  keep(actionId: string): void;
  /** The undo's approval was decided elsewhere (the approvals list, a notification): its question goes. */
  settle(actionId: string): void;
  /**
   * The host said an undo of the action ended without undoing it (failed, turned down, expired), however it was
   * asked for: none waits any more, Undo is offered again, and `notice` says why.
   */
  heard(actionId: string, notice: UndoNotice): void;
  /**
   * The host said an undo of the action now waits for approval, however it was asked for (the audit trail, another
   * window): the card says it waits, and words left from an earlier try go.
   */
  waits(actionId: string): void;
  /** Follows what the host says of undos (`notice` run events) for the window's lifetime; returns the undo. */
  connect(): () => void;
}

export type CardUndoStore = StoreApi<CardUndoState & CardUndoActions>;

export function createCardUndoStore(client: DeputyClient): CardUndoStore {
  return createStore<CardUndoState & CardUndoActions>()((set, get) => {
    const card = (actionId: string): CardUndo => get().cards[actionId] ?? idleCardUndo;
    const change = (actionId: string, next: Partial<CardUndo>) =>
      set((state) => ({ cards: { ...state.cards, [actionId]: { ...card(actionId), ...next } } }));
    const failed = (actionId: string, text: string) =>
      change(actionId, { isBusy: false, prompt: null, notice: { text, isError: true } });

    const landed = (actionId: string, answer: UndoAnswer) => {
      if (answer.kind === 'failed') failed(actionId, answer.message);
      else if (answer.kind === 'asks')
        change(actionId, {
          isBusy: false,
          prompt: answer.prompt,
          notice: null,
          ...(answer.prompt.kind === 'approval' && { isWaiting: true }),
        });
      else
        change(actionId, {
          isBusy: false,
          prompt: null,
          isUndone: true,
          isWaiting: false,
          notice: { text: answer.message, isError: false },
        });
    };

    return {
      cards: {},

      async start(actionId, isWaiting) {
        if (card(actionId).isBusy || card(actionId).isUndone) return;
        change(actionId, { isBusy: true, notice: null });
        if (isWaiting) {
          landed(actionId, await requestUndo(client, actionId));
          return;
        }
        let read;
        try {
          read = await client.invoke('audit.get', { id: actionId });
        } catch (error) {
          failed(actionId, toClientError(error).message);
          return;
        }
        const { entry } = read;
        if (entry.status === 'rolled_back') {
          change(actionId, {
            isBusy: false,
            isUndone: true,
            notice: { text: 'This was already undone.', isError: false },
          });
          return;
        }
        // Asked for in another window and still being made: said before any question, which a yes to would only
        // be refused.
        if (isUndoUnderWay(entry, read.related)) {
          change(actionId, { isBusy: false, notice: { text: UNDO_UNDER_WAY, isError: false } });
          return;
        }
        if (!entry.undo.isReversible) {
          failed(actionId, entry.undo.whyNot ?? noUndoWords(entry));
          return;
        }
        const question = undoQuestion(entry);
        if (!question) {
          landed(actionId, await requestUndo(client, actionId));
          return;
        }
        change(actionId, {
          isBusy: false,
          yes: question.yes,
          prompt: { entryId: actionId, kind: 'confirm', reason: question.question, approvalId: null },
        });
      },

      async undo(actionId, force = false) {
        if (card(actionId).isBusy) return;
        change(actionId, { isBusy: true });
        landed(actionId, await requestUndo(client, actionId, force));
      },

      async decide(actionId, decision) {
        const { prompt, isBusy } = card(actionId);
        if (!prompt?.approvalId || isBusy) return;
        change(actionId, { isBusy: true });
        const notice = await decideUndo(client, prompt.approvalId, decision);
        const isUndone = decision === 'approve' && !notice.isError;
        change(actionId, { isBusy: false, prompt: null, notice, isUndone, isWaiting: false });
      },

      keep(actionId) {
        change(actionId, { prompt: null });
      },

      settle(actionId) {
        if (card(actionId).prompt?.kind === 'approval') change(actionId, { prompt: null, isWaiting: false });
      },

      heard(actionId, notice) {
        const { isUndone, prompt } = card(actionId);
        if (isUndone) return;
        // A question asked since (Undo pressed again) stays; only the approval that ended goes.
        change(actionId, { notice, isWaiting: false, ...(prompt?.kind === 'approval' && { prompt: null }) });
      },

      waits(actionId) {
        if (card(actionId).isUndone) return;
        // Words left from an earlier try (why it could not be undone) no longer say where it stands.
        change(actionId, { isWaiting: true, notice: null });
      },

      connect() {
        return client.on('run.events', {}, (event) => {
          if (event.type !== 'notice') return;
          if (event.undoNotDone)
            get().heard(event.actionId, { text: event.message, isError: event.undoNotDone === 'failed' });
          else if (event.isUndoWaiting) get().waits(event.actionId);
        });
      },
    };
  });
}
