import {
  ActionKind,
  AutonomyLevel,
  type TrustLevel,
  type PolicyRule,
  type Settings,
  type SettingsPatch,
} from '../../../../shared/contract';

/** The Permissions form's model: what it shows, how entries are checked, and the patch it sends. */

export const TRUST_LEVELS: { value: TrustLevel; label: string; explanation: string }[] = [
  { value: 'supervised', label: 'Supervised', explanation: 'Every action waits for your approval.' },
  {
    value: 'delegated',
    label: 'Delegated',
    explanation: 'Acts alone for your allowed recipients and your rules; asks about everything else.',
  },
  {
    value: 'autonomous',
    label: 'Autonomous',
    explanation: 'Acts as the per-action settings below say, and asks only where they say so.',
  },
];

// Said in the same words by the policy's reasons (shared/setting-words.ts).
export { ACTION_KIND_LABELS, AUTONOMY_LABELS } from '../../../../shared/setting-words';
import { RATE_LIMIT_LABELS } from '../../../../shared/setting-words';

export const ACTION_KINDS = ActionKind.options;
export const AUTONOMY_LEVELS = AutonomyLevel.options;

export type RateLimitName = keyof Settings['rateLimits'];
export const RATE_LIMITS: { name: RateLimitName; label: string; min: number; max: number }[] = [
  { name: 'actionsPerMinute', label: RATE_LIMIT_LABELS.actionsPerMinute, min: 1, max: 10_000 },
  { name: 'externalCallsPerHour', label: RATE_LIMIT_LABELS.externalCallsPerHour, min: 1, max: 100_000 },
  { name: 'modelTokensPerHour', label: RATE_LIMIT_LABELS.modelTokensPerHour, min: 1_000, max: 100_000_000 },
];
export const EXPIRY_MINUTES = { min: 1, max: 7 * 24 * 60 } as const;

export interface PermissionsValues {
  trustLevel: TrustLevel;
  autonomy: Record<ActionKind, AutonomyLevel>;
  allowlist: string[];
  requireApprovalForFirstContact: boolean;
  approvalExpiryMinutes: string;
  rateLimits: Record<RateLimitName, string>;
}

export const toPermissionsValues = (settings: Settings): PermissionsValues => ({
  trustLevel: settings.trustLevel,
  autonomy: { ...settings.autonomy },
  allowlist: [...settings.allowlist],
  requireApprovalForFirstContact: settings.requireApprovalForFirstContact,
  approvalExpiryMinutes: String(settings.approvalExpiryMinutes),
  rateLimits: {
    actionsPerMinute: String(settings.rateLimits.actionsPerMinute),
    externalCallsPerHour: String(settings.rateLimits.externalCallsPerHour),
    modelTokensPerHour: String(settings.rateLimits.modelTokensPerHour),
  },
});

// Kept in their own file so stores outside Settings can use them without Settings' chunk.
import { wholeNumber, type Checked } from './checked';

export { wholeNumber, type Checked };

const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DOMAIN = /^@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/;

/** An allow-list entry is an address (`sam@x.io`) or a whole domain (`@x.io`), compared in lower case. */
export function checkAllowlistEntry(text: string, existing: readonly string[]): Checked<string> {
  const entry = text.trim().toLowerCase();
  if (!ADDRESS.test(entry) && !DOMAIN.test(entry))
    return { ok: false, message: `“${text.trim()}” is neither an address (sam@x.io) nor a domain (@x.io).` };
  if (existing.includes(entry)) return { ok: false, message: `${entry} is already on the list.` };
  return { ok: true, value: entry };
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, index) => item === b[index]);

/** Only what changed, so saving one setting never rewrites another someone changed meanwhile. */
export function permissionsPatch(settings: Settings, values: PermissionsValues): Checked<SettingsPatch> {
  const expiry = wholeNumber(
    values.approvalExpiryMinutes,
    'Approvals expire after (minutes)',
    EXPIRY_MINUTES.min,
    EXPIRY_MINUTES.max,
  );
  if (!expiry.ok) return expiry;
  const rateLimits: Partial<Settings['rateLimits']> = {};
  for (const limit of RATE_LIMITS) {
    const checked = wholeNumber(values.rateLimits[limit.name], limit.label, limit.min, limit.max);
    if (!checked.ok) return checked;
    if (checked.value !== settings.rateLimits[limit.name]) rateLimits[limit.name] = checked.value;
  }
  const autonomy: Partial<Record<ActionKind, AutonomyLevel>> = {};
  for (const kind of ACTION_KINDS) {
    if (values.autonomy[kind] !== settings.autonomy[kind]) autonomy[kind] = values.autonomy[kind];
  }
  return {
    ok: true,
    value: {
      ...(values.trustLevel !== settings.trustLevel && { trustLevel: values.trustLevel }),
      ...(Object.keys(autonomy).length > 0 && { autonomy }),
      ...(!sameList(values.allowlist, settings.allowlist) && { allowlist: values.allowlist }),
      ...(values.requireApprovalForFirstContact !== settings.requireApprovalForFirstContact && {
        requireApprovalForFirstContact: values.requireApprovalForFirstContact,
      }),
      ...(expiry.value !== settings.approvalExpiryMinutes && { approvalExpiryMinutes: expiry.value }),
      ...(Object.keys(rateLimits).length > 0 && { rateLimits }),
    },
  };
}

export type RuleDuration = 'hour' | 'day' | 'none';
export const RULE_DURATIONS: { value: RuleDuration; label: string; ms: number | null }[] = [
  { value: 'hour', label: 'for 1 hour', ms: 60 * 60 * 1000 },
  { value: 'day', label: 'for 1 day', ms: 24 * 60 * 60 * 1000 },
  { value: 'none', label: 'no expiry', ms: null },
];

export interface RuleDraft {
  tool: string;
  field: string;
  pattern: string;
  duration: RuleDuration;
}

/** A rule made from the form, or what is missing and the field to fill in. */
export type CheckedRule =
  { ok: true; value: PolicyRule } | { ok: false; message: string; field: keyof RuleDraft };

export function newRule(draft: RuleDraft, now: Date, id: string): CheckedRule {
  const tool = draft.tool.trim();
  const field = draft.field.trim();
  const pattern = draft.pattern.trim();
  if (!tool) return { ok: false, message: 'Choose the action this rule allows.', field: 'tool' };
  if (!field) return { ok: false, message: 'Choose what the rule looks at.', field: 'field' };
  if (!pattern)
    return {
      ok: false,
      message: `Type the pattern to match, such as ${ruleFieldExample(field)}.`,
      field: 'pattern',
    };
  const ms = RULE_DURATIONS.find((duration) => duration.value === draft.duration)?.ms ?? null;
  return {
    ok: true,
    value: {
      id,
      tool,
      field,
      pattern,
      effect: 'allow',
      expiresAt: ms === null ? null : new Date(now.getTime() + ms).toISOString(),
      createdAt: now.toISOString(),
    },
  };
}

export function describeRuleExpiry(rule: PolicyRule, now: number): string {
  if (rule.expiresAt === null) return 'no expiry';
  const at = Date.parse(rule.expiresAt);
  if (Number.isNaN(at)) return rule.expiresAt;
  if (at <= now) return 'expired';
  return `until ${new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`;
}

/** Side-effect tools a rule can be made for, by the action's name in words. */
export const RULE_TOOL_NAMES: Record<string, string> = {
  gmail_send: 'Send an email',
  gmail_draft_create: 'Draft an email',
  calendar_event_create: 'Create a calendar event',
  calendar_event_update: 'Change a calendar event',
  slack_send: 'Post to Slack',
  add_task: 'Add a task',
  update_task: 'Change a task',
  mark_task_complete: 'Mark a task done',
  delete_task: 'Delete a task',
  save_memory: 'Remember something',
};
export const RULE_TOOLS = Object.keys(RULE_TOOL_NAMES);

/** What a rule can look at in the call, in words. */
export const RULE_FIELD_NAMES: Record<string, string> = {
  recipients: 'Every recipient',
  to: 'The To address',
  channel: 'The Slack channel',
  calendarId: 'The calendar',
  description: 'The task',
};
export const RULE_FIELDS = Object.keys(RULE_FIELD_NAMES);

/** A pattern of the kind each field holds (`*` matches any run of letters), for the form's hint and error. */
const RULE_FIELD_EXAMPLES: Record<string, string> = {
  recipients: '*@example.com',
  to: 'sam@example.com',
  channel: '#team-*',
  calendarId: 'primary',
  description: '*invoice*',
};
export const ruleFieldExample = (field: string): string => RULE_FIELD_EXAMPLES[field] ?? '*';

/** A rule's tool or field in words; one Deputy has no words for (an extension's) by its own name. */
export const ruleToolName = (tool: string): string => RULE_TOOL_NAMES[tool] ?? tool;
export const ruleFieldName = (field: string): string => RULE_FIELD_NAMES[field] ?? field;
