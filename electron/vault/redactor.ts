/**
 * The one redactor. Every write path (events, checkpoints, audit rows, logs, error messages, crash output)
 * passes its text through `redactSecrets`. It knows two kinds of secret: the exact values the vault has
 * stored or read in this process, and the shapes of secrets (secret-shapes.ts), so a secret that never went
 * through the vault (a token echoed back inside a service's error body, a key the person pasted) is caught too.
 */
import { MIN_SECRET_LENGTH, REDACTED } from './redaction';
import { readShapes } from './secret-shapes';

export { REDACTED };

/**
 * Past this length a remembered secret is replaced as plain text rather than joined into the pattern: one
 * alternation of very long values (a pasted blob of headers) passes the regex engine's size limit, and then
 * redacting itself would throw, in the very path that reports errors.
 */
const LONGEST_IN_PATTERN = 1024;
/** The most text joined into one pattern: compiling a far larger one can run V8 out of memory, which no catch sees. */
const PATTERN_BUDGET = 100_000;

const knownSecrets = new Set<string>();
let knownPattern: RegExp | null = null;
/** The secrets replaced as plain text, longest first: the long ones, or all of them if the pattern cannot be made. */
let plainSecrets: string[] | null = null;

/**
 * Forgets every remembered secret, leaving the state a new process starts with. The secret-scan test calls it
 * to stand for a restart; the product has no reason to forget a secret while it runs.
 */
export function forgetKnownSecrets(): void {
  knownSecrets.clear();
  knownPattern = null;
  plainSecrets = null;
}

/** A stored header value that names its scheme ("Bearer …", "Basic …"): the credential is the part after it. */
const SCHEMED_CREDENTIAL = /^(?:bearer|basic|token|bot|apikey|api-key)\s+(\S+)\s*$/i;

/**
 * Adds a value to what is redacted from now on. The vault calls this for every secret it handles. A value
 * stored with its scheme ("Bearer abc…", an MCP server's Authorization header) adds its credential too: pasted
 * alone, in a URL or after another header's name, it is the same secret.
 */
export function rememberSecret(value: string | null | undefined): void {
  if (!value || value.length < MIN_SECRET_LENGTH || knownSecrets.has(value)) return;
  knownSecrets.add(value);
  knownPattern = null;
  plainSecrets = null;
  const credential = SCHEMED_CREDENTIAL.exec(value)?.[1];
  if (credential !== undefined) rememberSecret(credential);
}

/** Builds (once per change) the pattern of the remembered secrets and the list of those replaced as plain text. */
function prepareKnown(): void {
  if (plainSecrets) return;
  // Longest first, so a secret that contains another is replaced whole.
  const sorted = [...knownSecrets].sort((a, b) => b.length - a.length);
  const short = sorted.filter((secret) => secret.length <= LONGEST_IN_PATTERN);
  plainSecrets = sorted.filter((secret) => secret.length > LONGEST_IN_PATTERN);
  knownPattern = null;
  if (short.length === 0) return;
  const size = short.reduce((total, secret) => total + secret.length, 0);
  try {
    if (size > PATTERN_BUDGET) throw new RangeError('too many secrets for one pattern');
    knownPattern = new RegExp(
      short.map((secret) => secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
      'g',
    );
  } catch {
    // Too many to join: every one is replaced as plain text instead, longest first. Slower, never wrong.
    plainSecrets = sorted;
  }
}

/**
 * Text with every secret taken out. Text that holds JSON's escapes as characters (a log line printing an event's JSON)
 * is read as it is: a shape that starts at a word's start finds one after a `\n` escape too (`WORD_START`). The JSON
 * strings it holds that hold escapes themselves (a log line printing JSON inside JSON, an error quoting a tool's output
 * that quotes a HAR) are read again as the text they hold, as deep as they go, as `redactedJson` reads its strings:
 * only when the text holds a hint of some shape, written alike however deep it stands, so a log line with none (most)
 * is not searched for escaped quotes, a search that costs a fifth of reading it.
 */
export function redactSecrets(text: string): string {
  const read = readShapes(redactKnownSecrets(text));
  return read.isHinted ? redactEscapedStrings(read.text, true) : read.text;
}

/** `redactSecrets` for a column that may be null. */
export function redactNullable(text: string | null): string | null {
  return text === null ? null : redactSecrets(text);
}

/**
 * Only the exact secrets the vault knows, no shapes. For the arguments an approval is bound to: a mail that
 * merely looks like it holds a token ("token=…") must still run exactly as approved, while a real key of the
 * user's never lands in a row (and the approval then refuses to run, which is what it should do).
 */
export function redactKnownSecretsJson(value: unknown): string {
  return redactKnownSecrets(JSON.stringify(value));
}

/** Text with the exact secrets the vault knows taken out, and nothing else changed. */
export function redactKnownSecrets(text: string): string {
  if (knownSecrets.size === 0) return text;
  prepareKnown();
  let out = text;
  for (const secret of plainSecrets ?? []) out = out.replaceAll(secret, REDACTED);
  return knownPattern ? out.replace(knownPattern, REDACTED) : out;
}

/**
 * A JSON string, its quotes included; an escaped backslash, which a string holding escaped text holds; and a quote
 * escaped twice (`\\\"`: JSON in a JSON string, in JSON). The text a string holds, read again, is any text, where a
 * quote may open a string that no quote closes (every later one escaped): such a run is taken to the text's end, which
 * no JSON string is, rather than given up and looked for again from each later quote, each read to the end again.
 */
const JSON_STRING = /"[^"\\]*(?:\\[\s\S][^"\\]*)*(?:"|\\?$)/g;
const ESCAPED_BACKSLASH = '\\\\';
const QUOTE_ESCAPED_TWICE = '\\\\\\"';

/**
 * `redactSecrets` for JSON text (`JSON.stringify`'s output): a shape is read inside one string, not across two. A line
 * inside a string starts after a `\n` escape, which shapes that start at a word's start see as one (`WORD_START`).
 */
function redactSecretsInJson(json: string): string {
  const read = readShapes(redactKnownSecrets(json), true);
  return redactEscapedStrings(read.text, read.isHinted);
}

/**
 * The JSON strings of a text read again as the text they hold, when that text holds escapes itself: JSON in a JSON
 * string (an event storing a tool's output that quotes a HAR), whose quotes, written `\\\"`, and line breaks, written
 * `\\n`, no shape reads. The text each holds is read as a text is, then its own strings so again, as deep as they go:
 * each level halves the backslashes, so a text of n characters is read at most log n times. A string holding a quote
 * escaped twice is always read so (the hint of a name/value pair escaped twice is not written as in JSON); one holding
 * other escapes only when the text around it held a hint of some shape (`isHinted`): with none, an event's output of
 * JSON is not read twice for nothing.
 */
function redactEscapedStrings(text: string, isHinted: boolean): string {
  const mark = isHinted ? ESCAPED_BACKSLASH : QUOTE_ESCAPED_TWICE;
  if (!text.includes(mark)) return text;
  return text.replace(JSON_STRING, (literal) => {
    if (!literal.includes(mark)) return literal;
    try {
      const held = JSON.parse(literal) as string;
      const read = readShapes(held);
      const redacted = redactEscapedStrings(read.text, read.isHinted);
      return redacted === held ? literal : JSON.stringify(redacted);
    } catch {
      return literal; // not one JSON string after all: left as the JSON pass left it
    }
  });
}

/** JSON for storage with every secret taken out. */
export function redactedJson(value: unknown): string {
  return redactSecretsInJson(JSON.stringify(value));
}

/** The same value with every secret inside its strings replaced; the value itself when there was none. */
export function redactValue<T>(value: T): T {
  return redactWithJson(value).value;
}

/** The redacted value and its redacted JSON, for a caller that both keeps the value and stores the text. */
export function redactWithJson<T>(value: T): { value: T; json: string } {
  const json = JSON.stringify(value);
  if (json === undefined) return { value, json: 'null' };
  const redacted = redactSecretsInJson(json);
  return { value: redacted === json ? value : (JSON.parse(redacted) as T), json: redacted };
}

/** The redacted message of anything thrown, without its stack: for what a person reads. */
export function redactErrorMessage(error: unknown): string {
  return redactSecrets(error instanceof Error ? error.message : String(error));
}

/** A redacted description of anything thrown, for logs and crash output. */
export function redactError(error: unknown): string {
  if (error instanceof Error) return redactSecrets(error.stack ?? `${error.name}: ${error.message}`);
  return redactSecrets(String(error));
}
