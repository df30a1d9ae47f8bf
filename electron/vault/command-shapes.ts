/**
 * Credentials given to a command rather than written as a token of a known shape: the `user:password` and cookies
 * that curl is given with `-u`/`--user` (or `-U`/`--proxy-user`) and `-b`/`--cookie`, the password given to
 * `docker login`, `sshpass`, `mysql`, `redis-cli` (and Redis' `AUTH`) and `htpasswd`, or fed to a command's input
 * (stdin-passwords.ts: echoed into `--password-stdin` or `sudo -S`, a here-string, a heredoc), and the passwords of a
 * `.netrc` file, the logins curl, git and ftp read. The user's name and the machine's stay readable.
 */
import { blankQuoted, redactPasswordOption, withArgument } from './command-arguments';
import { isPlaceholder, isVariableReference, looksGenerated } from './credential-fields';
import {
  BACKSLASH_IN_LINE,
  CONTINUATION_ESCAPED_TWICE,
  MIN_SECRET_LENGTH,
  REDACTED,
  startingWord,
  WORD_START,
} from './redaction';
import {
  AFTER_MIGRATE,
  MIGRATE_WORD,
  redactRedisAuth,
  redactRedisCliCommand,
  REDIS_HINT,
} from './redis-shapes';
import { redactStdinPasswords } from './stdin-passwords';
import { redactCookiePairs } from './request-shapes';

/**
 * A command named by `name` (a pattern), to the end of its line and over the lines it continues onto (a `\` before
 * the newline, or, in JSON, before a `\n` escape), or to a shell's `&&`, `||`, `|` or `;` outside quotes, where the
 * next command starts. Only there is `-u user:password` a credential: `docker run -u 1000:1000` and
 * `rsync -u host:/path` are a user and group and a path (and `grep -b` a byte offset), after a curl command on the
 * same line too, or on the next line after a line break escaped twice (`\\n`, JSON inside JSON, in a JSON string or
 * printed as text). A quoted argument is read to its closing quote on the line, or, with none, its quote as any other
 * character.
 *
 * In JSON text (`isJson`) every plain `"` opens or closes a string: a command ends with the string it is in, so
 * `-u 1000:1000` in another string (a later message of the conversation, another Slack message) is not read as its
 * option. There the shell's double quotes are written `\"`.
 */
function commandLine(name: string, isJson: boolean): RegExp {
  const rest = isJson
    ? String.raw`(?:'(?:[^'"\\\r\n]|\\[^n\r\n])*'|\\"(?:[^"\\\r\n]|\\[^"n\r\n])*\\"|[^\r\n\\'"|;&]|&(?!&)|'|${CONTINUATION_ESCAPED_TWICE}|${BACKSLASH_IN_LINE}(?:\\\\n|[^n\r\n]))*`
    : String.raw`(?:'[^'\r\n]*'|"(?:[^"\\\r\n]|\\[^\r\n])*"|[^\r\n\\'"|;&]|&(?!&)|['"]|${CONTINUATION_ESCAPED_TWICE}|${BACKSLASH_IN_LINE}(?:\r?\n|\\\\n|[^n\r\n]))*`;
  return new RegExp(String.raw`${startingWord(name)}\b${rest}`, 'g');
}
const CURL_COMMAND = commandLine('curl', false);
const CURL_COMMAND_IN_JSON = commandLine('curl', true);
/** curl's short options that take no argument, which may stand before another in one word (`-su`, `-sSLb`). */
const CURL_FLAGS = '[0-46aBfgGiIjJklLMnNOpqRsSvVZ#]';
/** curl's options that carry a credential: `-u`/`--user`, the proxy's `-U`/`--proxy-user`, `-b`/`--cookie`. */
const CURL_CREDENTIAL_LETTERS = '[uUb]';
const CURL_CREDENTIAL_NAMES = 'proxy-user|user|cookie';
/**
 * A password given to a command other than curl (its option, and whether the password may stand after a space or
 * `=`): a registry's `docker login -p`/`--password` (`podman`, `nerdctl` too), `sshpass -p`, the MongoDB shell's
 * `-p`, and MySQL's `-p`, which takes its password only glued to it (`-pS3cret`): `mysql -p mydb` asks for one and
 * opens the database mydb. The first such option of the command is its password: `sshpass -p pw ssh -p 2222 host`
 * keeps ssh's port.
 */
const SPACED_PASSWORD_COMMANDS = String.raw`(?:docker|podman|nerdctl)[ \t]+login|sshpass|mongo(?:sh)?`;
const GLUED_PASSWORD_COMMANDS = String.raw`mysql(?:dump|admin)?|mariadb`;
/**
 * Where one of those options may start, for the redactor's first quick test (secret-shapes.ts): a "-" after a
 * space, far rarer than the letters. Commands take a password otherwise too: `redis-cli` (its `-a` and `--pass`, its
 * `-p` being the port), `htpasswd -b` (its last argument; `-cb` is the one way of writing it curl's flags miss), and a
 * password echoed into `--password-stdin`.
 */
const PASSWORD_OPTION_START = String.raw`p|-password(?:[ \t=]|-stdin)|c[A-Za-z]{0,6}b`;
/** sudo's first option, read back from its "-": `-S` (or `--stdin`) has sudo read the password from its input. */
const SUDO_OPTION = String.raw`(?<=${WORD_START}sudo[ \t]-)`;
export const COMMAND_CREDENTIAL_HINT = String.raw`-(?<=\s-)(?:${CURL_FLAGS}*${CURL_CREDENTIAL_LETTERS}|-(?:${CURL_CREDENTIAL_NAMES})|${PASSWORD_OPTION_START})|-${SUDO_OPTION}|${REDIS_HINT}`;
/**
 * Whether a text may hold a password option at all (htpasswd's is looked for by its name): the commands' pattern,
 * whose start is no one literal, costs far more to scan for than this "-".
 */
const PASSWORD_OPTION_HINT = new RegExp(
  String.raw`-(?:(?<=\s-)(?:${PASSWORD_OPTION_START})|${SUDO_OPTION})|${REDIS_HINT}|e(?<=${WORD_START}${MIGRATE_WORD})${AFTER_MIGRATE}`,
);
/**
 * One of curl's options, alone or last in a word of flags (`-su`), then its argument. Groups: the option and the
 * space after it, the option's letter or long name, the quote, then the argument in quotes or bare.
 */
const CURL_CREDENTIAL_OPTION = new RegExp(
  withArgument(
    String.raw`\s(?:-${CURL_FLAGS}*(${CURL_CREDENTIAL_LETTERS})[ \t]*|--(${CURL_CREDENTIAL_NAMES})(?:[ \t]+|=))`,
    4,
  ),
  'g',
);
/**
 * The password option of a command that takes it after a space, and of one that takes it glued (MySQL's). Groups:
 * the option, the quote, the password in quotes or bare.
 */
const SPACED_PASSWORD_OPTION = new RegExp(
  withArgument(String.raw`\s(?:-p(?:=|[ \t]*)|--password(?:[ \t]+|=))`, 2),
);
const GLUED_PASSWORD_OPTION = new RegExp(withArgument(String.raw`\s(?:-p|--password=)(?=\S)`, 2));
/**
 * All the kinds of command in one pattern, read in one pass; the groups say which: one that takes its password after
 * a space, redis-cli, htpasswd, or (none) one that takes it glued.
 */
const PASSWORD_COMMANDS = `(${SPACED_PASSWORD_COMMANDS})|(redis-cli)|(htpasswd)|${GLUED_PASSWORD_COMMANDS}`;
const PASSWORD_COMMAND = commandLine(PASSWORD_COMMANDS, false);
const PASSWORD_COMMAND_IN_JSON = commandLine(PASSWORD_COMMANDS, true);

/** htpasswd's flags, `-b` (batch) among them (`-b`, `-cb`, `-nbB`): the password is then its last argument. */
const HTPASSWD_FLAGS = /^-[A-Za-z]{1,8}$/;
const HTPASSWD_BATCH = /b/;
/** `-n`: htpasswd prints the line rather than write a file, so only a user stands before the password. */
const HTPASSWD_PRINT = /n/;
/** Where an htpasswd command's arguments end: a redirect (`> out`, `2>/dev/null`) outside quotes. */
const REDIRECT = /\s\d?[<>]/;

/**
 * An htpasswd command (`htpasswd -b file user pw`, `htpasswd -nb user pw`) with its last argument, the password,
 * taken out when `-b` gives it and a file and a user (with `-n` a user) stand before it. A quoted password is read
 * back to its opening quote (in JSON, `\"`).
 */
function redactHtpasswd(command: string): string {
  const redirect = blankQuoted(command).search(REDIRECT);
  const end = command.slice(0, redirect < 0 ? command.length : redirect).trimEnd().length;
  const args = command.slice(0, end).split(/\s+/).slice(1);
  const flags = args.filter((arg) => HTPASSWD_FLAGS.test(arg)).join('');
  const before = HTPASSWD_PRINT.test(flags) ? 1 : 2;
  if (
    !HTPASSWD_BATCH.test(flags) ||
    args.length - args.filter((arg) => arg.startsWith('-')).length <= before
  ) {
    return command;
  }
  const last = command.charAt(end - 1);
  const quote = last === '"' && command.charAt(end - 2) === '\\' ? '\\"' : /["']/.test(last) ? last : '';
  const close = end - quote.length;
  const opening = quote
    ? command.lastIndexOf(quote, close - 1)
    : Math.max(command.lastIndexOf(' ', end), command.lastIndexOf('\t', end));
  const start = opening + (quote.length || 1);
  const password = command.slice(start, close);
  if (opening <= 0 || password === '' || isVariableReference(password)) return command;
  return `${command.slice(0, start)}${REDACTED}${command.slice(close)}`;
}

/**
 * The secret in a curl option's argument: the cookies of `-b name=value`, or the password of `-u user:password`;
 * with no password (`-u sk_live_…:`, an API key given as the user, as Stripe's and many services' examples do) the
 * user when it is of a secret's length. A `-b` argument with no `=` is the file curl reads cookies from, `-u` with
 * no `:` leaves curl to ask for the password, and `$PASS` is a variable: none of these is a secret.
 */
function redactCurlOption(
  match: string,
  option: string,
  letter: string | undefined,
  longName: string | undefined,
  quote: string | undefined,
  quoted: string | undefined,
  bare: string | undefined,
): string {
  const argument = quoted ?? bare ?? '';
  const start = `${option}${quote ?? ''}`;
  if (letter === 'b' || longName === 'cookie') {
    return argument.includes('=') ? `${start}${redactCookiePairs(argument, false)}` : match;
  }
  const colon = argument.indexOf(':');
  if (colon < 0) return match;
  const user = argument.slice(0, colon);
  const password = argument.slice(colon + 1);
  if (isVariableReference(password) || (password === '' && isVariableReference(user))) return match;
  if (password !== '') return `${start}${user}:${REDACTED}`;
  return user.length < MIN_SECRET_LENGTH ? match : `${start}${REDACTED}:`;
}

/** A word of a `.netrc` entry, in a text or in JSON, and the space between two (JSON's `\n` escape too). */
const NETRC_WORD = String.raw`[^\s"\\]+`;
const NETRC_SPACE = String.raw`(?:\s|\\[nrt])+`;
/**
 * A `.netrc` entry (the logins curl, git and ftp read): `machine host`, its `login` and `account`, then `password`
 * and the password, on one line or over several. Groups: all before the password, the password.
 */
const NETRC_PASSWORD = new RegExp(
  String.raw`(${startingWord('machine')}[ \t]+${NETRC_WORD}(?:${NETRC_SPACE}(?:login|account)[ \t]+${NETRC_WORD})*` +
    String.raw`${NETRC_SPACE}password[ \t]+)(${NETRC_WORD})`,
  'g',
);
/**
 * Where a `.netrc` entry may start (`machine host` then one of its words) or Redis' MIGRATE in small letters (with its
 * host and port: redis-shapes.ts), for the redactor's first quick test (secret-shapes.ts). Both start at the "e" ending
 * their first word, a letter the test already stops at, and are read back from it in one look: a look for each would
 * cost every "e" of a text twice.
 */
export const MACHINE_OR_MIGRATE_HINT = String.raw`e(?<=${WORD_START}(?:machine|${MIGRATE_WORD}))(?:(?<=machine)[ \t]+${NETRC_WORD}${NETRC_SPACE}(?:login|account|password)[ \t]|${AFTER_MIGRATE})`;

/**
 * The text with the passwords and cookies of its curl commands, the passwords given to other commands or fed to their
 * input and those of its `.netrc` entries taken out;
 * `isJson` when the text is JSON (`JSON.stringify`'s output), whose strings each hold their own text.
 */
export function redactCommandCredentials(text: string, isJson = false): string {
  const withCurl = text.replace(isJson ? CURL_COMMAND_IN_JSON : CURL_COMMAND, (command) =>
    command.replace(CURL_CREDENTIAL_OPTION, redactCurlOption),
  );
  const withPasswords = !(PASSWORD_OPTION_HINT.test(withCurl) || withCurl.includes('htpasswd'))
    ? withCurl
    : redactRedisAuth(redactStdinPasswords(withCurl, isJson), isJson).replace(
        isJson ? PASSWORD_COMMAND_IN_JSON : PASSWORD_COMMAND,
        (command, spaced: string | undefined, redis: string | undefined, htpasswd: string | undefined) => {
          if (htpasswd !== undefined) return redactHtpasswd(command);
          if (redis !== undefined) return redactRedisCliCommand(command);
          if (spaced === undefined) return command.replace(GLUED_PASSWORD_OPTION, redactPasswordOption);
          return command.replace(SPACED_PASSWORD_OPTION, redactPasswordOption);
        },
      );
  return withPasswords.replace(NETRC_PASSWORD, (match, before: string, password: string) =>
    isPlaceholder(password) || !looksGenerated(password) ? match : `${before}${REDACTED}`,
  );
}
