import { canonicalJson } from '../../../shared/canonical-json';
import type { ApprovedScope } from '../../store/plans-repo';

/**
 * The argument fields that say whom or what an action touches: recipients, attendees, the event, the calendar,
 * the channel or thread, the task. A plan approval binds these; the words of a mail or an event's title are
 * the model's to write.
 */
export const TARGET_FIELDS = [
  'to',
  'cc',
  'bcc',
  'attendees',
  'addAttendees',
  'removeAttendees',
  'eventId',
  'calendarId',
  'channel',
  'thread_ts',
  'id',
] as const;
const TARGETS: ReadonlySet<string> = new Set(TARGET_FIELDS);

/** A sketch's value the model will fill in later ("${alex}", "<from step 5>"): it fixes nothing. */
export function isPlaceholder(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return /^\s*(\$\{.*\}|<.*>|\?)\s*$/s.test(value) || value.trim() === '';
  if (Array.isArray(value)) return value.length === 0 || value.some(isPlaceholder);
  return false;
}

/** The target fields a sketch gives real values to: what a plan approval of the step binds. */
export function fixedFieldsOf(args: Record<string, unknown>): string[] {
  return Object.keys(args)
    .filter((key) => TARGETS.has(key) && !isPlaceholder(args[key]))
    .sort();
}

/** One spelling for a target value: addresses in lower case, lists as sets. */
function normal(value: unknown): string {
  if (typeof value === 'string') return value.trim().toLowerCase();
  if (Array.isArray(value)) return canonicalJson([...new Set(value.map(normal))].sort());
  return canonicalJson(value);
}

export function scopeOf(tool: string, args: Record<string, unknown>): ApprovedScope {
  const fixed: Record<string, unknown> = {};
  for (const key of fixedFieldsOf(args)) fixed[key] = args[key];
  return { tool, fixed };
}

/**
 * Whether a call is the step the person approved: the same tool, and every target field the same as the plan
 * showed it — none added (a cc the plan did not list), none changed, none dropped.
 */
export function isCovered(scope: ApprovedScope, tool: string, args: Record<string, unknown>): boolean {
  if (scope.tool !== tool) return false;
  const keys = new Set([
    ...Object.keys(scope.fixed),
    ...Object.keys(args).filter((key) => TARGETS.has(key) && !isEmpty(args[key])),
  ]);
  for (const key of keys) {
    if (!(key in scope.fixed) || isEmpty(args[key])) return false;
    if (normal(scope.fixed[key]) !== normal(args[key])) return false;
  }
  return true;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0);
}

/**
 * Whether every argument of a call is either what the step showed the person or a blank the step left for an
 * earlier step's result (`${find}`): a value the person saw as something else (a body "hi" that now carries a
 * link from a mail) is not theirs.
 */
export function isAsShown(stepArgs: Record<string, unknown>, args: Record<string, unknown>): boolean {
  return Object.keys(args).every((key) =>
    isPlaceholder(stepArgs[key]) && key in stepArgs
      ? true
      : JSON.stringify(stepArgs[key]) === JSON.stringify(args[key]),
  );
}
