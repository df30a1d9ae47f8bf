import { useEffect, useId } from 'react';
import { useStores, useUsage } from '../../stores';

/**
 * The model, picked from the ones the Gemini key can use. The saved model stays a choice even when the list
 * does not have it (no key, Gemini unreachable, a model retired), so the form is never stuck.
 */
export function ModelPicker({ value, onChange }: { value: string; onChange: (model: string) => void }) {
  const { usage } = useStores();
  const models = useUsage((state) => state.models);
  const isLoading = useUsage((state) => state.isLoadingModels);
  const error = useUsage((state) => state.modelsError);
  const noteId = useId();
  useEffect(() => {
    void usage.getState().loadModels();
  }, [usage]);
  const listed = models?.models ?? [];
  const isListed = listed.some((model) => model.id === value);
  const note = isLoading
    ? 'Reading the models your Gemini key can use…'
    : (error ??
      models?.note ??
      (isListed ? null : `“${value}” is not among the models your key can use. Pick one from the list.`));
  return (
    <div className="model-picker">
      <label>
        Model
        <select
          name="model"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-describedby={note ? noteId : undefined}
          data-testid="model-picker"
        >
          {!isListed && <option value={value}>{value} (saved)</option>}
          {listed.map((model) => (
            <option key={model.id} value={model.id}>
              {model.displayName === model.id ? model.id : `${model.displayName} (${model.id})`}
            </option>
          ))}
        </select>
      </label>
      <div className="model-picker__status">
        {note && (
          <span id={noteId} className="settings-form__note" role="status" data-testid="model-picker-note">
            {note}
          </span>
        )}
        <button
          type="button"
          className="button button--quiet"
          disabled={isLoading}
          onClick={() => void usage.getState().loadModels(true)}
        >
          Refresh the list
        </button>
      </div>
    </div>
  );
}
