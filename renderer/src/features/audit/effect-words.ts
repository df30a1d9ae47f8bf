import { BOOKKEEPING_FIELDS } from '../../../../shared/bookkeeping-fields';
import { formatValue } from '../../format';
import { asRecord, timeWords } from './audit-words';

export interface DiffRow {
  field: string;
  /** The field's name in words: `dueDate` is "Due date", a Slack post's `ts` is "Posted at". */
  label: string;
  before: string;
  after: string;
  isChanged: boolean;
}

/** The keeper's bookkeeping, and the thing's id and birth: the entry already says when it acted, and on what. */
const NOT_SHOWN = new Set([...BOOKKEEPING_FIELDS, 'id', 'createdAt']);

/**
 * The names of fields a person would not read as words on their own: a Slack post's, a mail's, an event's, a
 * memory's and a task's. Any other field is read from its name (`completed_at` is "Completed at").
 */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  ts: 'Posted at',
  threadTs: 'Thread',
  rfc822MessageId: 'Message-ID',
  threadId: 'Thread',
  replyToMessageId: 'In reply to',
  summary: 'Title',
  start: 'Starts',
  end: 'Ends',
  isAllDay: 'All day',
  attendees: 'Guests',
  organizer: 'Organiser',
  isConfirmed: 'Confirmed by you',
  due: 'Due date',
};

const fieldWords = (field: string): string => {
  const known = FIELD_WORDS[field];
  if (known) return known;
  const words = field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** Slack's time of a post (seconds since 1970, then a sequence: "1764312345.000100"), which is also its id. */
const SLACK_TS = /^\d{9,}\.\d+$/;

/**
 * A post's time as a person reads it, followed by Slack's own value, which an auditor needs to find the post (it
 * is the post's id in Slack). A value that is not one stays as it is.
 */
function slackTimeWords(value: unknown, lead = ''): string | null {
  if (typeof value !== 'string' || !SLACK_TS.test(value)) return null;
  return `${lead}${timeWords(new Date(Number(value.split('.')[0]) * 1000).toISOString())} (its id in Slack: ${value})`;
}

/** Values read in words where their field says how: a post's time, the post a reply is in, a yes or no. */
const VALUE_WORDS: Readonly<Record<string, (value: unknown) => string | null>> = {
  ts: (value) => slackTimeWords(value),
  threadTs: (value) => slackTimeWords(value, 'A reply to the post of '),
};

function valueWords(field: string, value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return VALUE_WORDS[field]?.(value) ?? formatValue(value);
}

/** Field by field, what an action changed: every key of either side but the bookkeeping, changed ones flagged. */
export function diffRows(before: unknown, after: unknown): DiffRow[] {
  const left = asRecord(before);
  const right = asRecord(after);
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].filter(
    (key) => !NOT_SHOWN.has(key),
  );
  return keys.map((field) => {
    const was = valueWords(field, left[field]);
    const is = valueWords(field, right[field]);
    return { field, label: fieldWords(field), before: was, after: is, isChanged: was !== is };
  });
}
