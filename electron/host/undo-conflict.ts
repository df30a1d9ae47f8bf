import { BOOKKEEPING_FIELDS } from '../../shared/bookkeeping-fields';
import type { AuditEntry } from '../../shared/contract';
import { summarizeToolCall } from '../../shared/tool-summaries';
import { asStored } from '../store/audit-values';
import { asRecord } from '../store/json';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What differs between the thing as an action left it (`after`, as its entry keeps it) and as it is now, in
 * words a person reads: an empty list when nothing changed. `now` is normalised as an entry would keep it
 * (redacted, capped), so the two compare like for like.
 */
export function changesSince(after: unknown, now: unknown): string[] {
  const current = asStored(now);
  if (after === null && current === null) return [];
  if (after === null) return ['it exists again'];
  if (current === null) return ['it was deleted'];
  if (!isRecord(after) || !isRecord(current))
    return JSON.stringify(after) === JSON.stringify(current) ? [] : ['its content'];
  const keys = new Set([...Object.keys(after), ...Object.keys(current)]);
  return (
    [...keys]
      // An undo that put a task back, then an undo of the step before, must not count as a change.
      .filter((key) => !BOOKKEEPING_FIELDS.has(key))
      .filter((key) => JSON.stringify(after[key] ?? null) !== JSON.stringify(current[key] ?? null))
      .sort()
  );
}

/** Whether the thing now is as `expected` (bookkeeping aside): after a crash, whether an undo already landed. */
export function isAsRecorded(expected: unknown, now: unknown): boolean {
  return changesSince(expected, now).length === 0;
}

/** The 409's words: what changed since, and what an undo now would do to it. */
export function changedSinceMessage(entityType: string | null, changes: readonly string[]): string {
  const thing = thingWords(entityType);
  if (changes.includes('it was deleted'))
    return `The ${thing} was deleted after Deputy's action, so undoing it now would bring back or change something that is gone. Undo anyway only if that is what you want.`;
  return `The ${thing} changed after Deputy's action (${changes.join(', ')}). Undoing it now would overwrite that change. Undo anyway only if you want it back as it was before Deputy's action.`;
}

/** What a forced undo, waiting for approval, would do over the later change: "it would bring the task back…". */
export function forcedUndoWords(entityType: string | null, changes: readonly string[]): string {
  const thing = thingWords(entityType);
  if (changes.includes('it was deleted'))
    return `it would bring the ${thing} back, though it was deleted after Deputy's action.`;
  if (changes.includes('it exists again'))
    return `it would remove the ${thing} again, though it was brought back after Deputy's action.`;
  return `it would also reverse the later change to ${changes.join(', ')}.`;
}

const THINGS: Record<string, string> = { slack_message: 'Slack post', gmail_draft: 'Gmail draft' };

/** The kind of thing an action changed, in words: "calendar event", "Slack post". */
export const thingWords = (entityType: string | null): string =>
  THINGS[entityType ?? ''] ?? (entityType ?? 'item').replace(/_/g, ' ');

/** "Posted in #general": an action as the chat's cards and the viewer name it, never by its tool's name. */
export const actionWords = (entry: AuditEntry): string =>
  summarizeToolCall(entry.actionType, asRecord(entry.input), true, { result: entry.output });
