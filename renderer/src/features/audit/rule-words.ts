import { toolLabel } from '../../format';
import { ACTION_KIND_LABELS } from '../settings/permissions';

/**
 * The codes an entry's authority carries, in a person's words: the policy rule that decided about an action, and
 * the outcome a run ended with. The codes themselves stay in the entry (its export keeps them as stored).
 */

/**
 * A rule's words: `short` for the table's cell ("Supervised"), `said` for the detail (a whole phrase).
 * `isReasonSaid`: the reason the policy records with this rule is always a sentence that says what `said` says
 * ("Supervised: every action waits for your approval."), so the detail does not say it twice.
 */
export interface RuleWords {
  short: string;
  said: string;
  isReasonSaid?: true;
}

const RULES: Record<string, RuleWords> = {
  kill_switch: { short: 'Actions off', said: 'Actions are switched off for Deputy' },
  'kill_switch:paused': { short: 'Paused', said: 'You paused Deputy’s actions' },
  grant: { short: 'Not granted', said: 'This agent is not allowed to use this tool' },
  read_only: { short: 'Only reads', said: 'It only reads, so nothing waits for you', isReasonSaid: true },
  'rate:model_tokens': { short: 'Hourly limit', said: 'The hour’s limit on model use was reached' },
  'rate:actions': { short: 'Per-minute limit', said: 'Too many actions in one minute' },
  'rate:external_calls': { short: 'Hourly limit', said: 'Too many calls to outside services in one hour' },
  'confidence:clarify': { short: 'Not sure enough', said: 'Deputy was not sure enough what you wanted' },
  'confidence:missing': {
    short: 'Sureness not given',
    said: 'Deputy did not say how sure it was',
    isReasonSaid: true,
  },
  'confidence:high_risk': {
    short: 'Risky, not sure',
    said: 'A risky action Deputy was not sure enough about',
  },
  'memory:standing_instruction': { short: 'An order', said: 'A memory may not hold an instruction' },
  'trust:supervised': {
    short: 'Supervised',
    said: 'Every action waits for you (Supervised)',
    isReasonSaid: true,
  },
  'trust:delegated': {
    short: 'Delegated',
    said: 'Your allowed recipients do not cover it (Delegated)',
    isReasonSaid: true,
  },
  'trust:delegated_allowlist': {
    short: 'Allowed recipients',
    said: 'Everyone it reaches is one of your allowed recipients (Delegated)',
    isReasonSaid: true,
  },
  first_contact: { short: 'New recipient', said: 'You have not written to them before' },
  'provenance:memory_derived': {
    short: 'From a memory',
    said: 'It came from a memory, not from your request',
  },
  'provenance:only_in_content': {
    short: 'From what it read',
    said: 'It came from something Deputy read, not from you',
  },
  'provenance:outside_request': { short: 'Beyond your request', said: 'It goes beyond what you asked for' },
  'provenance:target_not_named': { short: 'Not named by you', said: 'You did not name who it is for' },
  'resume.approval_missing': {
    short: 'After a stop',
    said: 'Deputy stopped before it could ask you, so it asks now',
    isReasonSaid: true,
  },
  'resume.outcome_unknown': {
    short: 'After a stop',
    said: 'Deputy stopped mid-action and cannot tell whether it happened',
  },
  'sop.phase_requires_approval': {
    short: 'Agent’s step',
    said: 'This step of the agent’s procedure waits for you',
  },
  'undo:changed_since': {
    short: 'Changed since',
    said: 'It changed after the action, so the undo waits for you',
  },
  'undo:already_undone': {
    short: 'Nothing to undo',
    said: 'It was already as before the action, so nothing needed doing',
    isReasonSaid: true,
  },
};

/** Rules that carry a name after their kind (`user_rule:<id>`, `autonomy:<action>`, `plan_approval:<plan>`). */
const RULE_KINDS: Record<string, (name: string) => RuleWords> = {
  user_rule: () => ({ short: 'Your rule', said: 'One of your rules covers it' }),
  autonomy: (name) => {
    const action = ACTION_KIND_LABELS[name as keyof typeof ACTION_KIND_LABELS] ?? toolLabel(name);
    return { short: 'Your setting', said: `Your setting for “${action}”` };
  },
  plan_approval: () => ({ short: 'Plan approved', said: 'You approved the plan it is part of' }),
  trust: () => ({ short: 'Trust level', said: 'Your trust level' }),
  rate: () => ({ short: 'A limit', said: 'A limit was reached' }),
  confidence: () => ({ short: 'Not sure enough', said: 'Deputy was not sure enough' }),
  provenance: () => ({ short: 'From what it read', said: 'It came from something Deputy read' }),
};

/** A code this viewer does not know yet, made readable: "SOME_NEW:THING" is "Some new: thing". */
export function readableCode(code: string): string {
  const words = code
    .replace(/[_.]+/g, ' ')
    .replace(/\s*:\s*/g, ': ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function ruleWords(rule: string): RuleWords {
  const known = RULES[rule];
  if (known) return known;
  const colon = rule.indexOf(':');
  const kind = colon > 0 ? RULE_KINDS[rule.slice(0, colon)] : undefined;
  if (kind) return kind(rule.slice(colon + 1));
  const said = readableCode(rule);
  return { short: said, said };
}

/** Why a run failed, in a few words, by its error code (`ERROR:MODEL_SERVER_ERROR` carries `model_server_error`). */
const FAILURES: Record<string, string> = {
  model_not_configured: 'Deputy has no Gemini key',
  model_key_rejected: 'Gemini did not accept the key',
  model_unavailable: 'Gemini could not be reached',
  model_rate_limited: 'Gemini was busy',
  model_server_error: 'Gemini had a problem',
  model_timeout: 'Gemini took too long',
  model_bad_response: 'Gemini’s answer could not be used',
  model_blocked: 'Gemini declined to answer',
  step_limit: 'It took too many steps',
  incomplete: 'It stopped before finishing',
  rate_limited: 'A limit was reached',
  approval_expired: 'An approval expired',
  cancelled: 'You stopped it',
  service_unavailable: 'A service could not be reached',
  invalid_input: 'The request could not be read',
  internal: 'Something went wrong inside Deputy',
};

/** A run's outcome (`SUCCESS:RESPONSE_GIVEN`, `AMBIGUITY:UNCLEAR_INTENT`, `ERROR:MODEL_TIMEOUT`…) in words. */
const OUTCOMES: Record<string, string> = {
  'SUCCESS:RESPONSE_GIVEN': 'Deputy answered',
  // Recorded once a run acted, whether or not its action went through: the action's own entry says which.
  'SUCCESS:TASK_COMPLETED': 'Deputy used tools, then answered',
  'SUCCESS:RECOVERED': 'Finished in its last allowed step',
  'AMBIGUITY:UNCLEAR_INTENT': 'The request was unclear',
  'REFUSAL:OUT_OF_SCOPE': 'Not something Deputy may do',
  'REFUSAL:RATE_LIMITED': 'A limit was reached',
  'REFUSAL:INVALID_INPUT': 'The request could not be read',
  'PENDING:APPROVAL': 'Waiting for your approval',
};

/** What is known of an outcome's kind when the outcome itself is not. */
const OUTCOME_KINDS: Record<string, string | undefined> = {
  SUCCESS: 'Finished',
  AMBIGUITY: 'The request was unclear',
  REFUSAL: 'Refused',
  ERROR: 'Something went wrong',
  PENDING: 'Waiting',
};

/** The error code of a failed run's outcome (`ERROR:MODEL_TIMEOUT` → `model_timeout`), or null. */
export const failureOf = (outcome: string): string | null =>
  outcome.startsWith('ERROR:') ? outcome.slice('ERROR:'.length).toLowerCase() : null;

/** Why a run failed, in a few words ("Gemini had a problem"). */
export const failureWords = (code: string): string => FAILURES[code] ?? 'Something went wrong';

export const isKnownOutcome = (outcome: string): boolean => outcome in OUTCOMES;

export function outcomeWords(outcome: string): string {
  const failure = failureOf(outcome);
  if (failure) return failureWords(failure);
  return OUTCOMES[outcome] ?? OUTCOME_KINDS[outcome.split(':')[0] ?? ''] ?? readableCode(outcome);
}
