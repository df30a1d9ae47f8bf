import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { MEMORY_TEXT_MAX, type Memory } from '../../../../shared/contract';
import { FormError } from '../../components/FormParts';
import { useMemory } from '../../stores';
import { describeOrigin } from './memory-origin';

const formatDate = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

type Mode = 'view' | 'edit' | 'confirm-delete';

/** One memory: read, edited in place (Enter saves, Escape cancels), deleted after a confirmation. */
export function MemoryItem({ memory }: { memory: Memory }) {
  const [mode, setMode] = useState<Mode>('view');
  const [draft, setDraft] = useState(memory.text);
  const update = useMemory((state) => state.update);
  const remove = useMemory((state) => state.remove);
  const clearError = useMemory((state) => state.clearError);
  const inFlight = useMemory((state) => state.activity[memory.id]?.inFlight ?? null);
  const error = useMemory((state) => state.activity[memory.id]?.error ?? null);
  const editButton = useRef<HTMLButtonElement>(null);
  const shouldRefocus = useRef(false);
  const editorId = useId();
  const isBusy = inFlight !== null;

  // Back in view mode after editing, focus returns to where the user started, not to the top of the dialog.
  useEffect(() => {
    if (mode === 'view' && shouldRefocus.current) {
      shouldRefocus.current = false;
      editButton.current?.focus();
    }
  }, [mode]);

  const close = () => {
    shouldRefocus.current = true;
    clearError(memory.id);
    setMode('view');
  };

  const startEditing = () => {
    clearError(memory.id);
    setDraft(memory.text);
    setMode('edit');
  };

  const save = async () => {
    const text = draft.trim();
    if (text === '' || isBusy) return;
    // Saving an unconfirmed memory unchanged is how the person confirms it.
    if (text === memory.text && memory.confirmedAt !== null) return close();
    if (await update(memory.id, text)) close();
  };

  const onEditorKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape') {
      // Escape would otherwise close the whole Settings dialog, losing more than this edit.
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  };

  return (
    <li className="memory-item" data-testid="memory-item" data-memory-id={memory.id}>
      {mode === 'edit' ? (
        <div className="memory-item__editor">
          <label htmlFor={editorId} className="visually-hidden">
            Edit memory
          </label>
          <textarea
            id={editorId}
            value={draft}
            maxLength={MEMORY_TEXT_MAX}
            rows={Math.min(6, Math.max(2, Math.ceil(draft.length / 60)))}
            autoFocus
            disabled={isBusy}
            data-testid="memory-editor"
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onEditorKey}
          />
          <p className="settings-form__note">Enter saves, Shift+Enter starts a new line, Escape cancels.</p>
          <div className="memory-item__actions">
            <button
              type="button"
              className="button button--primary"
              disabled={isBusy || draft.trim() === ''}
              data-testid="memory-save"
              onClick={() => void save()}
            >
              {inFlight === 'save' ? 'Saving…' : 'Save'}
            </button>
            <button type="button" className="button" disabled={isBusy} onClick={close}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <>
          <p className="memory-item__text" data-testid="memory-text">
            {memory.text}
          </p>
          <p className="memory-item__meta">
            Saved {formatDate(memory.createdAt)}
            {memory.updatedAt !== memory.createdAt && ` · edited ${formatDate(memory.updatedAt)}`}
          </p>
          <p className="memory-item__meta" data-testid="memory-origin">
            {describeOrigin(memory)}
          </p>
          {mode === 'confirm-delete' ? (
            <div className="memory-item__actions" role="group" aria-label="Delete this memory?">
              <span>Delete this memory? Deputy will no longer recall it.</span>
              <button
                type="button"
                className="button button--stop"
                disabled={isBusy}
                autoFocus
                data-testid="memory-delete-confirm"
                onClick={() => void remove(memory.id)}
              >
                {inFlight === 'delete' ? 'Deleting…' : 'Delete'}
              </button>
              <button type="button" className="button" disabled={isBusy} onClick={close}>
                Keep
              </button>
            </div>
          ) : (
            <div className="memory-item__actions">
              <button
                ref={editButton}
                type="button"
                className="button"
                data-testid="memory-edit"
                onClick={startEditing}
              >
                Edit
              </button>
              <button
                type="button"
                className="button"
                data-testid="memory-delete"
                onClick={() => {
                  clearError(memory.id);
                  setMode('confirm-delete');
                }}
              >
                Delete
              </button>
            </div>
          )}
        </>
      )}
      {error && <FormError testId="memory-error">{error}</FormError>}
    </li>
  );
}
