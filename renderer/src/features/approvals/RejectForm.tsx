import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { SubmitButton } from '../../components/FormParts';

/**
 * Reject, with an optional reason Deputy will see. The chat's approval card and the approvals
 * panel open the same form.
 */
export function RejectForm({
  isBusy,
  onReject,
  onCancel,
}: {
  isBusy: boolean;
  onReject(reason: string): void;
  onCancel(): void;
}) {
  const [reason, setReason] = useState('');
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onReject(reason.trim());
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      // The reject form is closed, not the run stopped.
      event.stopPropagation();
      onCancel();
    } else if (
      event.key === 'Enter' &&
      event.target instanceof HTMLTextAreaElement &&
      !event.shiftKey &&
      !event.nativeEvent.isComposing &&
      !isBusy
    ) {
      // Enter in the reason sends it, as in the composer; Shift+Enter is a new line. Only there: Enter on Cancel
      // presses Cancel, not Reject.
      event.preventDefault();
      onReject(reason.trim());
    }
  };
  return (
    <form
      className="approval-reject"
      onSubmit={submit}
      onKeyDown={onKeyDown}
      data-testid="approval-reject-form"
    >
      <label htmlFor={id}>Reason (optional, Deputy will see it; Enter rejects)</label>
      <textarea
        id={id}
        rows={2}
        maxLength={1_000}
        value={reason}
        autoFocus
        data-testid="approval-reject-reason"
        onChange={(event) => setReason(event.target.value)}
      />
      <div className="approval-card__actions">
        <SubmitButton
          isBusy={isBusy}
          label="Reject"
          busyLabel="Rejecting…"
          variant="stop"
          testId="approval-reject-confirm"
        />
        <button type="button" className="button" onClick={onCancel} disabled={isBusy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
