import { useEffect, useRef, type ReactNode } from 'react';
import { useFocusWithin } from '../../use-focus-within';
import type { UndoPrompt } from './undo-flow';
import './undo.css';

/**
 * Undo's button, saying "Undo…" when a question comes first, and, while an undo of the action waits for the
 * person's approval, saying so beside it (pressed again, the same approval comes back). Test ids are
 * `<testId>` and `<testId>-pending`.
 */
export function UndoButton(props: {
  isWaiting: boolean;
  asksFirst: boolean;
  testId: string;
  /** For the words beside it, quiet where it is shown. */
  noteClass: string;
  className?: string;
  /** A request is on its way: pressing does nothing (not `disabled`, which would drop the keyboard's focus). */
  isBusy?: boolean;
  onPress(): void;
}) {
  return (
    <>
      {props.isWaiting && (
        <p className={props.noteClass} data-testid={`${props.testId}-pending`}>
          An undo of this waits for your approval.
        </p>
      )}
      <button
        type="button"
        className={props.className ? `button ${props.className}` : 'button'}
        data-testid={props.testId}
        aria-disabled={props.isBusy || undefined}
        onClick={props.onPress}
      >
        {props.isWaiting ? 'Answer the undo…' : props.asksFirst ? 'Undo…' : 'Undo'}
      </button>
    </>
  );
}

/**
 * The questions an undo stops at, the same in the audit viewer and on a chat card: before an undo that reaches
 * outside Deputy (`yes` is its button's words), over a later change (undo anyway), and the approval it waits for.
 * Test ids are `<testIdPrefix>-confirm`, `-confirm-yes`, `-changed`, `-force`, `-waiting`, `-approve`.
 */
export function UndoQuestions(props: {
  asking: UndoPrompt | null;
  yes: string | undefined;
  testIdPrefix: string;
  onUndo(force: boolean): void;
  onDecide(decision: 'approve' | 'reject'): void;
  onKeep(): void;
}) {
  const { asking, testIdPrefix: prefix } = props;
  if (asking?.kind === 'approval')
    return (
      <Question label="The undo waits for your approval" testId={`${prefix}-waiting`} text={asking.reason}>
        <button
          type="button"
          className="button button--primary"
          data-testid={`${prefix}-approve`}
          onClick={() => props.onDecide('approve')}
        >
          Approve the undo
        </button>
        <button type="button" className="button" onClick={() => props.onDecide('reject')}>
          Reject
        </button>
      </Question>
    );
  if (!asking) return null;
  const isConfirm = asking.kind === 'confirm';
  return (
    <Question
      label={isConfirm ? 'Undo this?' : 'It changed since'}
      testId={`${prefix}-${isConfirm ? 'confirm' : 'changed'}`}
      text={asking.reason}
      onEscape={props.onKeep}
    >
      <button
        type="button"
        className="button"
        data-testid={`${prefix}-${isConfirm ? 'confirm-yes' : 'force'}`}
        onClick={() => props.onUndo(!isConfirm)}
      >
        {isConfirm ? (props.yes ?? 'Undo') : 'Undo anyway'}
      </button>
      <button type="button" className="button" onClick={props.onKeep}>
        Keep it
      </button>
    </Question>
  );
}

/** A question the undo stops at, and its answers; focus goes to its words (`.undo-question__text`). */
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
      className="undo-question"
      role="group"
      aria-label={props.label}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !props.onEscape) return;
        event.preventDefault();
        props.onEscape();
      }}
    >
      <p className="undo-question__text" tabIndex={-1} data-testid={props.testId}>
        {props.text}
      </p>
      {props.children}
    </div>
  );
}

/**
 * Focus follows an undo the person moves on with the keyboard (Undo → its question → done): to the question's
 * words when one appears (not its first button: a second Enter must not undo over a later change), and to
 * `onAnswered`'s place when it is answered. `settled` is what changes when the undo is done (a status).
 * Spread the answer on the element holding Undo and its questions.
 */
export function useUndoFocus(
  askingKind: UndoPrompt['kind'] | null,
  settled: unknown,
  onAnswered: () => void,
) {
  const ref = useRef<HTMLDivElement>(null);
  const { wasInside: hadFocus, handlers } = useFocusWithin();
  const answered = useRef(onAnswered);
  answered.current = onAnswered;
  useEffect(() => {
    if (!hadFocus.current) return;
    if (askingKind) ref.current?.querySelector<HTMLElement>('.undo-question__text')?.focus();
    else answered.current();
    // Acted on once: a later change of status (decided from another window) leaves focus where it is.
    if (!askingKind) hadFocus.current = false;
  }, [askingKind, settled, hadFocus]);
  return { ref, ...handlers };
}
