import { useEffect, useState } from 'react';
import {
  withSwitches,
  type DeputyShell,
  type DesktopPreferencesChange,
  type DesktopSettings,
  type NotificationKind,
} from '../../../../shared/shell';
import { FormError } from '../../components/FormParts';
import { acceleratorLabel } from './accelerator';
import { ShortcutRecorder } from './ShortcutRecorder';

const NOTIFICATION_LABELS: Readonly<Record<NotificationKind, string>> = {
  approvalNeeded: 'When an approval is needed',
  runFinished: 'When a run finishes or fails while Deputy is in the background',
  limitReached: 'When a rate limit or the budget is reached',
};

/**
 * Settings → Desktop: the shell's own preferences (kept by the desktop app, not the core), each applied as
 * soon as it is changed. Only inside the desktop app: a browser on the headless host has no tray or keys.
 */
export function DesktopPanel({ shell }: { shell: DeputyShell }) {
  const [settings, setSettings] = useState<DesktopSettings | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  useEffect(() => {
    let isCurrent = true;
    shell
      .getDesktopSettings()
      .then((read) => isCurrent && setSettings(read))
      .catch(() => isCurrent && setProblem('Deputy could not read its desktop settings.'));
    return () => {
      isCurrent = false;
    };
  }, [shell]);

  const change = async (request: DesktopPreferencesChange, done: string) => {
    setIsBusy(true);
    setSaved(null);
    // A switch moves at once; the shell's answer (the preferences as kept) replaces it a moment later.
    setSettings(
      (current) => current && { ...current, preferences: withSwitches(current.preferences, request) },
    );
    try {
      const result = await shell.changeDesktopPreferences(request);
      setSettings(result.settings);
      setProblem(result.problem);
      if (!result.problem) setSaved(done);
    } catch {
      setProblem('Deputy could not save that. Try again.');
    } finally {
      setIsBusy(false);
    }
  };

  if (!settings) {
    return problem ? <FormError testId="desktop-error">{problem}</FormError> : <p role="status">Loading…</p>;
  }
  const { preferences, keyNames } = settings;
  return (
    <div className="settings-form" data-testid="desktop-settings">
      <ShortcutRecorder
        shortcut={preferences.quickPromptShortcut}
        keyNames={keyNames}
        isBusy={isBusy}
        onRecorded={(accelerator) =>
          void change(
            { quickPromptShortcut: accelerator },
            `${acceleratorLabel(accelerator, keyNames)} now opens the quick prompt.`,
          )
        }
      />
      {problem && <FormError testId="desktop-error">{problem}</FormError>}
      {saved && !problem && (
        <p className="form-success" role="status" data-testid="desktop-saved">
          {saved}
        </p>
      )}
      <label className="checkbox-option">
        <input
          type="checkbox"
          checked={preferences.showTray}
          disabled={isBusy}
          onChange={(event) =>
            void change(
              { showTray: event.target.checked },
              event.target.checked ? 'The tray icon is shown.' : 'The tray icon is hidden.',
            )
          }
        />
        Show Deputy in the tray (the menu bar on a Mac)
      </label>
      {settings.canOpenAtLogin ? (
        <label className="checkbox-option">
          <input
            type="checkbox"
            checked={preferences.launchAtLogin}
            disabled={isBusy}
            onChange={(event) =>
              void change(
                { launchAtLogin: event.target.checked },
                event.target.checked ? 'Deputy opens when you log in.' : 'Deputy no longer opens at login.',
              )
            }
          />
          Open Deputy when I log in
        </label>
      ) : (
        <p className="settings-form__note">
          Opening at login is set by your desktop on Linux (its “Startup Applications” settings).
        </p>
      )}
      <fieldset className="settings-form__group">
        <legend>Notifications</legend>
        {(Object.keys(NOTIFICATION_LABELS) as NotificationKind[]).map((kind) => (
          <label key={kind} className="checkbox-option">
            <input
              type="checkbox"
              checked={preferences.notifications[kind]}
              disabled={isBusy}
              onChange={(event) =>
                void change({ notifications: { [kind]: event.target.checked } }, 'Notifications saved.')
              }
              data-testid={`notify-${kind}`}
            />
            {NOTIFICATION_LABELS[kind]}
          </label>
        ))}
      </fieldset>
    </div>
  );
}
