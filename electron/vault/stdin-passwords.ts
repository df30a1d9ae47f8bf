/**
 * Passwords a command reads from its input rather than from its arguments: echoed or printed into it through a pipe
 * (`echo pw | docker login --password-stdin`, `echo pw | sudo -S apt update`), given as a here-string (`… <<< pw`),
 * or as a heredoc (`… <<EOF`, then `pw` on the next line: its first line, or all of them for a command that reads its
 * whole input as the password). The commands that read one: any given
 * `--password-stdin` (docker, podman, helm, nerdctl, oras…), sudo told to with `-S`, and MySQL's `-p` (or
 * `--password`) with no password after it, which asks for one.
 */
import { isVariableReference } from './credential-fields';
import { blankQuoted, redactPasswordOption, withArgument } from './command-arguments';
import {
  BACKSLASH_IN_LINE,
  CONTINUATION_ESCAPED_TWICE,
  LINE_BREAK,
  REDACTED,
  startingWord,
  UNICODE_LINE_BREAK,
  WORD_START,
  wordStart,
} from './redaction';

/** A letter of one of sudo's options other than -S, and -u's or -g's (which take a user or a group after them). */
const SUDO_FLAG = '[A-RT-Za-fh-tv-z]';
/** The argument of one of sudo's options: quoted (`-p ''`, `-p \"\"` in JSON) or a word. */
const SUDO_ARGUMENT = String.raw`(?:'[^'\r\n]*'|\\?"[^"\\\r\n]*\\?"|[^\s'"\\|;&]+)`;
/**
 * sudo told to read its password from its input (`sudo -S`, `sudo -kS`, `sudo -u root -S`, `sudo -p '' -S`,
 * `sudo --stdin`): among its options (`-u`, `-g`, `-p`, `-C`, `-D`, `-h`, `-R`, `-r`, `-T`, `-t`, `-U` with their
 * argument), before the command it runs (`echo y | sudo pacman -S vim` answers pacman's question).
 */
const SUDO_READING_INPUT = String.raw`sudo(?:[ \t]+-(?:[ug][ \t]*[\w.$][\w.$-]*|[pCDhRrTtU][ \t]*${SUDO_ARGUMENT}|${SUDO_FLAG}+|-(?!stdin\b)[\w=.-]+))*[ \t]+-(?:${SUDO_FLAG}*S|-stdin\b)`;

/**
 * A password echoed into a command that reads it from its input (`echo pw | docker login --password-stdin`, helm's
 * and podman's too): the word or the quoted words after echo (and its -n) or printf '%s', when a `|` follows it and
 * `--password-stdin` stands on that line after it (a `\` continuing the line onto the next too); in JSON (`isJson`),
 * in that string. Only the echo right before a pipe looks on, to the pipe's line end, so each line is read once.
 * Groups: all before the password, printf's format's quote, the password's quote, the password in quotes, or bare.
 */
function echoedPassword(isJson: boolean): RegExp {
  const between = isJson
    ? String.raw`(?:[^\r\n|;&"\\]|${CONTINUATION_ESCAPED_TWICE}|${BACKSLASH_IN_LINE}(?:\\\\n|[^n\r\n]))`
    : String.raw`(?:[^\r\n|;&\\]|\\(?!${UNICODE_LINE_BREAK})(?:\r?\n|[^\r\n]))`;
  return new RegExp(
    String.raw`(${wordStart('[ep]')}(?:echo[ \t]+(?:-[neE]{1,3}[ \t]+)?|printf[ \t]+(\\?["'])%s(?:\\{1,2}n)?\2[ \t]+))` +
      String.raw`(?:(\\?["'])((?:(?!\3)[^\r\n\\])*)(?=\3)|([^\s"'|;&\\]+))` +
      String.raw`(?=\3?[ \t]*\|(?:${between}*?[ \t]--password-stdin\b|[ \t]*${SUDO_READING_INPUT}))`,
    'g',
  );
}
const ECHOED_PASSWORD = echoedPassword(false);
const ECHOED_PASSWORD_IN_JSON = echoedPassword(true);

/** A character of a line (its end is a `LINE_BREAK`: a line break, or in JSON and in escaped text an escape). */
const LINE_CHAR = String.raw`(?:[^\\\r\n]|\\(?!${UNICODE_LINE_BREAK})[^nr\r\n])`;
const LINE_CHAR_IN_JSON = String.raw`(?:[^"\\\r\n]|${BACKSLASH_IN_LINE}[^nr\r\n])`;
/**
 * The word that makes a line's command one that may read a password from its input (sudo, mysql, mariadb, or a
 * `--password-stdin`), the rest of its line, and (looked at, not taken) the line break and the line after it, a
 * heredoc's first line. Each line is read once, whatever it holds; which command on it reads a password is for
 * `redactFedPassword` to say. Groups: the rest of the line, the line break, the line after.
 */
function stdinReaderLine(isJson: boolean): RegExp {
  const char = isJson ? LINE_CHAR_IN_JSON : LINE_CHAR;
  return new RegExp(
    String.raw`(?:${startingWord('sudo|mysql(?:dump|admin)?|mariadb')}\b|(?<=\s)--password-stdin\b)(${char}*)(?=(${LINE_BREAK})(${char}*)|)`,
    'g',
  );
}
const STDIN_READER_LINE = stdinReaderLine(false);
const STDIN_READER_LINE_IN_JSON = stdinReaderLine(true);

/**
 * What feeds a command its input on its line: a here-string (`<<< pw`, groups: the operator, the quote, the argument
 * quoted, or bare) or a heredoc's opening (`<<EOF`, `<<-'EOF'`; groups: the quote, the word that ends it).
 */
const FEED = new RegExp(
  `${withArgument(String.raw`\s<<<[ \t]*`, 2)}|\\s<<-?[ \\t]*(\\\\?["']?)([A-Za-z_][\\w-]*)\\5`,
);
const COMMAND_SEPARATOR = /[|;&](?=[^|;&]*$)/;
const READS_PASSWORD_STDIN = /(?:^|\s)--password-stdin\b/;
const SUDO_READS_INPUT = new RegExp(`${WORD_START}${SUDO_READING_INPUT}`);
/** MySQL's `-p` or `--password` with nothing glued to it: it asks for the password and reads it. */
const MYSQL = /\b(?:mysql(?:dump|admin)?|mariadb)\b/;
const ASKING_PASSWORD_OPTION = /\s(?:-p|--password)(?=\s|$)/;
/**
 * A line MySQL would read as a statement or one of its own commands, not as the password it asks for: one holding a
 * `;` or a `\` command (`\q`, `\G`), a comment, or one whose first word starts a statement or a client's command
 * (`SELECT 1`, `show databases`, `use shop`, `exit`), that word ending at a space, the line's end, or what a statement
 * goes on with right after it (`SELECT*`, `select(1)`, `select@@version`, a quote). A password of several words
 * (`my secret pw`) is none of these, nor one that starts with such a word glued to more (`SELECT-s3cret`,
 * `show-me-the-money42`, `set#pw99x!`).
 */
const MYSQL_STATEMENT = new RegExp(
  String.raw`[;\\]|^\s*(?:--|#|/\*|\(|(?:${[
    'select|show|use|insert|update|delete|replace|create|drop|alter|rename|truncate|set|grant|revoke',
    'source|call|do|describe|desc|explain|with|values|table|begin|start|commit|rollback|savepoint|release',
    'load|flush|kill|lock|unlock|optimize|analyze|check|repair|handler|prepare|execute|deallocate',
    'install|uninstall|reset|purge|change|stop|shutdown|restart|xa|help|quit|exit|status|prompt|system',
    'tee|notee|pager|nopager|charset|warnings|nowarning|delimiter|connect|edit|go|ego|print|rehash|query_attributes',
  ].join('|')})(?=[\s(*@'"\`]|$))`,
  'i',
);
/**
 * The most lines of a heredoc read as the password of a command that reads all its input as one (`--password-stdin`):
 * a service account's key file is some 13. A heredoc longer, or with no end, is read as its first line alone, and a
 * text of many such openings is read a bounded number of times.
 */
const MOST_HEREDOC_LINES = 32;

/** A line break and the line after it, read from where it is put (`lastIndex`). Groups: the line. */
function nextLine(isJson: boolean): RegExp {
  return new RegExp(String.raw`${LINE_BREAK}(${isJson ? LINE_CHAR_IN_JSON : LINE_CHAR}*)`, 'y');
}
const NEXT_LINE = nextLine(false);
const NEXT_LINE_IN_JSON = nextLine(true);

/** The last command of a line's text (after its last `|`, `;` or `&` outside quotes). */
function lastCommand(text: string): string {
  const separator = COMMAND_SEPARATOR.exec(blankQuoted(text));
  return separator ? text.slice(separator.index + 1) : text;
}

/**
 * Whether the password fed to `command` (its text up to the feed) is one: any for a command that reads a password from
 * its input; for MySQL, one that is no statement of its.
 */
function isFedPassword(command: string, fed: string): boolean {
  const password = fed.trim();
  if (password === '' || isVariableReference(password)) return false;
  if (READS_PASSWORD_STDIN.test(command) || SUDO_READS_INPUT.test(command)) return true;
  return MYSQL.test(command) && ASKING_PASSWORD_OPTION.test(command) && !MYSQL_STATEMENT.test(password);
}

/**
 * A heredoc's lines from `start` (its first line's start; `first` is that line) to the line that ends it (`end`, its
 * word), which is not among them. With no such line, the text (a paste or an output cut off) ends inside the heredoc:
 * then its lines to its first empty line, or to the text's end (in JSON, the string's), where a key file pasted whole
 * ends, not the words a person wrote after it. Null when it runs on for more than `MOST_HEREDOC_LINES` with neither,
 * or a line of text holding JSON's escapes, whose lines may end in a quote (a log line's JSON), ends it.
 */
function heredocLines(
  text: string,
  start: number,
  first: string,
  end: string,
  isJson: boolean,
): string | null {
  const line = isJson ? NEXT_LINE_IN_JSON : NEXT_LINE;
  let at = start + first.length;
  let firstEmpty: number | null = first.trim() === '' ? start : null;
  for (let count = 1; count < MOST_HEREDOC_LINES; count++) {
    line.lastIndex = at;
    const found = line.exec(text);
    if (!found) return isStringEnd(text, at, isJson) ? text.slice(start, firstEmpty ?? at) : null;
    if ((found[1] ?? '').trim() === end) return text.slice(start, at);
    if (!isJson && !/^\r?\n/.test(found[0])) return null; // an escape in text: its string's end is not known
    if (firstEmpty === null && (found[1] ?? '').trim() === '') firstEmpty = at;
    at += found[0].length;
  }
  return firstEmpty === null ? null : text.slice(start, firstEmpty);
}

/** Whether a line that no line break follows at `at` ends the text, or in JSON its string. */
function isStringEnd(text: string, at: number, isJson: boolean): boolean {
  return at === text.length || (isJson && text.charAt(at) === '"');
}

/**
 * A reader's line (`match`, from the word that makes it one; `line` is what follows that word) with the password fed
 * to its command taken out: a here-string's argument; or a heredoc's lines (`fed`, from `start` in `text`, its first
 * line `next`): all of them for a command that reads its whole input as the password (`--password-stdin`), the first
 * for one that reads a line (sudo, MySQL). Null when there is none.
 */
function redactFedPassword(
  text: string,
  start: number,
  [match, line, next]: [match: string, line: string, next: string | undefined],
  isJson: boolean,
): { line: string; fed?: string } | null {
  const feed = FEED.exec(line);
  if (!feed) return null;
  const before = match.slice(0, match.length - line.length + feed.index);
  const command = lastCommand(before);
  const [whole, operator, quote, quoted, bare, , end = ''] = feed;
  if (operator !== undefined) {
    if (!isFedPassword(command, quoted ?? bare ?? '')) return null;
    const fed = redactPasswordOption(whole, operator, quote, quoted, bare);
    return { line: `${before}${fed}${match.slice(before.length + whole.length)}` };
  }
  if (next === undefined || next.trim() === end) return null;
  const fed = READS_PASSWORD_STDIN.test(command)
    ? (heredocLines(text, start, next, end, isJson) ?? next)
    : next;
  return isFedPassword(command, fed) ? { line: match, fed } : null;
}

/** The text with the passwords fed to a command's input taken out; `isJson` when it is JSON (`JSON.stringify`'s). */
export function redactStdinPasswords(text: string, isJson: boolean): string {
  let out = '';
  let done = 0;
  // A string search first: most commands are fed nothing, and then no line needs reading.
  const feeds = text.includes('<<')
    ? text.matchAll(isJson ? STDIN_READER_LINE_IN_JSON : STDIN_READER_LINE)
    : [];
  for (const found of feeds) {
    const [match, line = '', lineBreak = '', next] = found;
    // A reader on a heredoc's line, already taken out, is that password's.
    if (found.index < done) continue;
    const start = found.index + match.length + lineBreak.length;
    const redacted = redactFedPassword(text, start, [match, line, next], isJson);
    if (!redacted) continue;
    out += `${text.slice(done, found.index)}${redacted.line}`;
    done = found.index + match.length;
    if (redacted.fed !== undefined) {
      out += `${lineBreak}${/^[ \t]*/.exec(redacted.fed)?.[0] ?? ''}${REDACTED}`;
      done = start + redacted.fed.length;
    }
  }
  return `${out}${text.slice(done)}`.replace(
    isJson ? ECHOED_PASSWORD_IN_JSON : ECHOED_PASSWORD,
    (match, before: string, _format, quote = '', quoted?: string, bare?: string) =>
      redactPasswordOption(match, before, quote, quoted, bare),
  );
}
