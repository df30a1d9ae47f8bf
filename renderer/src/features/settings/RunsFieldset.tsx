import { useId } from 'react';
import { MAX_CONCURRENT_RUNS, RoutingPolicy } from '../../../../shared/contract';
import { CheckboxOption } from '../../components/FormParts';
import {
  EXECUTION_POLICIES,
  MAX_PARALLEL,
  ROUTING_POLICIES,
  RUN_TIME_LIMIT_MINUTES,
  explanationOf,
  type RunValues,
} from './run-settings';

interface RunsFieldsetProps {
  values: RunValues;
  onChange: (change: Partial<RunValues>) => void;
}

/** The "Runs" group of the General tab; the form around it checks and saves it with the rest. */
export function RunsFieldset({ values, onChange }: RunsFieldsetProps) {
  const routingHintId = useId();
  const isBatch = values.executionPolicy === 'batch';

  return (
    <fieldset data-testid="runs-settings">
      <legend>Runs</legend>
      <fieldset className="settings-form__group">
        <legend>How actions run</legend>
        {EXECUTION_POLICIES.map((policy) => (
          <label key={policy.value} className="radio-option">
            <input
              type="radio"
              name="executionPolicy"
              value={policy.value}
              checked={values.executionPolicy === policy.value}
              data-testid={`execution-${policy.value}`}
              onChange={() => onChange({ executionPolicy: policy.value })}
            />
            <span>
              <strong>{policy.label}</strong> — {policy.explanation}
            </span>
          </label>
        ))}
      </fieldset>
      {isBatch && (
        <label>
          Actions at once ({MAX_PARALLEL.min}–{MAX_PARALLEL.max})
          <input
            type="number"
            required
            min={MAX_PARALLEL.min}
            max={MAX_PARALLEL.max}
            step={1}
            value={values.maxParallel}
            data-testid="max-parallel"
            onChange={(event) => onChange({ maxParallel: event.target.value })}
          />
        </label>
      )}
      <label>
        Model choice
        <select
          value={values.routingPolicy}
          aria-describedby={routingHintId}
          data-testid="routing-policy"
          onChange={(event) => {
            const policy = RoutingPolicy.safeParse(event.target.value);
            if (policy.success) onChange({ routingPolicy: policy.data });
          }}
        >
          {ROUTING_POLICIES.map((policy) => (
            <option key={policy.value} value={policy.value}>
              {policy.label}
            </option>
          ))}
        </select>
      </label>
      {/* Outside the label, so the field's name stays "Model choice" and the hint is its description. */}
      <p id={routingHintId} className="settings-form__note" data-testid="routing-policy-hint">
        {explanationOf(ROUTING_POLICIES, values.routingPolicy)}
      </p>
      <WholeNumberField
        label="Run time limit (minutes)"
        bounds={RUN_TIME_LIMIT_MINUTES}
        value={values.runTimeLimitMinutes}
        hint="A run that reaches it gets one last step to wrap up."
        testId="run-time-limit"
        onChange={(text) => onChange({ runTimeLimitMinutes: text })}
      />
      <WholeNumberField
        label={`Runs at once (${MAX_CONCURRENT_RUNS.min}–${MAX_CONCURRENT_RUNS.max})`}
        bounds={MAX_CONCURRENT_RUNS}
        value={values.maxConcurrentRuns}
        hint="More requests than this wait in line and start, in order, as others finish."
        testId="max-concurrent-runs"
        onChange={(text) => onChange({ maxConcurrentRuns: text })}
      />
      <CheckboxOption
        checked={values.showThinking}
        testId="show-thinking"
        onChange={(showThinking) => onChange({ showThinking })}
      >
        Show a summary of Gemini’s thinking while it works
      </CheckboxOption>
    </fieldset>
  );
}

interface WholeNumberFieldProps {
  label: string;
  bounds: { min: number; max: number };
  value: string;
  /** Said after the field and read out as its description. */
  hint: string;
  testId: string;
  onChange: (text: string) => void;
}

function WholeNumberField({ label, bounds, value, hint, testId, onChange }: WholeNumberFieldProps) {
  const hintId = useId();
  return (
    <>
      <label>
        {label}
        <input
          type="number"
          required
          min={bounds.min}
          max={bounds.max}
          step={1}
          value={value}
          aria-describedby={hintId}
          data-testid={testId}
          onChange={(event) => onChange(event.target.value)}
        />
      </label>
      <p id={hintId} className="settings-form__note">
        {hint}
      </p>
    </>
  );
}
