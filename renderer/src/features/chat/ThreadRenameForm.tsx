import { useId, useState, type FormEvent } from 'react';
import { useChat } from '../../stores';

/** The conversation's title in a box: Enter saves, Escape keeps the old one. */
export function ThreadRenameForm({
  threadId,
  title,
  onDone,
}: {
  threadId: string;
  title: string;
  onDone(): void;
}) {
  const renameThread = useChat((state) => state.renameThread);
  const [text, setText] = useState(title);
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const id = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return setError('Give the conversation a title.');
    setIsSaving(true);
    const failure = await renameThread(threadId, text.trim());
    setIsSaving(false);
    if (failure) setError(failure);
    else onDone();
  };
  return (
    <form
      className="thread-list__rename"
      data-testid="thread-rename-form"
      data-keeps-escape
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          onDone();
        }
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        New title
      </label>
      <input
        id={id}
        autoFocus
        maxLength={200}
        value={text}
        data-testid="thread-rename-input"
        onChange={(event) => setText(event.target.value)}
      />
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button button--small button--primary" disabled={isSaving}>
        {isSaving ? 'Saving…' : 'Save'}
      </button>
      <button type="button" className="button button--small" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
