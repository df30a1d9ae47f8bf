import type { AuditEntry } from '../../../../shared/contract';
import { isFocusLost } from '../../focus';
import { useAudit } from '../../stores';
import { UndoButton, UndoQuestions, useUndoFocus } from '../undo/UndoQuestions';
import { isWaitingUndo } from '../undo/undo-flow';
import { noUndoWords } from './audit-words';
import { undoQuestion } from './undo-words';

/**
 * Undo, and what may stand before it: a question when the undo reaches outside Deputy (a Slack post deleted), a
 * later change it would overwrite (the person may undo anyway), or the approval it waits for (decided here or
 * wherever approvals show). Or why there is no undo, with the way to the undo that was made, or to what it undid.
 */
export function UndoBar({ entry, related }: { entry: AuditEntry; related: readonly AuditEntry[] }) {
  // An undo of this entry asked for before and still waiting (it is in the same run): say so beside Undo.
  const isUndoWaiting = related.some((other) => other.undo.undoOf === entry.id && isWaitingUndo(other));
  const undo = useAudit((state) => state.undo);
  const askUndo = useAudit((state) => state.askUndo);
  const decideUndo = useAudit((state) => state.decideUndo);
  const cancel = useAudit((state) => state.cancelUndo);
  const prompt = useAudit((state) => state.undoPrompt);
  const notice = useAudit((state) => state.notice);
  const select = useAudit((state) => state.select);
  const asking = prompt?.entryId === entry.id ? prompt : null;
  const question = undoQuestion(entry);
  // The buttons the person pressed go away as the undo moves on (Undo → its question → done). Focus follows:
  // to the question's words when it appears, and to the entry's title when it is answered.
  const focus = useUndoFocus(asking?.kind ?? null, entry.status, () => {
    if (isFocusLost()) document.getElementById('audit-detail-title')?.focus();
  });
  const open = (id: string | null, words: string, testId: string) =>
    id && (
      <>
        {' '}
        <button type="button" className="link-button" data-testid={testId} onClick={() => void select(id)}>
          {words}
        </button>
      </>
    );
  return (
    <div className="audit-undo" {...focus}>
      {entry.undo.isReversible ? (
        !asking && (
          <UndoButton
            isWaiting={isUndoWaiting}
            asksFirst={question !== null}
            testId="audit-undo"
            noteClass="audit-muted"
            // Asked again while its approval waits, the same approval comes back: no second question.
            onPress={() => (question && !isUndoWaiting ? askUndo(question.question) : void undo())}
          />
        )
      ) : (
        <p className="audit-muted" data-testid="audit-undo-why-not">
          {entry.status === 'rolled_back'
            ? 'This was undone.'
            : isWaitingUndo(entry)
              ? 'This undo waits for your approval, in Approvals or on the action it undoes.'
              : (entry.undo.whyNot ?? noUndoWords(entry))}
          {entry.status === 'rolled_back' && open(entry.undo.undoneBy, 'Open the undo', 'audit-open-undo')}
          {entry.kind === 'undo' &&
            open(
              entry.undo.undoOf,
              isWaitingUndo(entry) ? 'Open that action' : 'Open the action it undoes',
              'audit-open-undone',
            )}
        </p>
      )}
      <UndoQuestions
        asking={asking}
        yes={question?.yes}
        testIdPrefix="audit-undo"
        onUndo={(force) => void undo(force)}
        onDecide={(decision) => void decideUndo(decision)}
        onKeep={cancel}
      />
      <p
        className={notice?.isError ? 'audit-notice audit-notice--error' : 'audit-notice'}
        role="status"
        data-testid="audit-notice"
      >
        {notice?.text}
      </p>
    </div>
  );
}
