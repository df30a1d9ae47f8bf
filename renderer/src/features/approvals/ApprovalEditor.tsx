import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { Approval } from '../../../../shared/contract';
import {
  argsOnlyInJson,
  editorFields,
  parseArgsJson,
  toArgs,
  toFormValues,
  type EditorField,
  type FormValue,
  type FormValues,
} from './args-editor';
import { joinMoment, splitMoment } from './field-words';
import { FormError, SubmitButton } from '../../components/FormParts';
import { useApprovals, useStores } from '../../stores';
import { idleActivity } from './approvals-store';

interface Props {
  approval: Approval;
  /** Put the cursor in the first field (when the user opened the editor). */
  shouldFocus: boolean;
  onCancel(): void;
}

/** A date picker and an optional time picker for an argument that holds an ISO date or date-time. */
function MomentInput({
  field,
  id,
  text,
  onChange,
}: {
  field: EditorField;
  id: string;
  text: string;
  onChange(value: FormValue): void;
}) {
  const { date, time } = splitMoment(text);
  return (
    <span className="approval-editor__moment">
      <input
        id={id}
        type="date"
        data-testid={`approval-field-${field.name}`}
        value={date}
        onChange={(e) => onChange(joinMoment(e.target.value, time, text))}
      />
      <input
        type="time"
        aria-label={`${field.label}, time`}
        data-testid={`approval-field-${field.name}-time`}
        value={time}
        disabled={!date}
        onChange={(e) => onChange(joinMoment(date, e.target.value, text))}
      />
    </span>
  );
}

function FieldInput({
  field,
  id,
  value,
  onChange,
}: {
  field: EditorField;
  id: string;
  value: FormValue;
  onChange(value: FormValue): void;
}) {
  const text = typeof value === 'string' ? value : '';
  const common = { id, name: field.name, 'data-testid': `approval-field-${field.name}` };
  switch (field.kind) {
    case 'boolean':
      return (
        <input
          {...common}
          type="checkbox"
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
        />
      );
    case 'choice':
      return (
        <select {...common} value={text} onChange={(e) => onChange(e.target.value)}>
          {!field.isRequired && <option value="">(none)</option>}
          {field.choices.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      );
    case 'number':
    case 'integer':
      return (
        <input
          {...common}
          type="number"
          step={field.kind === 'integer' ? 1 : 'any'}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'moment':
      return <MomentInput field={field} id={id} text={text} onChange={onChange} />;
    case 'list':
      return <textarea {...common} rows={3} value={text} onChange={(e) => onChange(e.target.value)} />;
    default:
      return field.isLong ? (
        <textarea {...common} rows={5} value={text} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type="text" value={text} onChange={(e) => onChange(e.target.value)} />
      );
  }
}

/**
 * Edit the call's arguments, field by field or as raw JSON, then approve the edited call in one step. The chat's
 * approval card and the approvals panel open the same editor, which sends the edit itself (`approval.edit`) and
 * shows the host's `invalid_input` answer (it names the field), so both check an edit the same way.
 */
export function ApprovalEditor({ approval, shouldFocus, onCancel }: Props) {
  const { approvals: store } = useStores();
  const activity = useApprovals((state) => state.activity[approval.id] ?? idleActivity);
  const isBusy = activity.inFlight !== null;
  const hostError = activity.editError;
  const fields = useMemo(() => editorFields(approval.argsSchema), [approval.argsSchema]);
  const [base, setBase] = useState(approval.args);
  const [values, setValues] = useState<FormValues>(() => toFormValues(fields, approval.args));
  const [isJson, setIsJson] = useState(fields.length === 0);
  const [json, setJson] = useState(() => JSON.stringify(approval.args, null, 2));
  const [localError, setLocalError] = useState<string | null>(null);
  const idPrefix = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const onlyInJson = argsOnlyInJson(fields, base);

  useEffect(() => {
    if (shouldFocus) formRef.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, [shouldFocus]);

  const changed = () => {
    setLocalError(null);
    store.getState().clearEditError(approval.id);
  };

  const currentArgs = () => (isJson ? parseArgsJson(json) : toArgs(fields, values, base));

  const switchMode = () => {
    const result = currentArgs();
    if (!result.ok) return setLocalError(result.message);
    setLocalError(null);
    if (isJson) {
      setBase(result.args);
      setValues(toFormValues(fields, result.args));
    } else {
      setJson(JSON.stringify(result.args, null, 2));
    }
    setIsJson(!isJson);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = currentArgs();
    if (!result.ok) return setLocalError(result.message);
    void store.getState().edit(approval.id, result.args);
  };

  const error = localError ?? hostError;

  return (
    <form
      ref={formRef}
      className="approval-editor"
      onSubmit={submit}
      onKeyDown={(event) => {
        // Escape closes the editor, as Cancel does, and never stops the run (not even while it saves). One that
        // closes an input method's window is the input method's.
        if (event.key !== 'Escape' || event.nativeEvent.isComposing) return;
        event.preventDefault();
        event.stopPropagation();
        if (!isBusy) onCancel();
      }}
      data-testid="approval-editor"
      aria-label="Edit the arguments"
    >
      {isJson ? (
        <label className="approval-editor__json">
          Arguments (JSON)
          <textarea
            rows={8}
            spellCheck={false}
            value={json}
            data-testid="approval-json"
            onChange={(e) => {
              setJson(e.target.value);
              changed();
            }}
          />
        </label>
      ) : (
        fields.map((field) => {
          const id = `${idPrefix}-${field.name}`;
          return (
            <div key={field.name} className={`approval-editor__field approval-editor__field--${field.kind}`}>
              <label htmlFor={id}>
                {field.label}
                {field.isRequired && <span aria-label="required"> *</span>}
              </label>
              <FieldInput
                field={field}
                id={id}
                value={values[field.name] ?? ''}
                onChange={(value) => {
                  setValues((previous) => ({ ...previous, [field.name]: value }));
                  changed();
                }}
              />
              {(field.description || field.kind === 'list') && (
                <small>
                  {field.description}
                  {field.kind === 'list' && ' (one per line, or separated by commas)'}
                </small>
              )}
            </div>
          );
        })
      )}
      {!isJson && onlyInJson.length > 0 && (
        <p className="approval-editor__note">Only as JSON: {onlyInJson.join(', ')}.</p>
      )}
      {error && <FormError testId="approval-edit-error">{error}</FormError>}
      <div className="approval-editor__actions">
        <SubmitButton isBusy={isBusy} label="Save & approve" busyLabel="Saving…" testId="approval-save" />
        {fields.length > 0 && (
          <button type="button" className="button" onClick={switchMode} disabled={isBusy}>
            {isJson ? 'Edit as fields' : 'Edit as JSON'}
          </button>
        )}
        <button type="button" className="button" onClick={onCancel} disabled={isBusy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
