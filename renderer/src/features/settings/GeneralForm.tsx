import { useEffect, useId, useState, type FormEvent } from 'react';
import { LOOP_STEPS, type Settings, type SettingsPatch } from '../../../../shared/contract';
import { useSettings, useStores } from '../../stores';
import { FormError } from '../../components/FormParts';
import { FooterActions, FooterSave } from './FooterActions';
import { saveOnEnterInSelect } from './enter-saves';
import { isUnsaved } from './checked';
import { RunsFieldset } from './RunsFieldset';
import { runsPatch, toRunValues, type RunValues } from './run-settings';
import { ModelPicker } from '../usage/ModelPicker';

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

/** Settings → General: the model, who the person is, their preferences, and how runs go. */
export function GeneralForm({ settings }: { settings: Settings }) {
  const [form, setForm] = useState(() => toForm(settings));
  const [runs, setRuns] = useState(() => toRunValues(settings));
  // A number the form itself refused; the host's refusals arrive as `saveError`.
  const [checkError, setCheckError] = useState<string | null>(null);
  const [isSaved, setIsSaved] = useState(false);
  const { settings: settingsStore } = useStores();
  const save = useSettings((state) => state.save);
  const isSaving = useSettings((state) => state.isSaving);
  const saveError = useSettings((state) => state.saveError);
  const clearSaveError = useSettings((state) => state.clearSaveError);
  const formId = useId();
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
    // The host keeps some values in its own form (an email in lower case, a name trimmed): the form takes what
    // was saved, so it does not read as changed again.
    const saved = settingsStore.getState().settings;
    if (isAccepted && saved) {
      setForm(toForm(saved));
      setRuns(toRunValues(saved));
    }
  };

  return (
    <form
      id={formId}
      className="settings-form"
      onSubmit={(event) => void onSubmit(event)}
      onKeyDown={saveOnEnterInSelect}
      data-testid="settings-form"
      data-saves-in-footer=""
    >
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
        {settings.isGeminiConfigured ? 'added' : 'not added yet (add one in Settings → Connections)'}
      </p>
      <FooterActions
        isUnsaved={
          Object.keys(changedFields(settings, form)).length > 0 || isUnsaved(runsPatch(settings, runs))
        }
      >
        {(checkError ?? saveError) && (
          <FormError testId="settings-error">{checkError ?? saveError}</FormError>
        )}
        {isSaved && !saveError && (
          <p className="form-success" role="status" data-testid="settings-saved">
            Saved.
          </p>
        )}
        <FooterSave form={formId} label="Save" isBusy={isSaving} testId="settings-save" />
      </FooterActions>
    </form>
  );
}
