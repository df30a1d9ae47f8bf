import type { z } from 'zod';

/** More than this many wrong arguments are counted, not each said. */
const MAX_SAID = 10;

/**
 * What is wrong with a tool call's arguments, in sentences that the model and an MCP client calling Deputy's
 * server both read: "add_task's description must be text, not a number." Each names the tool and the argument
 * by its path (`attendees[0].email`). A value the call sent is never quoted back: it may hold something private.
 */
export function describeArgsIssues(tool: string, error: z.ZodError): string {
  const said = error.issues.slice(0, MAX_SAID).map((issue) => issueSentence(tool, issue));
  const more = error.issues.length - said.length;
  if (more > 0)
    said.push(`${more.toString()} more ${more === 1 ? 'argument is' : 'arguments are'} wrong too.`);
  return said.join(' ');
}

function issueSentence(tool: string, issue: z.core.$ZodIssue): string {
  const subject = subjectOf(tool, issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      const sent = sentKind(issue);
      if (sent === 'undefined')
        return `${subject} is missing: it is required, as ${kindWord(issue.expected)}.`;
      return `${subject} must be ${kindWord(issue.expected)}${sent === null ? '' : `, not ${sent}`}.`;
    }
    case 'too_small':
      return `${subject} ${tooSmall(issue)}.`;
    case 'too_big':
      return `${subject} ${tooBig(issue)}.`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `${subject} must be ${quoted(issue.values[0])}.`
        : `${subject} must be one of ${listed(issue.values.map(quoted), 'or')}.`;
    case 'unrecognized_keys':
      return `${issue.path.length > 0 ? subject : tool} has no argument${issue.keys.length === 1 ? '' : 's'} named ${listed(
        issue.keys.map((key) => JSON.stringify(key)),
        'or',
      )}: leave ${issue.keys.length === 1 ? 'it' : 'them'} out.`;
    case 'invalid_format':
      // A pattern's own words (`use HH:MM, e.g. 09:00`) say more than any of ours.
      if (issue.format === 'regex' && hasOwnWords(issue)) return `${subject}: ${sentence(issue.message)}`;
      return `${subject} must be ${formatWord(issue)}.`;
    case 'not_multiple_of':
      return `${subject} must be a multiple of ${String(issue.divisor)}.`;
    case 'invalid_union':
      return `${subject} is not in any of the forms it takes.`;
    default:
      // A check of the tool's own (`give start and end together`), said after what it is about.
      return `${issue.path.length > 0 ? subject : tool}: ${sentence(issue.message)}`;
  }
}

/** zod's own messages start "Invalid …"; a schema's words for a check do not. */
const hasOwnWords = (issue: z.core.$ZodIssue): boolean => !issue.message.startsWith('Invalid');

/** "add_task's description", "calendar_event_create's attendees[0].email"; the arguments as a whole at the top. */
function subjectOf(tool: string, path: readonly PropertyKey[]): string {
  if (path.length === 0) return `${tool}'s arguments`;
  const field = path
    .map((key, index) =>
      typeof key === 'number' ? `[${key.toString()}]` : `${index > 0 ? '.' : ''}${String(key)}`,
    )
    .join('');
  return `${tool}'s ${field}`;
}

function tooSmall(issue: z.core.$ZodIssueTooSmall): string {
  const minimum = Number(issue.minimum);
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      return minimum <= 1 ? 'must not be empty' : `must be at least ${count(minimum, 'character')} long`;
    case 'array':
    case 'set':
      return minimum <= 1 ? 'must not be an empty list' : `must have at least ${count(minimum, 'item')}`;
    default:
      return `must be ${inclusive ? 'at least' : 'more than'} ${String(issue.minimum)}`;
  }
}

function tooBig(issue: z.core.$ZodIssueTooBig): string {
  const maximum = Number(issue.maximum);
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      return `must be at most ${count(maximum, 'character')} long`;
    case 'array':
    case 'set':
      return `must have at most ${count(maximum, 'item')}`;
    default:
      return `must be ${inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}`;
  }
}

/** What a value of each of zod's kinds is, in words. */
const KIND: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  tuple: 'a list',
  set: 'a list',
  object: 'an object',
  record: 'an object',
  map: 'an object',
  date: 'a date',
  null: 'null',
};

const kindWord = (expected: string): string => KIND[expected] ?? expected;

/**
 * What kind of value the call sent where another was expected: 'undefined' when it sent none, null when it cannot
 * be told. The value itself is kept in the issue only when parsed with `reportInput`; zod's own message names it too.
 */
function sentKind(issue: z.core.$ZodIssueInvalidType): string | null {
  if ('input' in issue) return issue.input === undefined ? 'undefined' : kindOf(issue.input, issue.expected);
  const received = /received (\w+)$/.exec(issue.message)?.[1];
  if (received === undefined) return null;
  return received === 'undefined' ? received : (KIND[received] ?? received);
}

function kindOf(value: unknown, expected: string): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'text';
  // Said against a whole number, a number is a fraction; otherwise just a number.
  if (typeof value === 'number')
    return expected === 'int' && Number.isFinite(value) ? 'a fraction' : 'a number';
  if (typeof value === 'boolean') return 'true or false';
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

/** Formats a value of that format is said to be: an email address, a web address, a date and time… */
const FORMAT: Record<string, string> = {
  email: 'an email address, like ana@example.com',
  url: 'a web address (URL), like https://example.com',
  uuid: 'a UUID',
  guid: 'a UUID',
  datetime: 'a date and time in ISO 8601, like 2026-11-28T09:30:00Z',
  date: 'a date in ISO 8601, like 2026-11-28',
  time: 'a time in ISO 8601, like 09:30:00',
  duration: 'a duration in ISO 8601, like PT30M',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  e164: 'a phone number in international form, like +14155550123',
  jwt: 'a JSON web token',
  emoji: 'an emoji',
};

function formatWord(issue: z.core.$ZodIssueInvalidStringFormat): string {
  const known = FORMAT[issue.format];
  if (known) return known;
  switch (issue.format) {
    case 'regex':
      return 'in the form the tool expects (see its description)';
    case 'starts_with':
      return `text that starts with ${JSON.stringify((issue as { prefix?: string }).prefix ?? '')}`;
    case 'ends_with':
      return `text that ends with ${JSON.stringify((issue as { suffix?: string }).suffix ?? '')}`;
    case 'includes':
      return `text that includes ${JSON.stringify((issue as { includes?: string }).includes ?? '')}`;
    default:
      return `in the ${issue.format} format`;
  }
}

const quoted = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value) : String(value);

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`. */
function listed(words: readonly string[], join: 'or' | 'and'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${join} ${words.at(-1) ?? ''}`;
}

const count = (n: number, word: string): string => `${n.toString()} ${n === 1 ? word : `${word}s`}`;

/** A custom check's words, as a sentence: a full stop last. */
function sentence(message: string): string {
  return /[.!?]$/.test(message) ? message : `${message}.`;
}
