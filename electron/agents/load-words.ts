import type { z } from 'zod';
import { quoted } from '../../shared/quote-words';

export interface Mistake {
  message: string;
  path: readonly PropertyKey[];
}

/**
 * Each schema issue of an agent file as a sentence a person can act on ("The description is missing: add a line
 * `description: …`."), in the file's order of fields, for the common cases: a field missing, of the wrong kind,
 * empty, out of range, unknown. Anything else keeps zod's words after the field's path. A key spelled differently
 * is said once, as the field it stands for. The file and line are said beside each, not here.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): Mistake[] {
  const mistakes: Mistake[] = [];
  const misspellings = new Set<string>();
  for (const issue of issues) {
    const misspelt = misspeltKey(issue, issues);
    if (!misspelt) continue;
    misspellings.add([...issue.path.slice(0, -1), misspelt].join('.'));
  }
  for (const issue of issues) {
    const mistake = describeIssue(issue, issues, misspellings);
    if (mistake && !mistakes.some((known) => known.message === mistake.message)) mistakes.push(mistake);
  }
  return mistakes.length > 0 ? mistakes : [{ message: 'The definition does not fit.', path: [] }];
}

function describeIssue(
  issue: z.core.$ZodIssue,
  issues: readonly z.core.$ZodIssue[],
  misspellings: ReadonlySet<string>,
): Mistake | null {
  const misspelt = misspeltKey(issue, issues);
  if (misspelt) {
    const key = String(issue.path.at(-1));
    return {
      message: `${subject(issue.path.map(String))} is missing: the file has \`${misspelt}\`, spelled differently; write \`${key}\`.`,
      path: [...issue.path.slice(0, -1), misspelt],
    };
  }
  if (issue.code === 'unrecognized_keys') {
    // The keys already said as a field spelled differently are not said again as unknown ones.
    const keys = issue.keys.filter((key) => !misspellings.has([...issue.path, key].join('.')));
    if (keys.length === 0) return null;
    const rest = { ...issue, keys };
    return { message: issueSentence(rest), path: [...issue.path, keys[0] ?? ''] };
  }
  return { message: issueSentence(issue), path: issue.path };
}

/** A missing field's key written another way beside it (`toolconfig` for `toolConfig`), if any. */
function misspeltKey(issue: z.core.$ZodIssue, issues: readonly z.core.$ZodIssue[]): string | undefined {
  if (issue.code !== 'invalid_type' || ('input' in issue && issue.input !== undefined)) return undefined;
  const parent = issue.path.slice(0, -1).join('.');
  const wanted = loose(String(issue.path.at(-1)));
  for (const other of issues)
    if (other.code === 'unrecognized_keys' && other.path.join('.') === parent)
      return other.keys.find((key) => loose(key) === wanted);
  return undefined;
}

const loose = (key: string): string => key.toLowerCase().replace(/[_\-\s]/g, '');

function issueSentence(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String);
  const field = path.join('.');
  const key = path.at(-1) ?? '';
  const input = (issue as { input?: unknown }).input;
  const hasInput = 'input' in issue && input !== undefined;
  switch (issue.code) {
    case 'invalid_type':
      if (!hasInput) return `${subject(path)} is missing: add ${where(path, `${key}: …`)}.`;
      return `${subject(path)} should be ${KIND[issue.expected] ?? issue.expected}, not ${kindOf(input)}.`;
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1)
        return `${subject(path)} is empty: write something after \`${key}:\`.`;
      if (issue.origin === 'array')
        return `${subject(path)} needs at least ${issue.minimum.toString()} ${plural(issue.minimum, 'item')}.`;
      if (issue.origin === 'number')
        return `${subject(path)} must be ${issue.inclusive ? 'at least' : 'more than'} ${issue.minimum.toString()}.`;
      break;
    case 'too_big':
      if (issue.origin === 'string')
        return `${subject(path)} is too long: at most ${issue.maximum.toString()} characters.`;
      if (issue.origin === 'array')
        return `${subject(path)} has too many items: at most ${issue.maximum.toString()}.`;
      if (issue.origin === 'number')
        return `${subject(path)} must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum.toString()}.`;
      break;
    case 'unrecognized_keys': {
      const names = issue.keys.map((name) => `\`${name}\``).join(', ');
      const place = path.length > 0 ? ` under \`${field}:\`` : ' in an agent definition';
      return issue.keys.length === 1
        ? `Deputy does not know the field ${names}${place}: check its spelling, or remove it.`
        : `Deputy does not know the fields ${names}${place}: check their spelling, or remove them.`;
    }
    case 'invalid_value':
      return `${subject(path)} must be one of ${issue.values.map(String).join(', ')}${hasInput ? `, not ${JSON.stringify(input)}` : ''}.`;
    case 'invalid_format':
      if (issue.format !== 'regex') break;
      return `${subject(path)}${typeof input === 'string' ? ` ${quoted(input)}` : ''} cannot be used: use ${issue.message}.`;
    case 'invalid_key':
      return `The name${typeof input === 'string' ? ` ${quoted(input)}` : ''} under \`${path.slice(0, -1).join('.')}:\` cannot be used: use ${issue.issues[0]?.message ?? issue.message}.`;
    case 'custom':
      return sentence(issue.message);
  }
  return `${field || 'The definition'}: ${issue.message}`;
}

/** What a field of each kind holds, in a YAML writer's words. */
const KIND: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list (lines starting with `- `)',
  object: 'a set of fields (indented `name: value` lines)',
  record: 'a set of fields (indented `name: value` lines)',
};

function kindOf(value: unknown): string {
  if (value === null) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'number') return Number.isInteger(value) ? 'a whole number' : 'a number';
  if (typeof value === 'boolean') return 'true or false';
  if (typeof value === 'object') return 'a set of fields';
  return typeof value;
}

/** "The description" at the top level, where a person reads one word; the path below it. */
function subject(path: readonly string[]): string {
  if (path.length === 0) return 'The definition';
  return path.length === 1 ? `The ${path[0] ?? ''}` : `\`${path.join('.')}\``;
}

/** Where the missing line goes: at the top of the file, or under its parent field. */
function where(path: readonly string[], line: string): string {
  if (path.length <= 1) return `a line \`${line}\``;
  return `\`${line}\` under \`${path.slice(0, -1).join('.')}:\``;
}

function plural(n: number | bigint, word: string): string {
  return n === 1 || n === 1n ? word : `${word}s`;
}

/** A custom check's words, as a sentence: capital first, a full stop last. */
function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
