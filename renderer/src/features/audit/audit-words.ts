import {
  AuditStatus,
  type AuditApprover,
  type AuditEntry,
  type AuditStatusFilter,
} from '../../../../shared/contract';
import { APPROVAL_EXPIRED_OUTCOME, shownStatusOf } from '../../../../shared/audit-status';
import {
  expiredRunForPerson,
  isPlanCancelledWords,
  turnedDownWords,
} from '../../../../shared/rejection-words';
import { hasToolWords, summarizeToolCall, type AgentLabel } from '../../../../shared/tool-summaries';
import { cutText } from '../../../../shared/cut-text';
import { quoted } from '../../../../shared/quote-words';
import { toolLabel } from '../../format';
import { failureOf, failureWords, isKnownOutcome, outcomeWords, readableCode, ruleWords } from './rule-words';

/**
 * What the table says became of an entry. "Expired" as the approval card says it: nobody answered in time.
 * In this order, the Status filter's choices.
 */
const STATUS_WORDS: Record<AuditStatusFilter, string> = {
  completed: 'Done',
  pending: 'Pending',
  failed: 'Failed',
  not_done: 'Not done',
  turned_down: 'Turned down',
  expired: 'Expired',
  stopped: 'Stopped',
  rolled_back: 'Undone',
};

/** The Status filter's choices, in the words the table says them. */
export const STATUS_CHOICES: readonly (readonly [AuditStatusFilter, string])[] = Object.entries(
  STATUS_WORDS,
) as [AuditStatusFilter, string][];

const APPROVER_WORDS: Record<AuditApprover, string> = {
  person: 'You',
  plan: 'You, with the plan',
  rule: 'Your rule',
  trust_level: 'Trust level',
  autonomy: 'Your autonomy setting',
  // Only a read is let happen by no one's choice (the policy's read_only rule): nobody had to.
  policy: 'Not needed (it only reads)',
};

export function approverWords(entry: AuditEntry): string {
  const by = entry.authority.approvedBy;
  return by ? APPROVER_WORDS[by] : '—';
}

/**
 * Spec 002's AgentDecision of a run, as a person says it: what the run did, not a word as loose as "Acted". A run
 * is recorded INVOKE_TOOL once it called a tool (a look-up or a change), and an agent's run COMPLETE_TASK when it
 * ended by handing its result back (not a task of the task list done).
 */
const DECISION_WORDS: Record<string, string> = {
  RESPOND_ONLY: 'Answered',
  INVOKE_TOOL: 'Used tools',
  REQUEST_CLARIFICATION: 'Asked you to clarify',
  REFUSE: 'Refused',
  COMPLETE_TASK: 'Handed back its result',
};

/** What the policy decided about one action, as a person says it. */
const POLICY_WORDS: Record<string, string> = {
  allow: 'Allowed',
  require_approval: 'Asked you first',
  deny: 'Blocked',
  clarify: 'Asked you to clarify',
};

/** The Decision filter's choices: the policy's about one action, then a run's about what to do. */
export const DECISION_CHOICES: readonly (readonly [string, string])[] = [
  ...Object.entries(POLICY_WORDS).map(([code, words]) => [code, `Action: ${words}`] as const),
  ...Object.entries(DECISION_WORDS).map(([code, words]) => [code, `Run: ${words}`] as const),
];

/** The Category filter's choices, in a person's words. */
export const CATEGORY_CHOICES: readonly (readonly [string, string])[] = [
  ['query', 'Looked something up'],
  ['compute', 'Worked something out'],
  ['create', 'Created'],
  ['update', 'Changed'],
  ['delete', 'Deleted'],
  ['draft', 'Drafted'],
  ['external', 'Sent or shared outside'],
  ['undo', 'Undo actions'],
  ['decision', 'Run decisions'],
  ['record', 'Other records'],
];

/** The arguments that say what an action was about, in the order they are tried. */
const SUBJECT_KEYS = ['description', 'subject', 'title', 'summary', 'text', 'name', 'query', 'key'];
const SUBJECT_CHARS = 48;

/** A value read as an object of fields, or none: entries' inputs and effects are whatever the tool stored. */
export const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** A few words of what the action was about ("Renew the passport…"), so that two "Add task" rows differ. */
function subjectOf(input: unknown): string | null {
  const args = asRecord(input);
  for (const key of SUBJECT_KEYS) {
    const value = args[key];
    if (typeof value !== 'string') continue;
    const text = value.replace(/\s+/g, ' ').trim();
    if (text) return cutText(text, SUBJECT_CHARS);
  }
  return null;
}

/**
 * What a row names. A call of a tool Deputy has words for reads as its tool card does in the chat ("Added task
 * “Renew passport”", "Send an email to Sam" while it waits or when it failed); an undo names what it undid; a
 * run's own entry says what it was asked (an entry from before it kept the request, or whose conversation was
 * deleted, cannot); anything else is named by its tool and what it was about.
 */
export function whatWords(entry: AuditEntry, agentLabel?: AgentLabel): string {
  if (entry.kind === 'decision') {
    const request = subjectOf({ text: asRecord(entry.input).request });
    return request ? `Asked ${quoted(request)}` : 'A request';
  }
  // A call of an agent reads as the chat's card says it, the agent by the name it goes by everywhere else.
  const isAgentCall = entry.actionType === 'delegate_to_agent' || Boolean(agentLabel?.(entry.actionType));
  if (entry.kind === 'tool_call' && (hasToolWords(entry.actionType) || isAgentCall)) {
    const isDone = entry.status === 'completed' || entry.status === 'rolled_back';
    return summarizeToolCall(entry.actionType, asRecord(entry.input), isDone, {
      result: entry.output,
      names: entry.names,
      agentLabel,
    });
  }
  // The undo's entry keeps the call's arguments, not its result: the names come with the entry, as the call's card has them.
  if (entry.kind === 'undo' && hasToolWords(entry.actionType)) {
    const args = asRecord(asRecord(entry.input).args);
    return `Undo: ${summarizeToolCall(entry.actionType, args, true, { names: entry.names })}`;
  }
  const subject = subjectOf(entry.kind === 'undo' ? asRecord(entry.input).args : entry.input);
  const words = `${entry.kind === 'undo' ? 'Undo ' : ''}${toolLabel(entry.actionType)}`;
  const said = words.charAt(0).toUpperCase() + words.slice(1);
  return subject ? `${said} ${quoted(subject)}` : said;
}

/** One decision code in words; a code this viewer does not know yet is made readable, not hidden. */
export const decisionWord = (code: string): string =>
  POLICY_WORDS[code] ?? DECISION_WORDS[code] ?? readableCode(code);

/**
 * What a run decided, as its outcome bears out: a run that failed says so and why ("Failed: Gemini had a
 * problem"), whatever it had meant to do; one that asked a question asked you to clarify. One that ended because
 * nobody answered its approval in time did not fail: it stopped, as the chat says.
 */
function runDecisionWords(entry: AuditEntry): string {
  const { decision, rule: outcome } = entry.authority;
  const failure = outcome ? failureOf(outcome) : null;
  // Cancelled with its plan, it says so as the chat and the plan's tree do, not that the person stopped it.
  if (failure === 'cancelled')
    return isPlanCancelledRun(entry) ? 'Cancelled with its plan' : 'Stopped by you';
  if (failure === 'approval_expired') return `Stopped: ${lowerFirst(failureWords(failure))}`;
  if (failure) return `Failed: ${failureWords(failure)}`;
  if (outcome?.startsWith('AMBIGUITY:')) return 'Asked you to clarify';
  if (outcome?.startsWith('REFUSAL:'))
    return isKnownOutcome(outcome) ? `Refused: ${lowerFirst(outcomeWords(outcome))}` : 'Refused';
  if (entry.status === 'failed') return 'Failed';
  return decision ? decisionWord(decision) : '—';
}

const lowerFirst = (words: string): string => words.charAt(0).toLowerCase() + words.slice(1);

/** A run that ended because the person cancelled its plan: by the words it ended with, as the chat reads them. */
function isPlanCancelledRun(entry: AuditEntry): boolean {
  const { summary } = asRecord(entry.output);
  return (
    isPlanCancelledWords(entry.errorMessage) || (typeof summary === 'string' && isPlanCancelledWords(summary))
  );
}

/** How a run ended, in words. */
function runOutcomeWords(entry: AuditEntry, outcome: string): string {
  if (failureOf(outcome) === 'cancelled' && isPlanCancelledRun(entry)) return 'You cancelled the plan';
  // An agent's run that handed its result back finished what it was asked; it did not answer the person.
  if (outcome === 'SUCCESS:TASK_COMPLETED' && entry.authority.decision === 'COMPLETE_TASK')
    return 'The agent did what it was asked and handed back its result';
  return outcomeWords(outcome);
}

/** The table's cell: the decision, and in a word or two the rule behind it ("Asked you first · Supervised"). */
export function decisionWords(entry: AuditEntry): string {
  if (entry.kind === 'decision') return runDecisionWords(entry);
  const { decision, rule } = entry.authority;
  if (!decision) return '—';
  const words = decisionWord(decision);
  return rule ? `${words} · ${ruleWords(rule).short}` : words;
}

/**
 * The detail's authority: the decision, then the rule that decided about an action, or how a run ended, and the
 * reason recorded with it only where it says more than the rule's words. Where the reason is the rule's words
 * and more ("Your setting for “Add a task” is “Ask me first”."), it is said once, as the rule.
 */
export function authorityWords(entry: AuditEntry): {
  decision: string;
  ruleLabel: string;
  rule: string;
  /** Absent where it would say nothing more than the rule (or there is none). */
  reason?: string;
} {
  const { decision, rule, reason } = entry.authority;
  if (entry.kind === 'decision')
    return {
      decision: runDecisionWords(entry),
      ruleLabel: 'Outcome',
      rule: rule ? runOutcomeWords(entry, rule) : '—',
      ...(reason && { reason }),
    };
  const shown = { decision: decision ? decisionWord(decision) : '—', ruleLabel: 'Rule' };
  const said = rule ? ruleWords(rule) : null;
  if (!said) return { ...shown, rule: '—', ...(reason && { reason }) };
  if (!reason || said.isReasonSaid || comparable(reason) === comparable(said.said))
    return { ...shown, rule: said.said };
  if (comparable(reason).startsWith(comparable(said.said))) return { ...shown, rule: reason };
  return { ...shown, rule: said.said, reason };
}

/** Words as compared for saying the same: in any case and quotes, without the full stop. */
const comparable = (words: string): string =>
  words
    .toLowerCase()
    .replace(/[“”"]/g, '"')
    .replace(/[‘’']/g, "'")
    .replace(/[.\s]+$/, '')
    .trim();

/** Why an entry offers no Undo, when the host gave no reason of its own. */
export function noUndoWords(entry: AuditEntry): string {
  if (statusOf(entry).tone === 'neutral') return 'It was not done, so there is nothing to undo.';
  if (entry.status === 'pending') return 'It has not been done yet.';
  if (entry.status === 'failed') return 'It did not go through, so there is nothing to undo.';
  return 'This cannot be undone.';
}

/**
 * An entry's status badge: its words, and its look (`neutral` for an action held back, turned down or expired,
 * or a run stopped, which did not fail: its entry is stored `failed`, with why as its error).
 */
export function statusOf(entry: AuditEntry): { words: string; tone: AuditStatus | 'neutral' } {
  const shown = shownStatusOf(entry);
  return { words: STATUS_WORDS[shown], tone: isStored(shown) ? shown : 'neutral' };
}

const isStored = (status: AuditStatusFilter): status is AuditStatus =>
  (AuditStatus.options as readonly string[]).includes(status);

/** An expired approval, in the chat's words for it ("The approval waited too long and expired, so Deputy stopped."). */
const EXPIRED_WORDS = 'The approval waited too long and expired, so';

/** The Risk filter's choices and the detail's Risk row, in a person's words. */
export const RISK_CHOICES: readonly (readonly [string, string])[] = [
  ['low', 'Low'],
  ['medium', 'Medium'],
  ['high', 'High'],
  ['critical', 'Critical'],
];
const RISK_WORDS: ReadonlyMap<string, string> = new Map(RISK_CHOICES);

/** The risk an action was judged at, as the Risk filter says it ("Low"); none for a run or an older entry. */
export const riskWordsOf = (entry: Pick<AuditEntry, 'risk'>): string | null =>
  entry.risk === null ? null : (RISK_WORDS.get(entry.risk) ?? null);

/**
 * What the detail shows as an entry's output: what the action gave back, or why there is none. What Deputy told
 * the model of a call turned down ("…Do not retry it unless they ask.") reads in the person's words; an approval
 * that expired, as the chat says it (its stored words carry the raw time it expired at), and the run that ended for
 * it with that time in the person's time zone. The entry keeps its own.
 */
export function outputOf(entry: AuditEntry): unknown {
  if (entry.output !== null && entry.output !== undefined) return expiredRunOutput(entry) ?? entry.output;
  if (entry.isExpired)
    return `${EXPIRED_WORDS} ${entry.kind === 'undo' ? 'nothing was undone' : 'Deputy did not do it'}.`;
  const error = entry.errorMessage;
  if (error && entry.isTurnedDown) return turnedDownWords(error) ?? error;
  return error ?? '—';
}

/**
 * The output of a run that ended because an approval expired, `{summary}` as stored, its words read for the
 * person: the time it expired in their time zone, not the raw time stored. Null for any other entry.
 */
function expiredRunOutput(entry: AuditEntry): Record<string, unknown> | null {
  const { output } = entry;
  if (entry.kind !== 'decision' || entry.authority.rule !== APPROVAL_EXPIRED_OUTCOME) return null;
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return null;
  const stored = output as Record<string, unknown>;
  const said = typeof stored.summary === 'string' ? expiredRunForPerson(stored.summary, timeWords) : null;
  return said === null ? null : { ...stored, summary: said };
}

export function timeWords(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** Whether an entry says anything of why: a read the model asked for with no stated intent says nothing. */
export function hasWhy(entry: Pick<AuditEntry, 'intent' | 'reasoning' | 'confidence' | 'target'>): boolean {
  return (
    entry.intent !== null || entry.reasoning !== null || entry.confidence !== null || entry.target !== null
  );
}

/** What the Why section says instead of four empty lines. */
export const NO_WHY =
  'Nothing recorded: Deputy was given no intent or reasoning for this, and it reached no one.';
