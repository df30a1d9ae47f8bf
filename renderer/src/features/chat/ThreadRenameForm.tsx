import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
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
  // The whole title selected, to be typed over, and shown from its beginning: the caret at its start, as a
  // selection made backwards leaves it (autofocus would show the end of a long title).
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const box = input.current;
    if (!box) return;
    box.focus();
    box.setSelectionRange(0, box.value.length, 'backward');
    box.scrollLeft = 0;
  }, []);
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
        ref={input}
        id={id}
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
