/**
 * Whether a field's value is a credential, read from its name and its value: `api_key`, `X-Auth-Token`,
 * `password` name one, `issueKey` and `pageToken` do not; `getApiKey(config)`, a key file's path and a
 * placeholder are no credential's value. Shared by the field pattern (secret-shapes.ts) and the name/value
 * pairs of a request (name-value-pairs.ts).
 */
import { MIN_SECRET_LENGTH } from './redaction';

/**
 * The words before a final "key" or "token" that make it a credential's name (`api_key`, `accessToken`,
 * `X-Auth-Token`, `AWS_SECRET_ACCESS_KEY`; and `id_token`). Any other word leaves the name to things that only
 * locate or order: an issue, thread, storage or i18n key, a keyboard key, a page, sync or event token, an
 * idempotency key.
 */
export const CREDENTIAL_QUALIFIERS = [
  'api',
  'access',
  'auth',
  'client',
  'refresh',
  'session',
  'secret',
  'private',
  'master',
  'bearer',
  'oauth',
  'bot',
  'subscription',
  'encryption',
  'signing',
  'account', // Azure's storage AccountKey
  'identity', // a Docker config's identitytoken
];
/**
 * The words a field's name ends in when it may hold a secret; `isCredentialName` then reads the whole name. Rails'
 * `secret_key_base` signs its sessions' cookies.
 */
const FIELD_WORDS = [
  'key',
  'token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'auth',
  String.raw`key[_-]?base`,
  'sshpass',
];
export const ANY_FIELD_WORD = FIELD_WORDS.join('|');

/**
 * A last word that names a credential by itself: `password`, `dbpassword`, `pwd`, `secret`, `apikey`; a Docker
 * config's `registrytoken`; `SSHPASS`, the variable `sshpass -e` reads its password from.
 */
const CREDENTIAL_WORD = new RegExp(
  `(?:passw(?:or)?d|pwd)$|^(?:secret|registrytoken|sshpass|(?:${CREDENTIAL_QUALIFIERS.join('|')})(?:key|token|secret))$`,
);
/** The variable redis-cli reads its password from. */
const REDIS_AUTH_NAME = /^REDISCLI_AUTH$/i;
/** A name written as an environment variable (`SLACK_TOKEN`, `GITHUB_TOKEN`): there a token is a credential. */
const ENV_TOKEN_NAME = /^[A-Z][A-Z0-9_]*_TOKEN$/;
/** Where a name breaks into words: `X-Api-Key` → X, Api, Key; `i18nKey` → i18n, Key; `API key` → API, key. */
const NAME_WORD_BREAK = /[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/;

/** Whether a field so named holds a credential. A bare "key" never does ("Key: bring the documents"). */
function isCredentialName(name: string): boolean {
  const words = name.split(NAME_WORD_BREAK).filter(Boolean);
  const last = words.at(-1)?.toLowerCase() ?? '';
  if (CREDENTIAL_WORD.test(last) || REDIS_AUTH_NAME.test(name)) return true;
  if (words.slice(-3).join(' ').toLowerCase() === 'secret key base') return true;
  if (last !== 'key' && last !== 'token') return false;
  const before = words.at(-2)?.toLowerCase() ?? '';
  if (CREDENTIAL_QUALIFIERS.includes(before) || (last === 'token' && before === 'id')) return true;
  return last === 'token' && (words.length === 1 || ENV_TOKEN_NAME.test(name));
}

/**
 * npm's `_auth` and a Docker config's `auth`: `user:password` in base64, as a Basic authorization holds it. Any other
 * value of a field so named (`auth: required`, `"auth": "oauth2"`) is a setting.
 */
const BASE64_CREDENTIALS_NAME = /^_?auth$/i;
const BASE64 = /^[A-Za-z0-9+/]{12,}={0,2}$/;
/** `user:password`: printable, with a colon after the user and a password after it. */
const USER_AND_PASSWORD = /^[\x21-\x39\x3b-\x7e]+:[\x20-\x7e]+$/;

function isBase64Credentials(value: string): boolean {
  if (!BASE64.test(value)) return false;
  try {
    return USER_AND_PASSWORD.test(atob(value));
  } catch {
    return false; // not base64 after all (a length no encoding gives)
  }
}

/**
 * A bare `token`/`secret` (or `sshpass` in lower case, the tool's name), or a name of two words ("access token: …"):
 * as likely prose as a field.
 */
const WEAK_NAME = /^(?:token|secret|sshpass|Token|Secret|Sshpass)$| /;

/** Values that say there is no secret here: empty words, what a redactor (this one or another) left, a template. */
const NO_SECRET_VALUE =
  /^(?:null|none|nil|undefined|true|false|empty|redacted|\[redacted\]|your[\w-]*|<[^>]*>|x{3,}|\.{3,}|process\.env\..*|os\.environ.*)$/i;
/**
 * Code, not a credential: a call or an index (`getApiKey(config)`, `keys[name]`: a bare value is read with the
 * character after it), a member (`form.value.trim`, `response.data.accessToken`), or a name of code
 * (`api_key_from_env`, `escape_key`, `newPassword`, the type `RefreshToken`). No generated secret has a
 * bracket, and nearly all have a digit, which none of these names hold.
 */
const CALL_VALUE = /^[A-Za-z_$][\w$.]*[([]/;
const CODE_VALUE =
  /^(?:[A-Za-z_$]+(?:\.[A-Za-z_$]+)+|[A-Za-z]+(?:_[A-Za-z]+)+|[A-Za-z][a-z]+(?:[A-Z][a-z]+)+)$/;
/**
 * A file's path (`/etc/ssl/key.pem`, `~/.ssh/id_rsa`, `./keys/dev.pem`, `C:\keys\dev.pem`): where a key is kept,
 * not the key. Base64 may start with "/" too, so a value of base64 alone with upper and lower case and digits
 * (an AWS secret key) is not taken for a path.
 */
const PATH_VALUE = /^(?:~|\.\.?\/|[A-Za-z]:\\|\/)/;
const BASE64_VALUE = /^[A-Za-z0-9+/=]{20,}$/;

function isPath(value: string): boolean {
  if (!PATH_VALUE.test(value)) return false;
  return !BASE64_VALUE.test(value) || !/[A-Z]/.test(value) || !/[a-z]/.test(value) || !/\d/.test(value);
}

/** A field's name and value as read from a text (by `SECRET_FIELD` in secret-shapes.ts). */
export interface FieldMatch {
  name: string;
  quotedName: string | undefined;
  value: string;
  /** A bare value with the character after it (`getApiKey(` is a call); a quoted value as it is. */
  valueWithNext: string;
  isQuoted: boolean;
  /** Whether the name follows the `?` or `&` of a URL's query. */
  isInQuery: boolean;
  /** Whether the value stands on the line after its name (YAML). */
  isOnNextLine: boolean;
  /** Whether nothing follows the value on its line but its closing quote, spaces or a comment. */
  endsItsLine: boolean;
}

/**
 * A variable's name where its value will be put: `$TOKEN`, `${TOKEN}`, PowerShell's `$env:TOKEN`, Kubernetes'
 * `$(TOKEN)`, Windows' `%TOKEN%`, a template's `{{ .Values.token }}` or GitHub's `${{ secrets.TOKEN }}`. A default
 * given with it (`${TOKEN:-…}`) may be a secret, and is no match. Several side by side (`$PREFIX$SUFFIX`) are one.
 */
const VARIABLE_REFERENCE =
  /^(?:\$(?:env:)?[A-Za-z_]\w*|\$\{[A-Za-z_]\w*\}|\$\([A-Za-z_]\w*\)|%[A-Za-z_]\w*%|\$?\{\{[ \t]*\.?[A-Za-z_][\w.]*[ \t]*\}\})+$/;

/** Whether a value is a variable's name (`$TOKEN`, `%TOKEN%`), as a credential in a script or a config often is. */
export function isVariableReference(value: string): boolean {
  return VARIABLE_REFERENCE.test(value);
}

/**
 * A value that holds no secret: too short, a placeholder (`<token>`, `your-key`, `[redacted]`), or read from a
 * variable (`$TOKEN`), as a request's credentials often are in a script.
 */
export function isPlaceholder(value: string): boolean {
  return value.length < MIN_SECRET_LENGTH || NO_SECRET_VALUE.test(value) || isVariableReference(value);
}

/** A value written in quotes after its name (`"name": "value"`), as `isSecretField` reads it. */
export function quotedField(name: string, value: string): FieldMatch {
  return {
    name,
    quotedName: undefined,
    value,
    valueWithNext: value,
    isQuoted: true,
    isInQuery: false,
    isOnNextLine: false,
    endsItsLine: true,
  };
}

/**
 * Whether a field's value is redacted. A name in quotes with a bare value is a JSON number or literal
 * (`"pin_token": 12345678901`): left, so redacted JSON still parses. After a weak name only a value that looks
 * generated (a digit in it, or 20 characters) is taken: "Secret: friendship" stays.
 */
export function isSecretField(field: FieldMatch): boolean {
  const { name, value } = field;
  if (isPlaceholder(value)) return false;
  if (field.quotedName && !field.isQuoted) return false;
  if (BASE64_CREDENTIALS_NAME.test(name)) return isBase64Credentials(value);
  if (!isCredentialName(name)) return false;
  // `?pwd=` in a meeting link (Zoom's) is the passcode every invitee is sent with it: redacted, the link the
  // person asked to forward no longer lets anyone in. Other credentials in a query (`?access_token=`) are taken.
  if (field.isInQuery && /^pwd$/i.test(name)) return false;
  if (CALL_VALUE.test(field.valueWithNext) || CODE_VALUE.test(value) || isPath(value)) return false;
  // A name ending its line is as often a heading, or a YAML map or list, as a credential: the next line's value
  // is taken only when it looks generated (letters and digits), is no key of a nested map (`user2:`) and is the
  // whole line, not the first word of a sentence ("12-characters minimum").
  if (field.isOnNextLine) {
    return field.endsItsLine && /\d/.test(value) && /[A-Za-z]/.test(value) && !value.endsWith(':');
  }
  return !WEAK_NAME.test(name) || looksGenerated(value);
}

/**
 * Whether a value looks made by a machine rather than written by a person: a digit in it, or 20 characters. Where its name may as well be a word of prose ("Secret: friendship", "Authorization: pending
 * approval"), only such a value is taken for a secret.
 */
export function looksGenerated(value: string): boolean {
  return /\d/.test(value) || value.length >= 20;
}

/** The pieces of a value between its punctuation: `analytics-2024-05` → analytics, 2024, 05. */
const VALUE_PIECE_BREAK = /[^A-Za-z0-9]+/;
/** A piece of 8 characters mixing letters and digits (`9f8e7d6c`, `abc123def456`), or any piece of 20. */
const RANDOM_PIECE = /^(?=[a-z]*\d)(?=\d*[a-z])[a-z\d]{8,}$|^[a-z\d]{20,}$/i;

/**
 * Whether a value looks random, as a token, a session id or a hash does, where nothing else says it is a secret
 * (a cookie of any name, an `Authorization:` with no scheme): 16 characters or more, one piece of which mixes
 * letters and digits over 8 or runs 20 long. Words a person writes, joined by hyphens and dates
 * (`analytics-2024-05`, `INV-2024-000123-approved`), and Google Analytics' `GA1.2.1234567890.1234567890` have none.
 */
export function looksRandom(value: string): boolean {
  return value.length >= 16 && value.split(VALUE_PIECE_BREAK).some((piece) => RANDOM_PIECE.test(piece));
}
