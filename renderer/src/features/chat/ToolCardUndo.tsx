import { useEffect, useRef } from 'react';
import { isFocusLost } from '../../focus';
import { useApprovals, useCardUndo, useStores } from '../../stores';
import { asksBeforeUndo } from '../audit/undo-words';
import { idleCardUndo } from '../undo/card-undo-store';
import { UndoButton, UndoQuestions, useUndoFocus } from '../undo/UndoQuestions';
import type { ToolRow } from './timeline-rows';

/**
 * Undo on a done action's card, the same undo the audit viewer runs (same command, policy and checks): an undo
 * that reaches outside Deputy asks first, one over a later change asks whether to undo anyway, one held for
 * approval waits for it here and in Approvals. What came of it is said under it; a failure brings Undo back.
 */
export function ToolCardUndo({ call, isUndone }: { call: ToolRow; isUndone: boolean }) {
  const { cardUndo: store } = useStores();
  const undo = useCardUndo((state) => state.cards[call.id]) ?? idleCardUndo;
  const { prompt } = undo;
  const isWaiting = !isUndone && (undo.isWaiting ?? call.isUndoWaiting === true);
  // Decided elsewhere (Approvals, a notification): the question here goes with it.
  const approvalStatus = useApprovals((state) =>
    prompt?.approvalId ? state.known[prompt.approvalId]?.status : undefined,
  );
  useEffect(() => {
    if (approvalStatus && approvalStatus !== 'pending') store.getState().settle(call.id);
  }, [approvalStatus, store, call.id]);
  const notice = useRef<HTMLParagraphElement>(null);
  const focus = useUndoFocus(prompt?.kind ?? null, isUndone, () => {
    if (!isFocusLost()) return;
    // Not to an Undo shown only while the undo just approved is on its way (its approval heard before the
    // answer): it goes once the undo is done, and the focus with it.
    const button = focus.ref.current?.querySelector<HTMLElement>(
      '[data-testid="tool-call-undo"]:not([aria-disabled="true"])',
    );
    (button ?? notice.current)?.focus();
  });
  const canUndo = call.state === 'completed' && call.canUndo === true && !isUndone;
  // Nothing new on a card with no Undo: only an undo pressed here stays, with its words. (The host may say it
  // was undone before its answer arrives: the place of the words, which focus goes to, stays meanwhile.)
  if (!canUndo && !undo.notice && !prompt && !undo.isBusy) return null;
  return (
    <div className="tool-card__undo" {...focus}>
      {canUndo && !prompt && (
        <UndoButton
          isWaiting={isWaiting}
          asksFirst={asksBeforeUndo(call.tool)}
          testId="tool-call-undo"
          noteClass="tool-card__note"
          className="tool-card__undo-button"
          isBusy={undo.isBusy}
          onPress={() => void store.getState().start(call.id, isWaiting)}
        />
      )}
      <UndoQuestions
        asking={prompt}
        yes={undo.yes ?? undefined}
        testIdPrefix="tool-call-undo"
        onUndo={(force) => void store.getState().undo(call.id, force)}
        onDecide={(decision) => void store.getState().decide(call.id, decision)}
        onKeep={() => store.getState().keep(call.id)}
      />
      <p
        ref={notice}
        tabIndex={-1}
        className={undo.notice?.isError ? 'tool-card__undo-notice form-error' : 'tool-card__undo-notice'}
        role="status"
        data-testid="tool-call-undo-notice"
      >
        {undo.notice?.text}
      </p>
    </div>
  );
}
