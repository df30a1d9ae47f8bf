import { useEffect, useRef, useState } from 'react';
import type { ThreadSummary } from '../../../../shared/contract';
import { useChat } from '../../stores';
import { lastRunNote } from './run-status';
import { isRunActive } from './timeline';
import { ThreadRenameForm } from './ThreadRenameForm';
import { ownTitle, type ThreadName } from './thread-names';
import { isFocusLost } from '../../focus';
import { useInlineQuestion } from '../../use-inline-question';

/**
 * One conversation in the list: opens it, or deletes it after a confirmation that names it. `name`: how its row
 * reads, told apart from the rows around it (threadNames).
 */
export function ThreadItem({
  thread,
  name,
  isActive,
}: {
  thread: ThreadSummary;
  name: ThreadName;
  isActive: boolean;
}) {
  // Keeping the conversation returns focus to its Delete button, not to the top of the page.
  const {
    isAsking: isConfirming,
    setIsAsking: setIsConfirming,
    keep,
    askButton: deleteButton,
    onKeyDown: onQuestionKey,
  } = useInlineQuestion();
  const [isRenaming, setIsRenaming] = useState(false);
  const openThread = useChat((state) => state.openThread);
  const deleteThread = useChat((state) => state.deleteThread);
  const isDeleting = useChat((state) => state.deletingThreadId === thread.id);
  const { title, label } = name;
  const isRunning = thread.lastRunStatus !== null && isRunActive(thread.lastRunStatus);
  const note = lastRunNote(thread);

  // Renamed or not, focus goes back to Rename when the box closes.
  const renameButton = useRef<HTMLButtonElement>(null);
  const wasRenaming = useRef(false);
  // Not when the person has gone elsewhere meanwhile (a slow save): only from the row, or from nowhere.
  const row = useRef<HTMLLIElement>(null);
  useEffect(() => {
    const isFocusHere = isFocusLost() || (row.current?.contains(document.activeElement) ?? false);
    if (!isRenaming && wasRenaming.current && isFocusHere) renameButton.current?.focus();
    wasRenaming.current = isRenaming;
  }, [isRenaming]);

  return (
    <li ref={row} className="thread-list__row" data-testid="thread-row" data-thread-id={thread.id}>
      {isRenaming ? (
        <ThreadRenameForm threadId={thread.id} title={ownTitle(thread)} onDone={() => setIsRenaming(false)} />
      ) : (
        <button
          type="button"
          className="thread-list__item"
          data-testid="thread-item"
          data-thread-id={thread.id}
          aria-current={isActive ? 'page' : undefined}
          onClick={() => void openThread(thread.id)}
        >
          <span className="thread-list__title">{title}</span>
          <span className="thread-list__meta">
            {name.when}
            {note && ` · ${note}`}
          </span>
        </button>
      )}
      {isRenaming ? null : isConfirming ? (
        <div
          className="thread-list__confirm"
          role="group"
          data-keeps-escape
          aria-label={`Delete ${label}?`}
          onKeyDown={onQuestionKey}
        >
          <p>
            Delete this conversation for good?
            {isRunning && ' Its running request is stopped first.'}
          </p>
          <button
            type="button"
            className="button button--stop"
            autoFocus
            disabled={isDeleting}
            data-testid="thread-delete-confirm"
            onClick={() =>
              void deleteThread(thread.id).then((isDeleted) => {
                // The conversation, and this button, are gone: the keyboard goes on at New conversation, or in
                // the message box when it was the open one (a new one opens, and the drawer closes).
                if (!isDeleted || !isFocusLost()) return;
                const next = isActive
                  ? document.getElementById('composer-input')
                  : document.querySelector<HTMLElement>('[data-testid="new-conversation"]');
                next?.focus();
              })
            }
          >
            {isDeleting ? 'Deleting…' : 'Delete'}
          </button>
          <button type="button" className="button" disabled={isDeleting} onClick={keep}>
            Keep
          </button>
        </div>
      ) : (
        <span className="thread-list__actions">
          <button
            ref={renameButton}
            type="button"
            className="thread-list__delete"
            aria-label={`Rename ${label}`}
            data-testid="thread-rename"
            onClick={() => setIsRenaming(true)}
          >
            Rename
          </button>
          <button
            ref={deleteButton}
            type="button"
            className="thread-list__delete"
            aria-label={`Delete ${label}`}
            title="Delete conversation"
            data-testid="thread-delete"
            onClick={() => setIsConfirming(true)}
          >
            Delete
          </button>
        </span>
      )}
    </li>
  );
}
