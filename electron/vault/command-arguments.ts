/**
 * A command's option and its argument, as the command-line shapes (command-shapes.ts, stdin-passwords.ts) read them:
 * in quotes, plain or escaped in JSON, or bare; and the argument taken out when it is a password.
 */
import { isVariableReference } from './credential-fields';
import { REDACTED } from './redaction';

/**
 * An option (a pattern, in a group) and its argument: in quotes (plain, or escaped in JSON), where it runs to the
 * closing quote, or bare, where it runs to a space. `quoteGroup` is the number of the quote's group.
 */
export function withArgument(option: string, quoteGroup: number): string {
  const sameQuote = `\\${quoteGroup}`;
  return String.raw`(${option})(?:(\\?["'])((?:(?!${sameQuote})[^\r\n\\]|\\(?!["n]))*)|([^\s"'\\]*))`;
}

/** A command's quoted arguments, in single or double quotes (escaped in JSON). */
const QUOTED = /'[^']*'|\\?"(?:[^"\\]|\\[^"])*\\?"/g;

/**
 * A command's text with its quoted arguments blanked out, each character a space: where a `;` or a `>` stands outside
 * quotes is then found by a plain search (`sh -c 'a; b'` is one command, `"pa ss >word"` one argument).
 */
export function blankQuoted(command: string): string {
  return command.replace(QUOTED, (quoted) => ' '.repeat(quoted.length));
}

/** A password option with its argument taken out, unless it is empty or a variable's name (`-p "$DOCKER_PASSWORD"`). */
export function redactPasswordOption(
  match: string,
  option: string,
  quote: string | undefined,
  quoted: string | undefined,
  bare: string | undefined,
): string {
  const password = quoted ?? bare ?? '';
  if (password === '' || isVariableReference(password)) return match;
  return `${option}${quote ?? ''}${REDACTED}`;
}
