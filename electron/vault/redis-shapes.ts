/**
 * Redis' passwords: redis-cli's `-a` and `--pass`, and the AUTH command's, given to redis-cli on its command line, typed
 * at its prompt (`127.0.0.1:6379> AUTH pw`), on a line of its own (a script's, a client's log), inside a line after
 * other words (`run AUTH pw, then GET key`), or as MIGRATE's `AUTH pw` or `AUTH2 user pw` (in capitals, or in any case
 * with all of MIGRATE's arguments before it). (redis-cli's `-u redis://user:pw@host` is a URL's password, taken as any
 * URL's.)
 */
import { redactPasswordOption, withArgument } from './command-arguments';
import { isPlaceholder } from './credential-fields';
import {
  AFTER_ESCAPE,
  BACKSLASH_IN_LINE,
  LINE_BREAK,
  UNICODE_LINE_BREAK,
  WORD_START,
  wordStart,
} from './redaction';

/** redis-cli, read back from its "-" once "cli" follows. */
const REDIS_CLI = String.raw`cli(?<=${WORD_START}redis-cli)`;
/** redis-cli's prompt before its ">": `127.0.0.1:6379`, `localhost:6379[1]`, or `redis` as Redis' own pages write it. */
const PROMPT = String.raw`(?::\d{2,5}(?:\[\d{1,2}\])?|${WORD_START}redis)`;
/** The AUTH command at redis-cli's prompt (`127.0.0.1:6379> AUTH pw`), looked for from the prompt's ">". */
const REDIS_PROMPT_AUTH = String.raw`>(?<=${PROMPT}>)[ \t]*(?:AUTH|auth)[ \t]`;
/** AUTH or AUTH2 in capitals, a word, then a space: read back from its "H", rare in prose. */
const CAPITAL_AUTH = String.raw`H(?<=${WORD_START}AUTH)2?[ \t]`;
/** A word of a command, or a quoted one (`""`, in JSON `\"\"`): MIGRATE's host and key. */
const ARGUMENT = String.raw`(?:\\?"[^"\\\r\n]*\\?"|'[^'\r\n]*'|[^\s"'\\|;&]+)`;
/**
 * MIGRATE in small letters and what follows its "e": its host and its port (a sentence's "migrate the old tickets" has
 * no port). A hint reads it back from that "e" (command-shapes.ts). In capitals, its AUTH is the hint.
 */
export const MIGRATE_WORD = '[Mm]igrate';
export const AFTER_MIGRATE = String.raw`[ \t]+${ARGUMENT}[ \t]+\d{1,5}[ \t]`;
/** Where Redis' password may be, for the redactor's first quick test (secret-shapes.ts, command-shapes.ts). */
export const REDIS_HINT = `-${REDIS_CLI}|${REDIS_PROMPT_AUTH}|${CAPITAL_AUTH}`;

/** redis-cli's password: `-a pw`, `--pass pw` (its `-p` is the port, its `-u redis://user:pw@host` a URL's). */
const REDIS_PASSWORD_OPTION = new RegExp(withArgument(String.raw`\s(?:-a[ \t]+|--pass(?:[ \t]+|=))`, 2));
/**
 * The spaces between AUTH's words, all of them: given back one by one, each shorter run was tried against the rest
 * of the line again, and AUTH before 40,000 spaces took a second to read.
 */
const SPACES = String.raw`[ \t]+(?![ \t])`;
/**
 * Redis' AUTH command and its password, the last of its one or two arguments (`AUTH pw`, `AUTH default pw`), given
 * to redis-cli on its command line or typed at its prompt (`127.0.0.1:6379> AUTH pw`, `localhost:6379[1]>`): then
 * the command ends its line (or its string, in JSON, or a sentence: `AUTH_IS_LAST`). The password is never empty:
 * with spaces after it (`AUTH pw `) it is not taken for the user, the empty word after it for the password. A word
 * that ends a sentence or a clause (`AUTH s3cret. Thanks!`, `AUTH s3cret, then PING`) is never the user: taken for one,
 * the sentence's next word was read as the password and the password itself was kept.
 */
const AUTH_ARGUMENTS = String.raw`${SPACES}(?:[^\s"'\\]*[^\s"'\\.!?,]${SPACES})?(?=\S)`;
const REDIS_AUTH_ARGUMENTS = `(?:AUTH|auth)${AUTH_ARGUMENTS}`;
/**
 * The end of AUTH's line (or string), of the quotes it is echoed in before a pipe (`echo "AUTH pw" | redis-cli`), or
 * of a sentence or a clause, its `.`, `!`, `?` or `,` then a space: a note's `redis-cli`, `AUTH pw.`, then the words Deputy writes after
 * it ("The user rejected this action: … Do not retry it unless they ask."). The sentence's mark is left to it. A
 * password in quotes ends there too, its closing quote then the mark (`AUTH 'S3cret pw'. Thanks`, or at the line's end).
 */
const AUTH_IS_LAST = String.raw`(?=\\?["']?(?:[ \t]*(?:$|\r?\n|\\n|")|[.!?,](?:[ \t]|$|\r?\n|\\n))|\\?["'][ \t]*\|)`;
const REDIS_AUTH = new RegExp(`${withArgument(String.raw`\s${REDIS_AUTH_ARGUMENTS}`, 2)}${AUTH_IS_LAST}`);
const REDIS_PROMPT_AUTH_COMMAND = new RegExp(
  `${withArgument(String.raw`${PROMPT}>[ \t]*${REDIS_AUTH_ARGUMENTS}`, 2)}${AUTH_IS_LAST}`,
  'gm',
);
/**
 * AUTH on a line of its own with no prompt before it (a script's, a log's, a message's `AUTH S3cretPw`, one echoed into
 * redis-cli): at the line's start (or a JSON string's, a quote's, or after a `\n` escape), its one or two arguments
 * ending the line (or a sentence). In capitals, a password with a character other than a letter, or of 16 or more, is
 * taken there; `AUTH required` and `AUTH token expired` are a sentence's words, so one of letters only
 * (`AUTH mypassword`), and AUTH in small letters, only in a Redis session (`isInRedisSession`), and a word that says
 * how AUTH went never (`AUTH_OUTCOME`).
 */
const LINE_AUTH = new RegExp(
  `(?<=(?:^|[\\r\\n"']|${AFTER_ESCAPE})[ \\t]*)${withArgument(REDIS_AUTH_ARGUMENTS, 2)}${AUTH_IS_LAST}`,
  'g',
);
const LOOKS_LIKE_PASSWORD = /[^A-Za-z]|^.{16}/;
/**
 * AUTH inside a line, after other words (`run AUTH hunter2secret, then GET key`, a code span's `` `AUTH pw` ``): its
 * arguments end the line, a sentence or a clause (`AUTH_IS_LAST`), or a code span. A sentence's words are as likely
 * there as a command, so a password is taken only when it looks like one and is no placeholder (`isPlaceholder`: 8
 * characters or more, not `<password>`), AUTH in small letters only in a Redis session, and never after a user that
 * is a word of prose (`AUTH to v2.0-beta, then`).
 */
/** A code span's closing backtick, after the closing quote of a password in quotes. */
const CODE_SPAN_END = String.raw`(?=\\?["']?\`)`;
const MID_LINE_AUTH = new RegExp(
  `${withArgument(String.raw`(?:AUTH|auth)(?<=[ \t\`(](?:AUTH|auth))${AUTH_ARGUMENTS}`, 2)}(?:${AUTH_IS_LAST}|${CODE_SPAN_END})`,
  'g',
);
/** A sentence's aside in brackets (`AUTH (OAuth2), then`) or a password masked (`AUTH ********`): no password. */
const ASIDE_OR_MASK = /^(?:[([{<].*[)\]}>]|[*•]+)$/;
/** Words of prose that stand after AUTH in a sentence where a command's user would (`replaced AUTH with ACLs`). */
const PROSE_WORD =
  /^(?:a|an|the|to|too|with|without|for|in|on|at|by|from|of|via|as|and|or|but|is|was|be|it|its|this|that|then|now|before|after|into|over|under|using|uses|used)$/i;
/**
 * Words that say how an AUTH went or what it needs (`AUTH required`, `auth failed.`, `AUTH token expired`): a reply's,
 * a log's or a sentence's, never taken for a password, in a Redis session too. A password that is one of these words
 * is kept: there is no telling it from the word.
 */
const AUTH_OUTCOME = new RegExp(
  String.raw`^(?:required|needed|missing|failed|failure|error|denied|refused|rejected|invalid|expired|` +
    String.raw`ok|okay|succeeded|successful|success|passed|disabled|enabled|pending)[.!?]*$`,
  'i',
);
/** How far from an AUTH its Redis session is looked for, in characters each way. */
const SESSION_REACH = 256;
/**
 * How many lines before AUTH's own its Redis session is looked for: redis-cli's or its prompt's, then up to two between
 * (a blank line, a PING and its PONG).
 */
const LINES_BEFORE = 3;
/**
 * redis-cli, Redis' own prompt (`redis>`, `redis 127.0.0.1:6379>`), or redis-cli's, read back from its port
 * (`127.0.0.1:6379>`, `cache:6379[1]>`).
 */
const REDIS_SESSION = new RegExp(
  String.raw`${WORD_START}redis(?:-cli\b|[^\r\n>]{0,24}>)|:(?<=[\w.-]:)\d{2,5}(?:\[\d{1,2}\])?>`,
);
const ANY_LINE_BREAK = new RegExp(LINE_BREAK);
const ANY_LINE_BREAKS = new RegExp(LINE_BREAK, 'g');
/** A JSON string's own quote, not one escaped in it. */
const STRING_QUOTE = /(?<!\\)"/;
const STRING_QUOTES = /(?<!\\)"/g;

/** Where the last match of `pattern` (a global pattern) in `text` ends; 0 with none. */
function lastMatchEnd(pattern: RegExp, text: string): number {
  let end = 0;
  for (const found of text.matchAll(pattern)) end = found.index + found[0].length;
  return end;
}

/**
 * Whether an AUTH (from `start` to `end` in `text`) is typed in a Redis session: with redis-cli or its prompt on its
 * line (`echo "AUTH pw" | redis-cli`) or on one of the `LINES_BEFORE` lines before (`redis-cli -h cache`, then
 * `AUTH pw`; a heredoc fed to redis-cli; `127.0.0.1:6379>`, a PING and its PONG, then `AUTH pw`), within
 * `SESSION_REACH`; in JSON (`isJson`) in its own string. Further on, redis-cli says little of what AUTH is: a
 * sentence's words as likely. (A word that says how AUTH went is never taken, in a session too: `AUTH_OUTCOME`.)
 */
function isInRedisSession(text: string, start: number, end: number, isJson: boolean): boolean {
  let before = text.slice(Math.max(0, start - SESSION_REACH), start);
  let after = text.slice(end, end + SESSION_REACH);
  // A string search first: few AUTHs have Redis near them.
  if (!before.includes('redis') && !before.includes('>') && !after.includes('redis')) return false;
  if (isJson) {
    before = before.slice(lastMatchEnd(STRING_QUOTES, before));
    const close = after.search(STRING_QUOTE);
    if (close >= 0) after = after.slice(0, close);
  }
  // Its line and the lines before; after it, in a text, to its line break: a `\n` escape there is an echo's or a
  // printf's as often as a line's end.
  let lineStart = lastMatchEnd(ANY_LINE_BREAKS, before);
  for (let line = 0; line < LINES_BEFORE && lineStart > 0; line++) {
    lineStart = lastMatchEnd(ANY_LINE_BREAKS, before.slice(0, lineStart - 1));
  }
  before = before.slice(lineStart);
  const lineEnd = after.search(isJson ? ANY_LINE_BREAK : /\r?\n/);
  return REDIS_SESSION.test(`${before} ${lineEnd < 0 ? after : after.slice(0, lineEnd)}`);
}
/**
 * Redis' MIGRATE in capitals, as its AUTH (`MIGRATE host port key db timeout … AUTH pw` or `AUTH2 user pw`, `KEYS …`
 * after): its host and port first, as a sentence's "MIGRATE" has not, then to the command's end (a line's, a `|`, `;`
 * or `&`). In its AUTH, groups: the option, the quote, the password in quotes, or bare.
 */
function migrateCommand(isJson: boolean): RegExp {
  const char = isJson
    ? String.raw`(?:[^\r\n\\|;&"]|${BACKSLASH_IN_LINE}[^n\r\n])`
    : String.raw`(?:[^\r\n\\|;&]|\\(?!${UNICODE_LINE_BREAK})[^n\r\n])`;
  return new RegExp(String.raw`${wordStart('M')}MIGRATE[ \t]+[^\s"'\\|;&]+[ \t]+\d{1,5}[ \t]${char}*`, 'g');
}
const MIGRATE_COMMAND = migrateCommand(false);
const MIGRATE_COMMAND_IN_JSON = migrateCommand(true);
const MIGRATE_AUTH = new RegExp(withArgument(String.raw`\sAUTH[ \t]+|\sAUTH2[ \t]+[^\s"'\\]+[ \t]+`, 2));
/**
 * MIGRATE in any case (`migrate host 6379 "" 0 5000 copy auth pw`), where a sentence's "migrate … auth" could as well
 * be prose: only with every argument in its place before AUTH (or AUTH2 and its user), the host, the port, the key,
 * the destination database and the timeout, those three numbers, then COPY or REPLACE. Groups: all before the
 * password, the quote, the password in quotes, or bare.
 */
const MIGRATE_IN_ANY_CASE = new RegExp(
  wordStart('[Mm]') +
    withArgument(
      String.raw`migrate[ \t]+${ARGUMENT}[ \t]+\d{1,5}[ \t]+${ARGUMENT}[ \t]+\d{1,5}[ \t]+\d{1,10}(?:[ \t]+(?:copy|replace))*` +
        String.raw`[ \t]+(?:auth|auth2[ \t]+[^\s"'\\]+)[ \t]+`,
      2,
    ),
  'gi',
);

/** A redis-cli command with its password taken out: its `-a` or `--pass`, or AUTH's. */
export function redactRedisCliCommand(command: string): string {
  return command
    .replace(REDIS_PASSWORD_OPTION, redactPasswordOption)
    .replace(REDIS_AUTH, redactPasswordOption);
}

/** Whether an AUTH's password (its option being AUTH and its user, if any) is one; `isInSession` as isInRedisSession. */
type AuthTest = (password: string, option: string, isInSession: () => boolean) => boolean;

/**
 * A replacer for an AUTH pattern's match (groups as `withArgument`'s) that takes its password out when `isPassword`
 * says it is one, never a word that says how AUTH went. A code span's closing backtick right after a bare password
 * is the span's, and stays.
 */
function redactAuthWhen(isPassword: AuthTest, isJson: boolean) {
  return (
    match: string,
    option: string,
    quote: string | undefined,
    quoted: string | undefined,
    bare: string | undefined,
    offset: number,
    within: string,
  ): string => {
    const spanEnd = bare?.endsWith('`') ? '`' : '';
    const word = bare?.slice(0, bare.length - spanEnd.length);
    const password = quoted ?? word ?? '';
    const isInSession = (): boolean => isInRedisSession(within, offset, offset + match.length, isJson);
    if (AUTH_OUTCOME.test(password) || !isPassword(password, option, isInSession)) return match;
    const redacted = redactPasswordOption(match, option, quote, quoted, word);
    return redacted === match ? match : `${redacted}${spanEnd}`;
  };
}

/**
 * The text with the passwords of its AUTH commands outside redis-cli's command line taken out; `isJson` when it is
 * JSON (`JSON.stringify`'s output), whose strings each hold their own text.
 */
export function redactRedisAuth(text: string, isJson: boolean): string {
  // A string search first: AUTH is in every shape here, and in few texts.
  if (!text.includes('AUTH') && !text.includes('auth')) return text;
  return text
    .replace(REDIS_PROMPT_AUTH_COMMAND, redactPasswordOption)
    .replace(
      LINE_AUTH,
      redactAuthWhen(
        (password, option, isInSession) =>
          (option.startsWith('AUTH') && LOOKS_LIKE_PASSWORD.test(password)) || isInSession(),
        isJson,
      ),
    )
    .replace(
      MID_LINE_AUTH,
      redactAuthWhen(
        (password, option, isInSession) =>
          !isPlaceholder(password) &&
          !ASIDE_OR_MASK.test(password) &&
          LOOKS_LIKE_PASSWORD.test(password) &&
          !PROSE_WORD.test(option.trim().split(/[ \t]+/)[1] ?? '') &&
          (option.startsWith('AUTH') || isInSession()),
        isJson,
      ),
    )
    .replace(isJson ? MIGRATE_COMMAND_IN_JSON : MIGRATE_COMMAND, (command) =>
      command.replace(MIGRATE_AUTH, redactPasswordOption),
    )
    .replace(MIGRATE_IN_ANY_CASE, redactPasswordOption);
}
