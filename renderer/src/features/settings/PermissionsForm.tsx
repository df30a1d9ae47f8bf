import { useCallback, useId, useRef, useState, type FormEvent } from 'react';
import {
  AutonomyLevel,
  SWITCHED_OFF_NOTICE,
  type ActionKind,
  type PolicyRule,
  type Settings,
  type TrustLevel,
} from '../../../../shared/contract';
import { useSettings } from '../../stores';
import { AllowlistEditor } from './AllowlistEditor';
import {
  ACTION_KINDS,
  ACTION_KIND_LABELS,
  AUTONOMY_LABELS,
  AUTONOMY_LEVELS,
  EXPIRY_MINUTES,
  RATE_LIMITS,
  TRUST_LEVELS,
  permissionsPatch,
  toPermissionsValues,
  type PermissionsValues,
} from './permissions';
import { RulesEditor } from './RulesEditor';
import { CheckboxOption, FormError } from '../../components/FormParts';
import { FooterActions, FooterSave } from './FooterActions';
import { saveOnEnterInSelect } from './enter-saves';
import { isUnsaved } from './checked';
import type { PendingDraft } from './pending-draft';

type SaveState = { kind: 'idle' | 'saving' | 'saved' } | { kind: 'error'; message: string };

/** What the chosen trust level decides in place of the per-action choices, said beside them. */
const TRUST_OVERRIDES: Record<TrustLevel, string | null> = {
  supervised:
    'Supervised asks before every action, so these choices are off. They take effect when you choose Delegated or Autonomous.',
  delegated:
    'Delegated asks before any action your allowed recipients and rules do not cover, whatever is chosen here.',
  autonomous: null,
};

/** Trust level, autonomy per action, allow-list, approvals and rate limits, saved together; rules at once. */
export function PermissionsForm({ settings }: { settings: Settings }) {
  const overrideId = useId();
  const formId = useId();
  const [values, setValues] = useState(() => toPermissionsValues(settings));
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'idle' });
  const apply = useSettings((state) => state.apply);

  const change = (next: Partial<PermissionsValues>) => {
    setSaveState({ kind: 'idle' });
    setValues((previous) => ({ ...previous, ...next }));
  };

  const setAutonomy = (kind: ActionKind, level: AutonomyLevel) =>
    change({ autonomy: { ...values.autonomy, [kind]: level } });

  // An address or a rule typed and not added: Save adds it, or says beside it why it cannot and saves nothing.
  const allowlistDraft = useRef<PendingDraft<string>>(null);
  const ruleDraft = useRef<PendingDraft<PolicyRule>>(null);
  const [drafts, setDrafts] = useState({ allowlist: false, rule: false });
  const onAllowlistDraft = useCallback(
    (allowlist: boolean) => setDrafts((previous) => ({ ...previous, allowlist })),
    [],
  );
  const onRuleDraft = useCallback((rule: boolean) => setDrafts((previous) => ({ ...previous, rule })), []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const entry = allowlistDraft.current?.take() ?? { ok: true, value: null };
    if (!entry.ok) return setSaveState({ kind: 'idle' });
    const rule = ruleDraft.current?.take() ?? { ok: true, value: null };
    if (!rule.ok) return setSaveState({ kind: 'idle' });
    const next = entry.value === null ? values : { ...values, allowlist: [...values.allowlist, entry.value] };
    const patch = permissionsPatch(settings, next);
    if (!patch.ok) return setSaveState({ kind: 'error', message: patch.message });
    const changes =
      rule.value === null ? patch.value : { ...patch.value, rules: [...settings.rules, rule.value] };
    if (Object.keys(changes).length === 0) return setSaveState({ kind: 'saved' });
    setSaveState({ kind: 'saving' });
    const message = await apply(changes);
    if (message !== null) return setSaveState({ kind: 'error', message });
    setValues(next);
    allowlistDraft.current?.clear();
    ruleDraft.current?.clear();
    setSaveState({ kind: 'saved' });
  };

  return (
    <>
      {!settings.areSideEffectsEnabled && (
        <p className="side-effects-off" role="note" data-testid="side-effects-off">
          {SWITCHED_OFF_NOTICE}
        </p>
      )}
      {/* The form checks its numbers itself, so every problem shows in place in the same words. */}
      <form
        id={formId}
        noValidate
        className="settings-form"
        onSubmit={(event) => void onSubmit(event)}
        onKeyDown={saveOnEnterInSelect}
        data-testid="permissions-form"
        data-saves-in-footer=""
      >
        <fieldset className="trust-levels">
          <legend>Trust level</legend>
          {TRUST_LEVELS.map((level) => (
            <label key={level.value} className="radio-option">
              <input
                type="radio"
                name="trustLevel"
                value={level.value}
                checked={values.trustLevel === level.value}
                data-testid={`trust-${level.value}`}
                onChange={() => change({ trustLevel: level.value })}
              />
              <span>
                <strong>{level.label}</strong> — {level.explanation}
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Per action</legend>
          {TRUST_OVERRIDES[values.trustLevel] && (
            <p className="settings-form__note" id={overrideId} data-testid="autonomy-overridden">
              {TRUST_OVERRIDES[values.trustLevel]}
            </p>
          )}
          <div className="autonomy-grid">
            {ACTION_KINDS.map((kind) => (
              <label key={kind} className="autonomy-row">
                <span>{ACTION_KIND_LABELS[kind]}</span>
                <select
                  value={values.autonomy[kind]}
                  disabled={values.trustLevel === 'supervised'}
                  aria-describedby={TRUST_OVERRIDES[values.trustLevel] ? overrideId : undefined}
                  data-testid={`autonomy-${kind}`}
                  onChange={(event) => {
                    const level = AutonomyLevel.safeParse(event.target.value);
                    if (level.success) setAutonomy(kind, level.data);
                  }}
                >
                  {AUTONOMY_LEVELS.map((level) => (
                    <option key={level} value={level}>
                      {AUTONOMY_LABELS[level]}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>
        </fieldset>
        <AllowlistEditor
          entries={values.allowlist}
          onChange={(allowlist) => change({ allowlist })}
          draftRef={allowlistDraft}
          onDraftChange={onAllowlistDraft}
        />
        <CheckboxOption
          checked={values.requireApprovalForFirstContact}
          testId="first-contact"
          onChange={(requireApprovalForFirstContact) => change({ requireApprovalForFirstContact })}
        >
          Ask before writing to someone for the first time
        </CheckboxOption>
        <label>
          Approvals expire after (minutes)
          <input
            type="number"
            min={EXPIRY_MINUTES.min}
            max={EXPIRY_MINUTES.max}
            step={1}
            value={values.approvalExpiryMinutes}
            data-testid="approval-expiry-minutes"
            onChange={(event) => change({ approvalExpiryMinutes: event.target.value })}
          />
        </label>
        <fieldset>
          <legend>Rate limits</legend>
          {RATE_LIMITS.map((limit) => (
            <label key={limit.name}>
              {limit.label}
              <input
                type="number"
                min={limit.min}
                max={limit.max}
                step={1}
                value={values.rateLimits[limit.name]}
                data-testid={`rate-${limit.name}`}
                onChange={(event) =>
                  change({ rateLimits: { ...values.rateLimits, [limit.name]: event.target.value } })
                }
              />
            </label>
          ))}
        </fieldset>
        <FooterActions
          isUnsaved={isUnsaved(permissionsPatch(settings, values)) || drafts.allowlist || drafts.rule}
        >
          {saveState.kind === 'error' && (
            <FormError testId="permissions-error">{saveState.message}</FormError>
          )}
          {saveState.kind === 'saved' && (
            <p className="form-success" role="status" data-testid="permissions-saved">
              Saved.
            </p>
          )}
          <FooterSave
            form={formId}
            label="Save permissions"
            isBusy={saveState.kind === 'saving'}
            testId="permissions-save"
          />
        </FooterActions>
      </form>
      <RulesEditor rules={settings.rules} draftRef={ruleDraft} onDraftChange={onRuleDraft} />
    </>
  );
}
