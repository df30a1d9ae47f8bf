import { useEffect, useId, useRef } from 'react';

/** Asked before a new message would cancel an approval the conversation is waiting on. */
export function SendAnywayPrompt({ onSend, onKeep }: { onSend(): void; onKeep(): void }) {
  const titleId = useId();
  // Focus on the safe answer: Enter pressed twice in a row must not cancel what waits for approval.
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => keepRef.current?.focus(), []);
  return (
    <div
      className="send-anyway"
      role="alertdialog"
      aria-labelledby={titleId}
      data-testid="send-anyway"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onKeep();
        }
      }}
    >
      <p id={titleId}>Send anyway and cancel the pending approval?</p>
      <button type="button" className="button button--primary" onClick={onSend}>
        Send anyway
      </button>
      <button ref={keepRef} type="button" className="button" onClick={onKeep}>
        Keep the approval
      </button>
    </div>
  );
}
