import { useEffect, useId, useImperativeHandle, useRef, useState, type KeyboardEvent } from 'react';
import { checkAllowlistEntry } from './permissions';
import { FormError } from '../../components/FormParts';
import { focusPastRemoved } from '../../focus';
import type { DraftProps } from './pending-draft';

/**
 * Addresses and @domains delegated trust may write to without asking. An address typed and not added is the
 * form's draft: Save adds it (`draftRef`).
 */
export function AllowlistEditor({
  entries,
  onChange,
  draftRef,
  onDraftChange,
}: {
  entries: string[];
  onChange(entries: string[]): void;
} & DraftProps<string>) {
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();
  const inputRef = useRef<HTMLInputElement>(null);

  const check = () => {
    const checked = checkAllowlistEntry(draft, entries);
    if (checked.ok) return checked.value;
    setError(checked.message);
    inputRef.current?.focus();
    return null;
  };

  const add = () => {
    if (!draft.trim()) return;
    const entry = check();
    if (entry === null) return;
    onChange([...entries, entry]);
    setDraft('');
    setError(null);
  };

  const hasDraft = draft.trim() !== '';
  useEffect(() => onDraftChange?.(hasDraft), [onDraftChange, hasDraft]);
  useImperativeHandle(draftRef, () => ({
    take: () => {
      if (!hasDraft) return { ok: true, value: null };
      const entry = check();
      return entry === null ? { ok: false } : { ok: true, value: entry };
    },
    clear: () => setDraft(''),
  }));

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter adds the entry rather than submitting the whole form.
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  };

  return (
    <fieldset className="allowlist" data-testid="allowlist">
      <legend>Allowed recipients</legend>
      <p className="settings-form__note">
        With Delegated trust, Deputy may write to these people and domains without asking.
      </p>
      {entries.length > 0 ? (
        <ul className="chip-list">
          {entries.map((entry) => (
            <li key={entry} className="chip" data-testid="allowlist-entry">
              {entry}
              <button
                type="button"
                className="chip__remove"
                aria-label={`Remove ${entry}`}
                onClick={(event) => {
                  const list = event.currentTarget.closest('ul');
                  focusPastRemoved(
                    event.currentTarget,
                    list?.querySelectorAll<HTMLElement>('.chip__remove') ?? [],
                    inputRef.current,
                  );
                  onChange(entries.filter((item) => item !== entry));
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="settings-form__note">Nobody yet.</p>
      )}
      <div className="inline-field">
        <label className="visually-hidden" htmlFor={inputId}>
          Address or @domain to allow
        </label>
        <input
          ref={inputRef}
          id={inputId}
          value={draft}
          placeholder="sam@example.com or @example.com"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error !== null}
          aria-describedby={error ? errorId : undefined}
          data-testid="allowlist-input"
          onChange={(event) => {
            setDraft(event.target.value);
            setError(null);
          }}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="button" onClick={add} data-testid="allowlist-add">
          Add
        </button>
      </div>
      {error && <FormError id={errorId}>{error}</FormError>}
    </fieldset>
  );
}
