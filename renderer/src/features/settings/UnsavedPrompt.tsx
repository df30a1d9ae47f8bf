import { useEffect, useRef } from 'react';

/** Asked when Settings would close over changes the person typed and did not save. */
export function UnsavedPrompt({ onKeepEditing, onDiscard }: { onKeepEditing(): void; onDiscard(): void }) {
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => keepRef.current?.focus(), []);
  return (
    <div className="settings-unsaved" role="alert" data-testid="settings-unsaved">
      <p>You have changes you haven’t saved. Close without saving them?</p>
      <button ref={keepRef} type="button" className="button button--primary" onClick={onKeepEditing}>
        Keep editing
      </button>
      <button type="button" className="button" data-testid="settings-discard" onClick={onDiscard}>
        Discard changes
      </button>
    </div>
  );
}
