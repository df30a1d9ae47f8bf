import { useEffect, useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useModalDialog } from '../../use-modal-dialog';
import {
  LOOP_STEPS,
  type ConnectionName,
  type Settings,
  type SettingsPatch,
} from '../../../../shared/contract';
import { useSettings, useStores } from '../../stores';
import { PermissionsForm } from './PermissionsForm';
import { FormError, SubmitButton } from '../../components/FormParts';
import { RunsFieldset } from './RunsFieldset';
import { UnsavedPrompt } from './UnsavedPrompt';
import { runsPatch, toRunValues, type RunValues } from './run-settings';
import { ConnectionsPanel } from '../connections/ConnectionsPanel';
import { MemoryPanel } from '../memory/MemoryPanel';
import { DataPanel } from '../data/DataPanel';
import { ModelPicker } from '../usage/ModelPicker';
import { UsagePanel } from '../usage/UsagePanel';
import { AgentsPanel } from '../agents/AgentsPanel';
import { ExtensionsPanel } from '../extensions/ExtensionsPanel';
import { DesktopPanel } from '../desktop/DesktopPanel';

const timeZones = (): string[] => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
};

function changedFields(settings: Settings, form: FormValues): SettingsPatch {
  const steps = Number(form.maxLoopSteps);
  return {
    ...(form.model !== settings.model && { model: form.model }),
    ...(form.timezone !== settings.timezone && { timezone: form.timezone }),
    ...(form.userName !== settings.userName && { userName: form.userName }),
    ...(form.userEmail !== settings.userEmail && { userEmail: form.userEmail }),
    ...(form.preferences !== settings.preferences && { preferences: form.preferences }),
    ...(steps !== settings.maxLoopSteps && { maxLoopSteps: steps }),
  };
}

interface FormValues {
  model: string;
  timezone: string;
  userName: string;
  userEmail: string;
  preferences: string;
  maxLoopSteps: string;
}

const toForm = (settings: Settings): FormValues => ({
  model: settings.model,
  timezone: settings.timezone,
  userName: settings.userName,
  userEmail: settings.userEmail,
  preferences: settings.preferences,
  maxLoopSteps: String(settings.maxLoopSteps),
});

function SettingsForm({ settings }: { settings: Settings }) {
  const [form, setForm] = useState(() => toForm(settings));
  const [runs, setRuns] = useState(() => toRunValues(settings));
  // A number the form itself refused; the host's refusals arrive as `saveError`.
  const [checkError, setCheckError] = useState<string | null>(null);
  const [isSaved, setIsSaved] = useState(false);
  const save = useSettings((state) => state.save);
  const isSaving = useSettings((state) => state.isSaving);
  const saveError = useSettings((state) => state.saveError);
  const clearSaveError = useSettings((state) => state.clearSaveError);
  const zonesId = useId();
  const preferencesHintId = useId();
  const [zones] = useState(timeZones);

  // An error belongs to the attempt that caused it, not to the next time the panel opens.
  useEffect(() => clearSaveError, [clearSaveError]);

  const field = (name: keyof FormValues) => ({
    name,
    value: form[name],
    onChange: (event: { target: { value: string } }) => {
      setIsSaved(false);
      setForm((previous) => ({ ...previous, [name]: event.target.value }));
    },
  });

  const changeRuns = (change: Partial<RunValues>) => {
    setIsSaved(false);
    setCheckError(null);
    setRuns((previous) => ({ ...previous, ...change }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const runsChange = runsPatch(settings, runs);
    if (!runsChange.ok) {
      setIsSaved(false);
      return setCheckError(runsChange.message);
    }
    setCheckError(null);
    const isAccepted = await save({ ...changedFields(settings, form), ...runsChange.value });
    setIsSaved(isAccepted);
  };

  return (
    <form className="settings-form" onSubmit={(event) => void onSubmit(event)} data-testid="settings-form">
      <ModelPicker
        value={form.model}
        onChange={(model) => field('model').onChange({ target: { value: model } })}
      />
      <label>
        Time zone
        <input {...field('timezone')} list={zonesId} autoComplete="off" spellCheck={false} />
        <datalist id={zonesId}>
          {zones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
      </label>
      <label>
        Your name
        <input {...field('userName')} autoComplete="name" />
      </label>
      <label>
        Your email
        <input {...field('userEmail')} type="email" autoComplete="email" spellCheck={false} />
      </label>
      <label>
        Preferences
        <textarea
          {...field('preferences')}
          rows={3}
          maxLength={2_000}
          placeholder="Short replies. No meetings before 10:00."
          aria-describedby={preferencesHintId}
        />
        <span id={preferencesHintId} className="settings-form__note">
          Deputy follows these in every conversation.
        </span>
      </label>
      <label>
        Max steps per run
        <input {...field('maxLoopSteps')} type="number" min={LOOP_STEPS.min} max={LOOP_STEPS.max} step={1} />
      </label>
      <RunsFieldset values={runs} onChange={changeRuns} />
      <p className="settings-form__note">
        Gemini API key:{' '}
        {settings.isGeminiConfigured ? 'configured' : 'not configured (add one under Connections)'}
      </p>
      {(checkError ?? saveError) && <FormError testId="settings-error">{checkError ?? saveError}</FormError>}
      {isSaved && !saveError && (
        <p className="form-success" role="status">
          Saved.
        </p>
      )}
      <div className="settings-form__actions">
        <SubmitButton isBusy={isSaving} label="Save" busyLabel="Saving…" testId="settings-save" />
      </div>
    </form>
  );
}

export type SettingsTab = Tab;
/** What another screen asks Settings to show: a tab, and on Connections the card whose field to fill. */
export interface SettingsRequest {
  tab: SettingsTab;
  connection?: ConnectionName;
}
type Tab =
  | 'general'
  | 'permissions'
  | 'connections'
  | 'extensions'
  | 'agents'
  | 'memory'
  | 'usage'
  | 'data'
  | 'desktop';
const CORE_TABS: { id: Tab; label: string }[] = [
  { id: 'general', label: 'General' },
  { id: 'permissions', label: 'Permissions' },
  { id: 'connections', label: 'Connections' },
  { id: 'extensions', label: 'Extensions' },
  { id: 'agents', label: 'Agents' },
  { id: 'memory', label: 'Memory' },
  { id: 'usage', label: 'Usage' },
  { id: 'data', label: 'Data' },
];
/** Tabs whose forms are saved with a button: typing there marks them unsaved until then. */
const FORM_TABS: ReadonlySet<Tab> = new Set(['general', 'permissions', 'usage']);
/** Desktop (the shell's own preferences) only inside the desktop app, where there is a shell to ask. */
const TABS = window.deputyShell ? [...CORE_TABS, { id: 'desktop' as const, label: 'Desktop' }] : CORE_TABS;

function TabContent({
  tab,
  settings,
  request,
}: {
  tab: Tab;
  settings: Settings;
  request: SettingsRequest | null;
}) {
  switch (tab) {
    case 'general':
      return <SettingsForm settings={settings} />;
    case 'permissions':
      return <PermissionsForm settings={settings} />;
    case 'connections':
      return <ConnectionsPanel focusOn={request?.connection ?? null} />;
    case 'extensions':
      return <ExtensionsPanel />;
    case 'agents':
      return <AgentsPanel />;
    case 'memory':
      return <MemoryPanel />;
    case 'usage':
      return <UsagePanel />;
    case 'data':
      return <DataPanel />;
    case 'desktop':
      return window.deputyShell ? <DesktopPanel shell={window.deputyShell} /> : null;
  }
}

/** A modal dialog with a section per tab: the browser traps focus inside it and Escape closes it. */
export function SettingsPanel({
  isOpen,
  onClose,
  tabRequest = null,
}: {
  isOpen: boolean;
  onClose: () => void;
  /** A tab to show, asked for by another screen (a new object each time it asks; null once it closes). */
  tabRequest?: SettingsRequest | null;
}) {
  const dialogRef = useModalDialog(isOpen);
  const { settings: store } = useStores();
  const settings = useSettings((state) => state.settings);
  const loadError = useSettings((state) => state.loadError);
  const [tab, setTab] = useState<Tab>(tabRequest?.tab ?? 'general');
  // Taken while rendering, not in an effect: the dialog opens (and places focus) with the asked-for tab.
  const [seenRequest, setSeenRequest] = useState(tabRequest);
  if (tabRequest !== seenRequest) {
    setSeenRequest(tabRequest);
    if (tabRequest) setTab(tabRequest.tab);
  }
  // Settings can change behind this window (an "always allow" adds a rule): read them again on every open.
  const [isFresh, setIsFresh] = useState(false);
  const titleId = useId();
  const tabIds = useId();
  // Typing in a form of General or Permissions marks it unsaved until that form is submitted; closing asks.
  const [dirtyForms, setDirtyForms] = useState<ReadonlySet<HTMLFormElement>>(new Set());
  const isDirty = dirtyForms.size > 0;
  const markDirty = (event: { target: EventTarget }) => {
    const form = (event.target as { form?: HTMLFormElement | null }).form;
    if (form && !dirtyForms.has(form)) setDirtyForms(new Set([...dirtyForms, form]));
  };
  const markSaved = (event: { target: EventTarget }) => {
    const form = event.target as HTMLFormElement;
    if (dirtyForms.has(form)) setDirtyForms(new Set([...dirtyForms].filter((item) => item !== form)));
  };
  const [isAsking, setIsAsking] = useState(false);
  // Bumped on discard, so the forms are drawn again from the saved settings.
  const [generation, setGeneration] = useState(0);
  const requestClose = () => {
    if (isDirty) setIsAsking(true);
    else onClose();
  };
  const discard = () => {
    setDirtyForms(new Set());
    setIsAsking(false);
    setGeneration((value) => value + 1);
    onClose();
  };

  useEffect(() => {
    if (!isOpen) return;
    let isCurrent = true;
    setIsFresh(false);
    void store
      .getState()
      .load()
      .then(() => isCurrent && setIsFresh(true));
    return () => {
      isCurrent = false;
    };
  }, [isOpen, store]);

  const onTabKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const index = TABS.findIndex((item) => item.id === tab);
    const next = TABS[(index + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length];
    if (!next) return;
    setTab(next.id);
    document.getElementById(`${tabIds}-${next.id}-tab`)?.focus();
  };

  const isReady = isOpen && settings !== null && isFresh;

  return (
    <dialog
      ref={dialogRef}
      className="settings-panel"
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(event) => {
        // Escape: the same question as the Close button when something is unsaved.
        if (!isDirty) return;
        event.preventDefault();
        setIsAsking(true);
      }}
    >
      <h2 id={titleId}>Settings</h2>
      <div className="tabs" role="tablist" aria-label="Settings sections" onKeyDown={onTabKey}>
        {TABS.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            id={`${tabIds}-${item.id}-tab`}
            aria-selected={tab === item.id}
            aria-controls={`${tabIds}-${item.id}`}
            tabIndex={tab === item.id ? 0 : -1}
            className="tabs__tab"
            data-testid={`settings-tab-${item.id}`}
            onClick={() => setTab(item.id)}
          >
            {item.label}
          </button>
        ))}
      </div>
      {isReady &&
        TABS.map((item) => (
          // Every section stays mounted, so switching tabs keeps what was typed in the others.
          <div
            key={`${item.id}-${generation}`}
            role="tabpanel"
            id={`${tabIds}-${item.id}`}
            aria-labelledby={`${tabIds}-${item.id}-tab`}
            hidden={tab !== item.id}
            onInput={FORM_TABS.has(item.id) ? markDirty : undefined}
            onSubmit={markSaved}
          >
            <TabContent tab={item.id} settings={settings} request={tabRequest} />
          </div>
        ))}
      {isOpen && !isReady && <p role={loadError ? 'alert' : 'status'}>{loadError ?? 'Loading settings…'}</p>}
      {isAsking && <UnsavedPrompt onKeepEditing={() => setIsAsking(false)} onDiscard={discard} />}
      <div className="settings-panel__footer">
        <button type="button" className="button" onClick={requestClose} data-testid="settings-close">
          Close
        </button>
      </div>
    </dialog>
  );
}
