import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { AgentSummary } from '../../../../shared/contract';
import { FormError } from '../../components/FormParts';

type Value = string | number | boolean;

/** A form built from the agent's inputConfig: a field per input, required ones marked, types kept. */
export function AgentForm({
  agent,
  onRun,
  onCancel,
}: {
  agent: AgentSummary;
  onRun: (inputs: Record<string, Value>) => Promise<string | null>;
  onCancel: () => void;
}) {
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const baseId = useId();
  const form = useRef<HTMLFormElement>(null);
  // Chosen from the list, the agent's form replaces it: focus goes to its first field, not to the page.
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('input, textarea, button[type="submit"]')?.focus();
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const inputs: Record<string, Value> = {};
    for (const input of agent.inputs) {
      const value = values[input.name];
      if (input.type === 'boolean') inputs[input.name] = value === true;
      else if (typeof value === 'string' && value.trim() !== '')
        inputs[input.name] = input.type === 'string' ? value.trim() : Number(value);
    }
    setIsBusy(true);
    const failure = await onRun(inputs);
    setIsBusy(false);
    setError(failure);
  };

  return (
    <form ref={form} className="agent-form" onSubmit={(event) => void submit(event)} data-testid="agent-form">
      <p className="agent-form__about">{agent.description}</p>
      {agent.inputs.map((input) => {
        const id = `${baseId}-${input.name}`;
        const label = `${input.description}${input.required ? '' : ' (optional)'}`;
        if (input.type === 'boolean')
          return (
            <label key={input.name} className="agent-form__check">
              <input
                type="checkbox"
                checked={values[input.name] === true}
                onChange={(event) => setValues({ ...values, [input.name]: event.target.checked })}
              />
              {label}
            </label>
          );
        return (
          <div key={input.name} className="agent-form__field">
            <label htmlFor={id}>{label}</label>
            {input.type === 'string' ? (
              <textarea
                id={id}
                rows={2}
                required={input.required}
                data-testid={`agent-input-${input.name}`}
                value={(values[input.name] as string | undefined) ?? ''}
                onChange={(event) => setValues({ ...values, [input.name]: event.target.value })}
              />
            ) : (
              <input
                id={id}
                type="number"
                step={input.type === 'integer' ? 1 : 'any'}
                required={input.required}
                data-testid={`agent-input-${input.name}`}
                value={(values[input.name] as string | undefined) ?? ''}
                onChange={(event) => setValues({ ...values, [input.name]: event.target.value })}
              />
            )}
          </div>
        );
      })}
      {error && <FormError>{error}</FormError>}
      <div className="agent-form__actions">
        <button type="button" className="button" onClick={onCancel}>
          Back to the list
        </button>
        <button type="submit" className="button button--primary" disabled={isBusy} data-testid="agent-run">
          {isBusy ? 'Starting…' : `Run ${agent.displayName}`}
        </button>
      </div>
    </form>
  );
}
