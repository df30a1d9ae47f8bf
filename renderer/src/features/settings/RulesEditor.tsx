import { useEffect, useId, useImperativeHandle, useRef, useState, type FormEvent } from 'react';
import type { PolicyRule } from '../../../../shared/contract';
import { useSettings } from '../../stores';
import { useNow } from '../../use-now';
import {
  RULE_DURATIONS,
  RULE_FIELDS,
  RULE_TOOLS,
  describeRuleExpiry,
  ruleFieldExample,
  ruleFieldName,
  ruleToolName,
  newRule,
  type RuleDraft,
} from './permissions';
import { FormError } from '../../components/FormParts';
import { useFocusAfterSave } from './use-focus-after-save';
import type { DraftProps } from './pending-draft';

const ADD_BUTTON = '[data-testid="rule-add"]';
const REVOKE_BUTTON = '[data-testid="rule-revoke"]';
const FIRST_FIELD = '[data-testid="rule-tool"]';
const ruleSelector = (id: string): string => `[data-rule-id="${CSS.escape(id)}"]`;

const EMPTY_DRAFT: RuleDraft = { tool: '', field: 'recipients', pattern: '', duration: 'hour' };

const ruleId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `rule-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/** An action chosen or a pattern typed: a rule begun. A changed "When" or "How long" alone is not one. */
const isBegun = (draft: RuleDraft): boolean => draft.tool !== '' || draft.pattern.trim() !== '';

/**
 * The user's allow rules. Adding or revoking one saves at once: the host replaces the whole list, so the
 * list sent is always the one on screen plus or minus that rule. A rule begun and not added is the form's
 * draft: Permissions' Save adds it (`draftRef`).
 */
export function RulesEditor({
  rules,
  draftRef,
  onDraftChange,
}: { rules: PolicyRule[] } & DraftProps<PolicyRule>) {
  const apply = useSettings((state) => state.apply);
  const [draft, setDraft] = useState(EMPTY_DRAFT);
  const [isBusy, setIsBusy] = useState(false);
  // What went wrong, the field to fill in when it was the form's own check, and whether it was a Revoke (said
  // above the list it happened in) or an Add (said in the form).
  const [error, setError] = useState<{ message: string; field?: keyof RuleDraft; isRevoke?: boolean } | null>(
    null,
  );
  const now = useNow(30_000);
  const toolsId = useId();
  const errorId = `${toolsId}-error`;

  const sectionRef = useRef<HTMLElement>(null);
  const focusAfterSave = useFocusAfterSave(sectionRef, rules);

  const send = async (next: PolicyRule[], isRevoke: boolean): Promise<boolean> => {
    setIsBusy(true);
    const message = await apply({ rules: next });
    setIsBusy(false);
    setError(message === null ? null : { message, isRevoke });
    return message === null;
  };

  /** The draft as a rule; or null, with the message shown and the keyboard on the field to fill in. */
  const check = (): PolicyRule | null => {
    const rule = newRule(draft, new Date(), ruleId());
    if (rule.ok) return rule.value;
    setError({ message: rule.message, field: rule.field });
    sectionRef.current?.querySelector<HTMLElement>(`[data-testid="rule-${rule.field}"]`)?.focus();
    return null;
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const rule = check();
    if (!rule) return;
    const isAdded = await send([...rules, rule], false);
    if (isAdded) setDraft(EMPTY_DRAFT);
    // The new rule, read out with its words; or Add rule again, under the message that says what went wrong.
    focusAfterSave(isAdded ? ruleSelector(rule.id) : ADD_BUTTON);
  };

  const hasDraft = isBegun(draft);
  useEffect(() => onDraftChange?.(hasDraft), [onDraftChange, hasDraft]);
  useImperativeHandle(draftRef, () => ({
    take: () => {
      if (!hasDraft) return { ok: true, value: null };
      const rule = check();
      return rule ? { ok: true, value: rule } : { ok: false };
    },
    clear: () => {
      setDraft(EMPTY_DRAFT);
      setError(null);
    },
  }));

  const revoke = async (rule: PolicyRule) => {
    const at = rules.indexOf(rule);
    const neighbour = rules[at + 1] ?? rules[at - 1];
    const isRevoked = await send(
      rules.filter((item) => item.id !== rule.id),
      true,
    );
    const stays = isRevoked ? neighbour : rule;
    // The next rule's Revoke (the previous one's for the last), or the form to add one when none is left.
    focusAfterSave(stays ? `${ruleSelector(stays.id)} ${REVOKE_BUTTON}` : FIRST_FIELD);
  };

  // The message sits just above Add rule, or above the list for a Revoke: on a narrow window either could be
  // out of view.
  useEffect(() => {
    if (error) document.getElementById(errorId)?.scrollIntoView({ block: 'nearest' });
  }, [error, errorId]);

  const set = (name: keyof RuleDraft) => (event: { target: { value: string } }) => {
    setDraft((previous) => ({ ...previous, [name]: event.target.value }));
    if (error?.field === name) setError(null);
  };

  /** A field the form's check found empty says so, and points at the message that says what to do. */
  const invalid = (name: keyof RuleDraft) =>
    error?.field === name ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};

  return (
    <section ref={sectionRef} className="rules" aria-labelledby={`${toolsId}-title`} data-testid="rules">
      <h3 id={`${toolsId}-title`}>Rules</h3>
      {error?.isRevoke && (
        <FormError id={errorId} testId="rules-error">
          {error.message}
        </FormError>
      )}
      {rules.length === 0 ? (
        <p className="settings-form__note">No rules. “Approve and always allow…” on an approval makes one.</p>
      ) : (
        <ul className="rules__list">
          {rules.map((rule) => (
            // Focusable from code only: a rule just added takes the focus, so its words are read out.
            <li key={rule.id} data-testid="rule" data-rule-id={rule.id} tabIndex={-1}>
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
                onClick={() => void revoke(rule)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {/* Says itself whether a rule is begun (onDraftChange), as the Permissions form does for its fields. */}
      <form
        className="rules__add"
        onSubmit={(event) => void add(event)}
        aria-label="Add a rule"
        data-saves-in-footer=""
      >
        <label>
          Action
          <select value={draft.tool} onChange={set('tool')} data-testid="rule-tool" {...invalid('tool')}>
            <option value="">Choose one…</option>
            {RULE_TOOLS.map((tool) => (
              <option key={tool} value={tool}>
                {ruleToolName(tool)}
              </option>
            ))}
          </select>
        </label>
        <label>
          When
          <select value={draft.field} onChange={set('field')} data-testid="rule-field" {...invalid('field')}>
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
            placeholder={ruleFieldExample(draft.field)}
            autoComplete="off"
            spellCheck={false}
            data-testid="rule-pattern"
            {...invalid('pattern')}
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
        {error && !error.isRevoke && (
          <FormError id={errorId} testId="rules-error">
            {error.message}
          </FormError>
        )}
        <button type="submit" className="button" disabled={isBusy} data-testid="rule-add">
          Add rule
        </button>
      </form>
    </section>
  );
}
