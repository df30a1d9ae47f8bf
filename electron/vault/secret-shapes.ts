/**
 * The shapes of secrets the vault never saw: a token known by its prefix, a credential in a header or a URL,
 * and the value of a field whose name says it holds one (`OPENAI_API_KEY=…`, `"password": "…"`). Text with no
 * such shape comes back as it was; ordinary prose ("my token of thanks", "the password is on the note") has none.
 */
export const REDACTED = '[redacted]';

/** Tokens known by their prefix alone, the whole match being the secret. Joined into one pattern, one pass. */
const TOKEN_SHAPES: readonly RegExp[] = [
  /\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*/, // JWT (an ID token, a service's session): header.payload.signature
  /\bya29\.[\w-]{10,}/, // Google OAuth access token
  /\b1\/\/0[\w-]{20,}/, // Google OAuth refresh token
  /\bAIza[\w-]{30,}/, // Google API key (Gemini)
  /\bGOCSPX-[\w-]{10,}/, // Google OAuth client secret
  /\bxox[abposer]-[\w-]{10,}/, // Slack tokens
  /\bxapp-[\w-]{10,}/, // Slack app-level token
  // OpenAI project, service-account and admin keys, Anthropic keys, and OpenAI's older keys (48 characters).
  // The older shape has no hyphen after `sk-`, so hyphenated words ("sk-learn-style") are not taken for one.
  /\bsk-(?:(?:proj|svcacct|admin|ant)-[\w-]{20,}|[A-Za-z0-9]{32,})/,
  /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}/, // Stripe secret and restricted keys
  /\bgh[pousr]_[A-Za-z0-9]{30,}/, // GitHub tokens: personal, OAuth, user-to-server, server-to-server, refresh
  /\bgithub_pat_\w{22,}/, // GitHub fine-grained personal access token
  /\bglpat-[\w-]{20,}/, // GitLab personal access token
  /\bA[KS]IA[A-Z0-9]{16}\b/, // AWS access key id (long-term AKIA, temporary ASIA)
];

/**
 * Patterns whose first group is kept: the words before the credential say what it is and stay readable.
 * The two PEM patterns keep their order: a whole key first, then one cut off before its END line.
 */
const PREFIXED_SHAPES: readonly RegExp[] = [
  // PEM private keys, whole; the body stops at a quote so a key inside JSON never swallows the next field.
  /()-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[^"]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g,
  // A key cut off before its END line (a truncated paste) still loses its body: base64, spaces, \n escapes.
  /()-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:\\[rn]|[\sA-Za-z0-9+/=])*/g,
  new RegExp(`()(?:${TOKEN_SHAPES.map((shape) => shape.source).join('|')})`, 'g'),
  /(\bBearer\s+)[\w.~+/-]{16,}=*/gi, // any bearer credential in a header echoed into a message
  /(\bAuthorization\\?["']?[ \t]*[:=][ \t]*\\?["']?Basic[ \t]+)[A-Za-z0-9+/]{8,}={0,2}/gi, // user:password, base64
  // The password of a URL (`postgres://user:pw@host/db`); the user, host and path stay.
  /(:\/\/[^\s/:@"\\]*:)[^\s/@"\\]+(?=@)/g,
];

/** The words a field's name ends in when it holds a secret. */
const FIELD_WORDS = ['key', 'token', 'secret', 'password', 'passwd', 'pwd'];
const ANY_FIELD_WORD = FIELD_WORDS.join('|');

/**
 * A field whose name ends in key, token, secret, password, passwd or pwd, in any case and with any prefix
 * (`API_KEY`, `export MY_API_KEY=`, `x-api-key:`, `"Token":`, `clientSecret`, `API key:`), then `=` or `:`,
 * then its value: quoted, or bare up to a space, a quote or one of `,;&`. The match starts at the `:` or `=`
 * and the name (whole, not the end of a longer word) is read back from there: several times faster than
 * trying every word of a text as the start of a name.
 *
 * Redacted JSON must still parse, and its text is redacted as well as plain text, so a value never takes an
 * unescaped `"` or half of an escape: after `\"` (a quote inside a JSON string) the value ends at the next
 * `\"`; after a plain `"` it is read as a JSON string, and stops at a brace or bracket, so the run between
 * two JSON strings (`"},{"`) is never taken for one; after `'` it ends at `'` or a plain `"`.
 * Groups: name, the quote closing the name, then the value after `\"`, after `"`, after `'`, or bare.
 */
const SECRET_FIELD = new RegExp(
  String.raw`(?<=(?<![\w.-])((?:(?:api|access|auth|secret|private|client|refresh|session)[ ])?[\w.-]*?(?:${ANY_FIELD_WORD}))` +
    String.raw`(\\?["'])?[ \t]*)[:=][ \t]*(?:` +
    String.raw`\\"((?:[^"\\\r\n]|\\[^"nr\r\n])+)|` +
    String.raw`"((?:[^"\\\r\n{}[\]]|\\[^nr\r\n])+)|` +
    String.raw`'((?:[^'"\\\r\n]|\\[^nr\r\n])+)|` +
    String.raw`([^\s"'\\{}[\]()<>=,;&|*#!%$][^\s"'\\,;&<>{}[\]()]*))`,
  'gi',
);

/** A name that ends in one of the words, as its own part (`_key`, `-token`, `Secret`, `API key`), or glued to one. */
const SEPARATE_NAME = new RegExp(`(?:^|[ _.-])(?:${ANY_FIELD_WORD})$`, 'i');
const CAMEL_NAME = new RegExp(
  `[A-Za-z0-9](?:${FIELD_WORDS.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('|')})$`,
);
const GLUED_NAME =
  /(?:api|auth|access|secret|private|client|session|refresh|master)(?:key|token)$|passw(?:or)?d$/i;
/**
 * Names that hold no secret: a bare "key" (a word of prose, "Key: bring the documents"), and keys and tokens
 * that only locate or order things: a page token the model needs to ask for the next page, an idempotency key
 * Deputy itself sends, a public key.
 */
const NOT_SECRET_NAME =
  /^key$|(?:public|primary|foreign|sort|partition|cache|idempotency|deputy|hot|page|sync|continuation|progress|cancellation|next|cursor)[ _.-]?(?:key|token)$/i;
/** A bare `token`/`secret`, or a name of two words ("access token: …"): as likely prose as a field. */
const WEAK_NAME = /^(?:token|secret|Token|Secret)$| /;

/** Shorter values are not treated as secrets: redacting every "abc" in a text would destroy it. */
export const MIN_SECRET_LENGTH = 8;
/** Values that say there is no secret here: empty words, what a redactor (this one or another) left, a template. */
const NO_SECRET_VALUE =
  /^(?:null|none|nil|undefined|true|false|empty|redacted|\[redacted\]|your[\w-]*|<[^>]*>|x{3,}|\.{3,}|process\.env\..*|os\.environ.*)$/i;

/**
 * Whether a field's value is redacted. A name in quotes with a bare value is a JSON number or literal
 * (`"pin_token": 12345678901`): left, so redacted JSON still parses. After a weak name only a value that looks
 * generated (a digit in it, or 20 characters) is taken: "Secret: friendship" stays.
 */
function isSecretField(
  name: string,
  quotedName: string | undefined,
  value: string,
  isQuoted: boolean,
): boolean {
  if (value.length < MIN_SECRET_LENGTH || NO_SECRET_VALUE.test(value)) return false;
  if (quotedName && !isQuoted) return false;
  if (NOT_SECRET_NAME.test(name)) return false;
  // `PWD=/home/ana` is the shell's working directory; `?pwd=…` in a meeting link is a passcode.
  if (/^pwd$/i.test(name) && /^[/~]/.test(value)) return false;
  if (!SEPARATE_NAME.test(name) && !CAMEL_NAME.test(name) && !GLUED_NAME.test(name)) return false;
  return !WEAK_NAME.test(name) || /\d/.test(value) || value.length >= 20;
}

function redactField(
  match: string,
  name: string,
  quotedName: string | undefined,
  inEscapedQuotes: string | undefined,
  inQuotes: string | undefined,
  inSingleQuotes: string | undefined,
  bare: string | undefined,
): string {
  const value = inEscapedQuotes ?? inQuotes ?? inSingleQuotes ?? bare ?? '';
  if (!isSecretField(name, quotedName, value, bare === undefined)) return match;
  return `${match.slice(0, match.length - value.length)}${REDACTED}`;
}

/** `[Kk][Ee][Yy]` for "key": the hint stays case-sensitive, which V8 scans several times faster than with /i. */
function anyCase(word: string): string {
  return word.replace(/[a-z]/g, (letter) => `[${letter.toUpperCase()}${letter}]`);
}

/**
 * Text none of the patterns can match: every shape holds one of these (the start of its prefix, a field's
 * name with its ":" or "=", "bearer", a URL's "://user:…@"). Tested first, once, so the common text skips the
 * scans. A prefix with a "-", "_" or "." in it, and a field's name, are looked for back from that character
 * and from the ":" or "=", far rarer than the letters they start with. A shape added above needs its literal
 * here: the redactor's tests hold one example each.
 */
const SHAPE_HINT = new RegExp(
  [
    String.raw`[-_.](?<=ya29\.|GOCSPX-|xox[abposer]-|xapp-|\b[sr]k[-_]|\bgh[pousr]_|github_pat_|glpat-)`,
    String.raw`eyJ|AIza|A[KS]IA|1\/\/0|-----BEGIN `,
    String.raw`:\/\/[^\s/@]*@`,
    String.raw`[:=](?<=(?:${[...FIELD_WORDS, 'authorization'].map(anyCase).join('|')})\\?["']?[ \t]*.)`,
    String.raw`${anyCase('bearer')}\s`,
  ].join('|'),
);

/** The text with every secret shape replaced by `REDACTED`. */
export function redactShapes(text: string): string {
  if (!SHAPE_HINT.test(text)) return text;
  let out = text;
  for (const pattern of PREFIXED_SHAPES) {
    out = out.replace(pattern, (match, prefix: string) => `${prefix}${REDACTED}`);
  }
  return out.replace(SECRET_FIELD, redactField);
}
