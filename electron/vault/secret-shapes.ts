/**
 * The shapes of secrets the vault never saw: a token known by its prefix, a credential in a header or a URL,
 * and the value of a field whose name says it holds one (`OPENAI_API_KEY=…`, `"password": "…"`). Text with no
 * such shape comes back as it was; ordinary prose ("my token of thanks", "the password is on the note") has none.
 */
import {
  ANY_FIELD_WORD,
  CREDENTIAL_QUALIFIERS,
  type FieldMatch,
  isSecretField,
  looksRandom,
  quotedField,
} from './credential-fields';
import {
  AFTER_ESCAPE,
  ESCAPED_LINE_BREAK,
  LINE_BREAK,
  REDACTED,
  startingWord,
  UNICODE_LINE_BREAK,
  WORD_START,
  wordStart,
} from './redaction';
import { COMMAND_CREDENTIAL_HINT, MACHINE_OR_MIGRATE_HINT, redactCommandCredentials } from './command-shapes';
import { nameValueHint, redactNameValuePairs } from './name-value-pairs';
import { redactRequestCredentials } from './request-shapes';

/**
 * Tokens known by their prefix alone, the whole match being the secret: each its prefix, then the rest. Joined into
 * one pattern, one pass, each at a word's start (`WORD_START`, after a `\n` escape too), looked back for from the end
 * of its prefix, so a scan skips ahead to the prefixes as it does for literals.
 */
const TOKEN_SHAPES: readonly (readonly [prefix: RegExp, rest: RegExp])[] = [
  [/eyJ/, /[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*/], // JWT (an ID token, a service's session): header.payload.signature
  [/ya29\./, /[\w-]{10,}/], // Google OAuth access token
  [/1\/\/0/, /[\w-]{20,}/], // Google OAuth refresh token
  [/AIza/, /[\w-]{30,}/], // Google API key (Gemini)
  [/GOCSPX-/, /[\w-]{10,}/], // Google OAuth client secret
  [/xox[abposer]-/, /[\w-]{10,}/], // Slack tokens
  [/xapp-/, /[\w-]{10,}/], // Slack app-level token
  // OpenAI project, service-account and admin keys, Anthropic keys, and OpenAI's older keys (48 characters).
  // The older shape has no hyphen after `sk-`, so hyphenated words ("sk-learn-style") are not taken for one.
  [/sk-/, /(?:(?:proj|svcacct|admin|ant)-[\w-]{20,}|[A-Za-z0-9]{32,})/],
  [/[sr]k_/, /(?:live|test)_[A-Za-z0-9]{16,}/], // Stripe secret and restricted keys
  [/gh[pousr]_/, /[A-Za-z0-9]{30,}/], // GitHub tokens: personal, OAuth, user-to-server, server-to-server, refresh
  [/github_pat_/, /\w{22,}/], // GitHub fine-grained personal access token
  [/glpat-/, /[\w-]{20,}/], // GitLab personal access token
  [/A[KS]IA/, /[A-Z0-9]{16}\b/], // AWS access key id (long-term AKIA, temporary ASIA)
  [/npm_/, /[A-Za-z0-9]{36}\b/], // npm access token
  [/hf_/, /[A-Za-z0-9]{30,}/], // Hugging Face access token
  [/whsec_/, /[A-Za-z0-9+/]{20,}={0,2}/], // Stripe (and Svix) webhook signing secret
  [/pypi-AgE/, /[\w-]{50,}/], // PyPI (and TestPyPI) API token, a macaroon
];

/** The `?` or `&` before a query's parameter; also HTML's `&amp;` (its `;`), `\u0026` and a URL-encoded `%26`. */
const QUERY_AND = String.raw`(?:[?&;]|\\u0026|%26)`;
/**
 * A shared access signature under 16 characters (cut off in a paste): taken only when the rest of a SAS stands beside
 * it, its `sv` (the storage version, which every SAS has) in the same URL before or after it, or a connection string's
 * `SharedAccessSignature=` before it, and when it reads as base64 (a capital, a digit or one of `%+/` in it):
 * `&sig=short` and a `sig=` of another site's query stay. Both looks are bounded, so a text of many is read once.
 */
const SHORT_SIGNATURE = String.raw`(?=[\w%+/-]{0,14}[A-Z\d%+/])[\w%+/-]{4,15}={0,2}(?![\w%+/=-])(?:(?<=(?:${QUERY_AND}sv(?:=|%3D)|SharedAccessSignature=)[^\s"'<>]{0,256})|(?=[^\s"'<>]{0,256}?${QUERY_AND}sv(?:=|%3D)))`;

/**
 * Patterns whose first group is kept: the words before the credential say what it is and stay readable.
 * The two PEM patterns keep their order: a whole key first, then one cut off before its END line.
 */
const PREFIXED_SHAPES: readonly RegExp[] = [
  // PEM private keys, whole; the body stops at a quote so a key inside JSON never swallows the next field, and
  // at another BEGIN line, so a text of many BEGIN lines with no END is read once, not once for each of them.
  /()-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:(?!-----BEGIN )[^"])*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g,
  // A key cut off before its END line (a truncated paste) still loses its body: base64, spaces, \n escapes.
  /()-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:\\[rn]|[\sA-Za-z0-9+/=])*/g,
  new RegExp(
    `()(?:${TOKEN_SHAPES.map(([prefix, rest]) => `${prefix.source}(?<=${WORD_START}${prefix.source})${rest.source}`).join('|')})`,
    'g',
  ),
  new RegExp(String.raw`(${startingWord('Bearer')}\s+)[\w.~+/-]{16,}=*`, 'gi'), // a bearer credential echoed into a message
  // user:password, base64
  new RegExp(
    String.raw`(${startingWord('Authorization')}\\?["']?[ \t]*[:=][ \t]*\\?["']?Basic[ \t]+)[A-Za-z0-9+/]{8,}={0,2}`,
    'gi',
  ),
  // A webhook's URL holds its secret as its last segment: Slack's incoming webhook (services/T…/B…/<secret>), its
  // workflows' (workflows/T…/A…/<id>/<secret>, triggers/T…/<id>/<secret>) and Discord's (api/webhooks/<id>/<token>);
  // in a Microsoft Teams (Office 365) incoming webhook's all after IncomingWebhook/ (<secret>/<creator's id>). The
  // host and the ids before it stay, to say which hook it was.
  new RegExp(
    String.raw`(${wordStart('[dhow]')}(?:hooks\.slack\.com\/(?:services\/T[A-Z0-9]{6,16}\/B[A-Z0-9]{6,16}|workflows\/T[A-Z0-9]{6,16}\/A[A-Z0-9]{6,16}\/\d{6,24}|triggers\/T[A-Z0-9]{6,16}\/\d{6,24})\/|discord(?:app)?\.com\/api\/webhooks\/\d{15,21}\/|(?:webhook\.office\.com\/webhookb2|outlook\.office(?:365)?\.com\/webhook)\/[\w-]{8,64}@[\w-]{8,64}\/IncomingWebhook\/))[\w-]{16,}(?:\/[\w-]{1,64})?`,
    'g',
  ),
  // An Azure shared access signature's `sig` (a storage URL's query, a connection string's SharedAccessSignature=, a
  // Logic App's or Power Automate's trigger URL): only the signature goes; its permissions, expiry and the host stay.
  // A `;` before it is HTML's `&amp;`; `\u0026` an `&` escaped as some services write it, and `%26` one in a URL
  // given as another's parameter (`%26sig%3D`). A shorter one (a signature cut off) only beside the rest of a SAS.
  new RegExp(
    String.raw`((?:${QUERY_AND}|${startingWord('SharedAccessSignature')}=(?:SharedAccessSignature[ \t]+)?)sig(?:=|(?<=%26sig)%3D))(?:[\w%+/-]{16,}={0,2}|${SHORT_SIGNATURE})`,
    'g',
  ),
  // The password of a URL (`postgres://user:pw@host/db`); the user, host and path stay.
  /(:\/\/[^\s/:@"\\]*:)[^\s/@"\\]+(?=@)/g,
];
/**
 * A URL's user with no password (`https://<token>@github.com/…`): git and many services take a token there. A user
 * is taken when it looks random; `git@`, `ana@` and `ana.lopez@` stay.
 */
const URL_USER = /(:\/\/)([^\s/:@"\\]{16,})(?=@)/g;

/**
 * A field's name, whole (not the end of a longer word; after a `\n` escape, the word after its letter), then the quote
 * closing it (escaped as deep as it is: `\"`, `\\\"` in JSON inside JSON) and spaces: read back from the `:` or `=`
 * after it. Groups: the name, the quote.
 */
const FIELD_NAME = String.raw`(?:(?<![\w.-])|${AFTER_ESCAPE})((?:(?:${CREDENTIAL_QUALIFIERS.join('|')})[ ])?[\w.-]*?(?:${ANY_FIELD_WORD}))(\\*["'])?[ \t]*`;
/**
 * A field whose name ends in key, token, secret, password, passwd or pwd, in any case and with any prefix
 * (`API_KEY`, `export MY_API_KEY=`, `x-api-key:`, `"Token":`, `clientSecret`, `API key:`), then `=` or `:`,
 * then its value: quoted, or bare up to a space, a quote, a bracket or one of `,;&` (a sentence's full stop or a
 * code span's closing backtick after it is no part of it). The match starts at the
 * `:` or `=` and the name (whole, not the end of a longer word) is read back from there: several times faster
 * than trying every word of a text as the start of a name. Which of these names hold a credential, and which
 * values are one, `isSecretField` decides.
 *
 * Redacted JSON must still parse, and its text is redacted as well as plain text, so a value never takes an
 * unescaped `"` or half of an escape: after `\"` (a quote inside a JSON string) the value ends at the next
 * `\"`; after a quote escaped twice or more (`\\\"`: JSON in a JSON string, in JSON, and deeper) at the next
 * quote, whatever its backslashes, or a line break escaped as deep, and takes a run of backslashes whole; after a
 * plain `"` it is read as a JSON string, and stops at a brace or bracket, so the run between two JSON strings
 * (`"},{"`) is never taken for one; after `'` it ends at `'` or a plain `"`.
 * After a `:` the value may stand on the next line, indented (YAML), in a text or in JSON (a `\n` escape).
 * Groups: the `?` or `&` of a URL's query before the name, the name, the quote closing the name, the line break
 * before a value on the next line, then the value after `\"`, after a quote escaped deeper, after `"`, after `'`, or
 * bare.
 */
const SECRET_FIELD = new RegExp(
  String.raw`(?<=([?&])?${FIELD_NAME})[:=](?:[ \t]*|(?<=:)[ \t]*(${LINE_BREAK}[ \t]+))(?:` +
    String.raw`\\"((?:[^"\\\r\n]|\\[^"nr\r\n])+)|` +
    String.raw`(?:\\\\)+\\"((?:[^"\\\r\n]|\\+(?![\\"nr]|${UNICODE_LINE_BREAK}))+)|` +
    String.raw`"((?:[^"\\\r\n{}[\]]|\\[^nr\r\n])+)|` +
    String.raw`'((?:[^'"\\\r\n]|\\[^nr\r\n])+)|` +
    String.raw`([^\s"'\\{}[\]()<>=,;&|*#!%](?:[^\s"'\\,;&<>{}[\]()]*[^\s"'\\,;&<>{}[\]()\`.])?))`,
  'gi',
);

/**
 * What may follow a value that ends its line: its closing quote (`"`, `'` or JSON's `\"`), then spaces, then the
 * line's or the text's end (in JSON a `\n` escape, or the `"` ending its string), or a comment.
 */
const LINE_END = /(?:\\?["'])?(?:[ \t]*(?:$|[\r\n"]|\\(?:[rn]|u000[aAdD]))|[ \t]+#)/y;

function isLineEndAt(text: string, index: number): boolean {
  LINE_END.lastIndex = index;
  return LINE_END.test(text);
}

function redactField(
  match: string,
  querySign: string | undefined,
  name: string,
  quotedName: string | undefined,
  lineBreak: string | undefined,
  inEscapedQuotes: string | undefined,
  inDeeperQuotes: string | undefined,
  inQuotes: string | undefined,
  inSingleQuotes: string | undefined,
  bare: string | undefined,
  offset: number,
  text: string,
): string {
  const value = inEscapedQuotes ?? inDeeperQuotes ?? inQuotes ?? inSingleQuotes ?? bare ?? '';
  const field: FieldMatch = {
    name,
    quotedName,
    value,
    valueWithNext: bare === undefined ? value : `${bare}${text.charAt(offset + match.length)}`,
    isQuoted: bare === undefined,
    isInQuery: querySign !== undefined,
    isOnNextLine: lineBreak !== undefined,
    endsItsLine: isLineEndAt(text, offset + match.length),
  };
  if (!isSecretField(field)) return match;
  return `${match.slice(0, match.length - value.length)}${REDACTED}`;
}

/** A block's lines after `lineBreak`, each a `line`, as indented as the first or more; in groups named by `kind`. */
function blockLines(kind: string, lineBreak: string, line: string): string {
  return String.raw`${lineBreak}(?<${kind}Indent> +)(?<${kind}>(?=\S)${line}(?:(?:${lineBreak})+\k<${kind}Indent>${line})*)`;
}

/**
 * A YAML block scalar under a field's name (`password: |`, `private_key: >-`) and its lines: in a text, or with its
 * lines ending in escapes (`\n`, `\r\n`, `\u000a`) in JSON or in a text printing JSON (a log line), where a line ends
 * at a plain `"`, its string's end. (Deeper in JSON, `\\n`, its string is read again as the text it holds: see
 * redactor.ts.) The block is every line after, as indented as its first line or more (YAML's own rule), empty lines
 * among them. The match starts at the `|` or `>`, far rarer than a `:`, and the name is read back from there. Groups:
 * the name, the quote closing it; the lines, named `plain` or `escaped`.
 */
function blockScalar(isJson: boolean): RegExp {
  const escaped = blockLines(
    'escaped',
    ESCAPED_LINE_BREAK,
    String.raw`(?:[^"\\\r\n]|\\(?!${UNICODE_LINE_BREAK})[^nr\r\n])*`,
  );
  const lines = isJson
    ? escaped
    : `${blockLines('plain', String.raw`\r?\n`, String.raw`[^\r\n]*`)}|${escaped}`;
  return new RegExp(
    String.raw`[|>](?<=${FIELD_NAME}:[ \t]*[|>])(?:[1-9][-+]?|[-+][1-9]?)?[ \t]*(?:${lines})`,
    'gi',
  );
}
const BLOCK_SCALAR = blockScalar(false);
const BLOCK_SCALAR_IN_JSON = blockScalar(true);

/** A block scalar's lines, when a field so named would be redacted with them as its value in quotes. */
function redactBlockScalar(
  match: string,
  name: string,
  quotedName: string | undefined,
  ...rest: unknown[]
): string {
  const { plain, escaped } = rest.at(-1) as { plain?: string; escaped?: string };
  const block = plain ?? escaped ?? '';
  const field = { ...quotedField(name, block), quotedName };
  return isSecretField(field) ? `${match.slice(0, match.length - block.length)}${REDACTED}` : match;
}

/** `[Kk][Ee][Yy]` for "key": the hint stays case-sensitive, which V8 scans several times faster than with /i. */
function anyCase(word: string): string {
  return word.replace(/[a-z]/g, (letter) => `[${letter.toUpperCase()}${letter}]`);
}

/**
 * `[:=]` after a name matched by `names` (in any case), its closing quote (escaped as deep as it is) and spaces: read
 * back from there.
 */
function afterName(names: string): string {
  return String.raw`[:=](?<=(?:${names})\\*["']?[ \t]*.)`;
}

/**
 * Text none of the token shapes can match: every one holds one of these (the start of its prefix, "bearer",
 * "Authorization:", a URL's "://user:…@", a webhook's host, a query's "sig="). A prefix with a "-", "_" or "." in it
 * is looked for back from that character, far rarer than the letters it starts with. A shape added above needs its
 * literal here: the redactor's tests hold one example each.
 */
const TOKEN_LITERALS = [
  String.raw`[-_.](?<=${WORD_START}(?:hooks\.|webhook\.|outlook\.|discord(?:app)?\.|[sr]k[-_]|gh[pousr]_|npm_|hf_|pypi-)|ya29\.|GOCSPX-|xox[abposer]-|xapp-|github_pat_|glpat-|whsec_)`,
  COMMAND_CREDENTIAL_HINT, // curl's -u, --user, -b…, docker login's and mysql's -p, --password (command-shapes.ts)
  MACHINE_OR_MIGRATE_HINT, // a .netrc entry's password, Redis' migrate in small letters (command-shapes.ts)
  String.raw`eyJ|AIza|A[KS]IA|1\/\/0|-----BEGIN `,
  String.raw`:\/\/[^\s/@]*@`,
  String.raw`=(?<=(?:${QUERY_AND}|=)sig=)|%3D(?<=%26sig%3D)`, // an Azure shared access signature
  String.raw`${anyCase('bearer')}\s`,
].join('|');
const AUTHORIZATION = anyCase('authorization');
/** A `Cookie:` or `Set-Cookie:` header's name, read back from its colon as "Authorization:" is. */
const COOKIE = anyCase('cookie');
/**
 * The end of every name `isCredentialName` takes: "key" only after one of its qualifiers; npm's `_auth`, a
 * Docker config's `auth`; Rails' `secret_key_base`; sshpass's `SSHPASS` (redis-cli's `REDISCLI_AUTH` ends in auth).
 */
const FIELD_NAMES = [
  `(?:${CREDENTIAL_QUALIFIERS.map(anyCase).join('|')})[ _.-]*${anyCase('key')}`,
  ...['token', 'secret', 'passwd', 'password', 'pwd', 'auth', 'sshpass'].map(anyCase),
  `${anyCase('key')}[_-]?${anyCase('base')}`,
].join('|');
/** A HAR's or Postman's name/value pair that may hold a credential, and a HAR's list of cookies (name-value-pairs.ts). */
const PAIR_HINT = nameValueHint(`${FIELD_NAMES}|${COOKIE}|${AUTHORIZATION}`);
const TOKEN_HINTS = new RegExp(
  `${TOKEN_LITERALS}|${PAIR_HINT}|${afterName(`${AUTHORIZATION}|${COOKIE}`)}`,
  'g',
);
const FIELD_HINTS = new RegExp(afterName(FIELD_NAMES), 'g');
/**
 * Both hints in one pattern, a field's name in a group: the common text, with neither, is scanned once, and
 * each `:` or `=` is read back from once.
 */
const ANY_HINT = new RegExp(
  `${TOKEN_LITERALS}|${PAIR_HINT}|${afterName(`${AUTHORIZATION}|${COOKIE}|(${FIELD_NAMES})`)}`,
);

/** Whether `hints` (a global pattern) has a match in `text` at `from` or after. */
function isHintedFrom(hints: RegExp, text: string, from: number): boolean {
  hints.lastIndex = from;
  return hints.test(text);
}

/**
 * The text with every secret shape replaced by `REDACTED`. The first hint says which kind it is; the other kind
 * is looked for only from there on, and the scans of a kind with no hint in the text are skipped.
 */
export function redactShapes(text: string, isJson = false): string {
  return readShapes(text, isJson).text;
}

/**
 * `redactShapes`, and whether the text held a hint of any shape at all. A hint is written alike however deep in JSON it
 * stands (but a name/value pair's, escaped twice): with none in a text, the strings it holds hold no shape either.
 */
export function readShapes(text: string, isJson = false): { text: string; isHinted: boolean } {
  const first = ANY_HINT.exec(text);
  return first ? { text: redactHinted(text, first, isJson), isHinted: true } : { text, isHinted: false };
}

/** The text with every secret shape replaced, its first hint found at `first`. */
function redactHinted(text: string, first: RegExpExecArray, isJson: boolean): string {
  const isFieldFirst = first[1] !== undefined;
  let out = text;
  if (!isFieldFirst || isHintedFrom(TOKEN_HINTS, text, first.index)) {
    for (const pattern of PREFIXED_SHAPES) {
      out = out.replace(pattern, (match, prefix: string) => `${prefix}${REDACTED}`);
    }
    out = out.replace(URL_USER, (match, prefix: string, user: string) =>
      looksRandom(user) ? `${prefix}${REDACTED}` : match,
    );
    out = redactNameValuePairs(redactCommandCredentials(redactRequestCredentials(out), isJson));
  }
  // A replaced token never makes a field's name: the hints of the text before it hold for the text after.
  const hasField = isFieldFirst || isHintedFrom(FIELD_HINTS, text, first.index);
  if (!hasField) return out;
  return out
    .replace(isJson ? BLOCK_SCALAR_IN_JSON : BLOCK_SCALAR, redactBlockScalar)
    .replace(SECRET_FIELD, redactField);
}
