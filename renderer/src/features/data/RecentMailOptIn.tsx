import { useEffect, useId, useState } from 'react';
import { FormError } from '../../components/FormParts';
import { useSettings, useStores } from '../../stores';
import { RECENT_MAIL_WORDS } from './data-words';

/**
 * Settings → Data: the opt-in to finding recent mail by meaning. It says plainly what is read, what is sent to
 * Gemini, what stays on this computer, and that turning it off removes it. Off until the person turns it on.
 */
export function RecentMailOptIn({ onChanged }: { onChanged: () => void }) {
  const { settings: store } = useStores();
  const isOn = useSettings((state) => state.settings?.embedRecentMail ?? null);
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const hintId = useId();

  useEffect(() => {
    if (store.getState().settings === null) void store.getState().load();
  }, [store]);

  const change = async (checked: boolean) => {
    setIsSaving(true);
    const failure = await store.getState().apply({ embedRecentMail: checked });
    setIsSaving(false);
    setError(failure);
    if (!failure) onChanged();
  };

  return (
    <div className="recent-mail-opt-in">
      <label className="checkbox-option">
        <input
          type="checkbox"
          checked={isOn === true}
          disabled={isOn === null || isSaving}
          aria-describedby={hintId}
          data-testid="embed-recent-mail"
          onChange={(event) => void change(event.target.checked)}
        />
        {RECENT_MAIL_WORDS.label}
      </label>
      <p id={hintId} className="settings-form__note">
        {RECENT_MAIL_WORDS.hint}
      </p>
      {error && <FormError testId="embed-recent-mail-error">{error}</FormError>}
    </div>
  );
}
