/** What a redacted secret leaves in the text. */
export const REDACTED = '[redacted]';

/** Shorter values are not treated as secrets: redacting every "abc" in a text would destroy it. */
export const MIN_SECRET_LENGTH = 8;

/**
 * Right after a line break or a tab written as an escape (`\n`, `\r`, `\t`, `\u000a`): in JSON's text, and in text that
 * holds JSON's escapes as characters (a log line printing an event's JSON, a JSON string inside another), a line's
 * first word follows the escape's letter, where `\b` sees no word's start. Shapes that start at a word's start look
 * for it with `WORD_START`, so such text is read once, as it is, with no second reading of its lines.
 */
export const AFTER_ESCAPE = String.raw`(?<=\\(?:[nrt]|u000[9aAdD]))`;
export const WORD_START = String.raw`(?:\b|${AFTER_ESCAPE})`;
/**
 * After a backslash, the rest of a line break written as a `\u000a` (or `\u000d`) escape: a command's line ends there,
 * as at a `\n` escape, so a line after it is never read as the same command's.
 */
export const UNICODE_LINE_BREAK = 'u000[aAdD]';
/**
 * In JSON text, and in text holding JSON's escapes (a log line printing JSON inside JSON), a backslash that does not end
 * a line: not one starting a `\u000a` escape (the character after it, which callers take, is never the `n` of a `\n`
 * escape), nor an escaped backslash before `n` or `u000a`, which is a line break escaped twice (a log line's JSON kept
 * in an event, `\\n`): there the text's line ends, as it does at a `\n` escape, so a command on the next line
 * (`docker run -u 1000:1000`) is not read as this one's.
 */
export const BACKSLASH_IN_LINE = String.raw`\\(?!${UNICODE_LINE_BREAK}|\\(?:n|${UNICODE_LINE_BREAK}))`;
/**
 * A `\` that continues a line (`\\\n` once escaped, each backslash escaped again: six, then `n`): in JSON text, in the
 * text a string holds as escapes; in text holding JSON's escapes, in JSON inside JSON. The line goes on after it.
 */
export const CONTINUATION_ESCAPED_TWICE = String.raw`\\{6}n`;
/** A line break written as an escape (`\n`, `\r\n`, `\u000a`), in JSON or in escaped text. */
export const ESCAPED_LINE_BREAK = String.raw`(?:(?:\\r)?\\n|\\u000[aA])`;
/** A line's end: a line break, or one written as an escape. */
export const LINE_BREAK = String.raw`(?:\r?\n|${ESCAPED_LINE_BREAK})`;

/**
 * `WORD_START` before a pattern whose first character is one of `first` (a character class, or one letter): that
 * character is looked for first, so a scan skips ahead to it as it does for a literal. With the look back alone in
 * front, V8 tries every position of the text, several times slower on text with no such shape.
 */
export function wordStart(first: string): string {
  return `(?=${first})${WORD_START}`;
}

/**
 * `names` (a pattern: a command's, a header's) at a word's start: the names first, then the look back from their end
 * (with their groups made plain), so a scan skips ahead to their letters as it does for a literal.
 */
export function startingWord(names: string): string {
  return `(?:${names})(?<=${WORD_START}(?:${names.replace(/\((?!\?)/g, '(?:')}))`;
}
