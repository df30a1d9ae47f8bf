import { useEffect, useRef, type ReactNode } from 'react';
import type { AuditEntry } from '../../../../shared/contract';
import { isFocusLost } from '../../focus';
import { useAudit } from '../../stores';
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
  const bar = useRef<HTMLDivElement>(null);
  const hadFocus = useRef(false);
  const askingKind = asking?.kind ?? null;
  useEffect(() => {
    if (!hadFocus.current) return;
    // The question itself, not its first button: a second Enter must not undo over a later change.
    if (askingKind) bar.current?.querySelector<HTMLElement>('.audit-undo__question')?.focus();
    else if (isFocusLost()) document.getElementById('audit-detail-title')?.focus();
    // Acted on once: a later change of status (decided from another window) leaves focus where it is.
    if (!askingKind) hadFocus.current = false;
  }, [askingKind, entry.status]);
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
    <div
      className="audit-undo"
      ref={bar}
      onFocus={() => {
        hadFocus.current = true;
      }}
      onBlur={(event) => {
        if (event.relatedTarget)
          hadFocus.current = bar.current?.contains(event.relatedTarget as Node) ?? false;
      }}
    >
      {entry.undo.isReversible ? (
        !asking && (
          <>
            {isUndoWaiting && (
              <p className="audit-muted" data-testid="audit-undo-pending">
                An undo of this waits for your approval.
              </p>
            )}
            <button
              type="button"
              className="button"
              data-testid="audit-undo"
              // Asked again while its approval waits, the same approval comes back: no second question.
              onClick={() => (question && !isUndoWaiting ? askUndo(question.question) : void undo())}
            >
              {isUndoWaiting ? 'Answer the undo…' : question ? 'Undo…' : 'Undo'}
            </button>
          </>
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
      {(asking?.kind === 'confirm' || asking?.kind === 'changed_since') && (
        <Question {...YES_OR_KEEP[asking.kind]} text={asking.reason} onEscape={cancel}>
          <button
            type="button"
            className="button"
            data-testid={YES_OR_KEEP[asking.kind].yesTestId}
            onClick={() => void undo(asking.kind === 'changed_since')}
          >
            {asking.kind === 'confirm' ? (question?.yes ?? 'Undo') : 'Undo anyway'}
          </button>
          <button type="button" className="button" onClick={cancel}>
            Keep it
          </button>
        </Question>
      )}
      {asking?.kind === 'approval' && (
        <Question label="The undo waits for your approval" testId="audit-undo-waiting" text={asking.reason}>
          <button
            type="button"
            className="button button--primary"
            data-testid="audit-undo-approve"
            onClick={() => void decideUndo('approve')}
          >
            Approve the undo
          </button>
          <button type="button" className="button" onClick={() => void decideUndo('reject')}>
            Reject
          </button>
        </Question>
      )}
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

/** The two questions answered by undoing or keeping it: before an undo outside Deputy, and over a later change. */
const YES_OR_KEEP = {
  confirm: { label: 'Undo this?', testId: 'audit-undo-confirm', yesTestId: 'audit-undo-confirm-yes' },
  changed_since: { label: 'It changed since', testId: 'audit-undo-changed', yesTestId: 'audit-undo-force' },
} as const;

/** A question the undo stops at, and its answers; focus goes to its words (`.audit-undo__question`). */
function Question(props: {
  label: string;
  testId: string;
  text: string;
  children: ReactNode;
  /** Escape answers "keep it", where that is an answer (an approval is decided only by its buttons). */
  onEscape?: () => void;
}) {
  return (
    <div
      className="audit-undo__confirm"
      role="group"
      aria-label={props.label}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !props.onEscape) return;
        event.preventDefault();
        props.onEscape();
      }}
    >
      <p className="audit-undo__question" tabIndex={-1} data-testid={props.testId}>
        {props.text}
      </p>
      {props.children}
    </div>
  );
}

/** An undo held for the person's yes: not one the rules let run, nor one approved and still running. */
const isWaitingUndo = (entry: AuditEntry): boolean =>
  entry.kind === 'undo' &&
  entry.status === 'pending' &&
  entry.authority.decision === 'require_approval' &&
  !entry.authority.approvedBy;
