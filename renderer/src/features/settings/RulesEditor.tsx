import { useId, useState, type FormEvent } from 'react';
import type { PolicyRule } from '../../../../shared/contract';
import { useSettings } from '../../stores';
import { useNow } from '../../use-now';
import {
  RULE_DURATIONS,
  RULE_FIELDS,
  RULE_TOOLS,
  describeRuleExpiry,
  ruleFieldName,
  ruleToolName,
  newRule,
  type RuleDraft,
} from './permissions';
import { FormError } from '../../components/FormParts';

const EMPTY_DRAFT: RuleDraft = { tool: '', field: 'recipients', pattern: '', duration: 'hour' };

const ruleId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `rule-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/**
 * The user's allow rules. Adding or revoking one saves at once: the host replaces the whole list, so the
 * list sent is always the one on screen plus or minus that rule.
 */
export function RulesEditor({ rules }: { rules: PolicyRule[] }) {
  const apply = useSettings((state) => state.apply);
  const [draft, setDraft] = useState(EMPTY_DRAFT);
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const now = useNow(30_000);
  const toolsId = useId();

  const send = async (next: PolicyRule[]): Promise<boolean> => {
    setIsBusy(true);
    const message = await apply({ rules: next });
    setIsBusy(false);
    setError(message);
    return message === null;
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const rule = newRule(draft, new Date(), ruleId());
    if (!rule.ok) return setError(rule.message);
    if (await send([...rules, rule.value])) setDraft(EMPTY_DRAFT);
  };

  const set = (name: keyof RuleDraft) => (event: { target: { value: string } }) =>
    setDraft((previous) => ({ ...previous, [name]: event.target.value }));

  return (
    <section className="rules" aria-labelledby={`${toolsId}-title`} data-testid="rules">
      <h3 id={`${toolsId}-title`}>Rules</h3>
      {rules.length === 0 ? (
        <p className="settings-form__note">No rules. “Approve and always allow…” on an approval makes one.</p>
      ) : (
        <ul className="rules__list">
          {rules.map((rule) => (
            <li key={rule.id} data-testid="rule" data-rule-id={rule.id}>
              <span>
                <strong>{ruleToolName(rule.tool)}</strong> when {ruleFieldName(rule.field).toLowerCase()}{' '}
                matches <code>{rule.pattern}</code>
                <span className="rules__expiry"> · {describeRuleExpiry(rule, now)}</span>
              </span>
              <button
                type="button"
                className="button"
                disabled={isBusy}
                data-testid="rule-revoke"
                onClick={() => void send(rules.filter((item) => item.id !== rule.id))}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="rules__add" onSubmit={(event) => void add(event)} aria-label="Add a rule">
        <label>
          Action
          <select value={draft.tool} onChange={set('tool')} data-testid="rule-tool">
            <option value="">Choose an action…</option>
            {RULE_TOOLS.map((tool) => (
              <option key={tool} value={tool}>
                {ruleToolName(tool)}
              </option>
            ))}
          </select>
        </label>
        <label>
          When
          <select value={draft.field} onChange={set('field')} data-testid="rule-field">
            {RULE_FIELDS.map((field) => (
              <option key={field} value={field}>
                {ruleFieldName(field)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Pattern
          <input
            value={draft.pattern}
            onChange={set('pattern')}
            placeholder="*@example.com"
            autoComplete="off"
            spellCheck={false}
            data-testid="rule-pattern"
          />
        </label>
        <label>
          How long
          <select value={draft.duration} onChange={set('duration')} data-testid="rule-duration">
            {RULE_DURATIONS.map((duration) => (
              <option key={duration.value} value={duration.value}>
                {duration.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button" disabled={isBusy} data-testid="rule-add">
          Add rule
        </button>
      </form>
      {error && <FormError testId="rules-error">{error}</FormError>}
    </section>
  );
}
