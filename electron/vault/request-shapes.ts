/**
 * Credentials written into a request rather than into a token of a known shape: the values of a `Cookie` or
 * `Set-Cookie` header, an `Authorization` header's credentials and a session's cookie set by `document.cookie`. All
 * keep the words around the secret readable: the header's and the cookies' names, an authorization's scheme. (A
 * command's credentials are in command-shapes.ts, the name/value pairs of a HAR or an env list in
 * name-value-pairs.ts.)
 */
import { isPlaceholder, isVariableReference, looksGenerated, looksRandom } from './credential-fields';
import { MIN_SECRET_LENGTH, REDACTED, startingWord } from './redaction';

/** A cookie's `name=value`: neither holds a `;`, a space or a quote, and the name no `=`. */
const COOKIE_NAME = String.raw`[^\s=;,"'\`\\]+`;
const COOKIE_VALUE = String.raw`[^\s;,"'\`\\]*`;
const COOKIE_PAIR = `${COOKIE_NAME}=${COOKIE_VALUE}`;
/**
 * A header's name (a pattern) and its colon (or `separator`): plain, quoted, in a template literal, or in JSON.
 */
function headerName(name: string, separator = ':'): string {
  return String.raw`${startingWord(name)}\\?["'\`]?[ \t]*${separator}[ \t]*\\?["'\`]?`;
}
/**
 * A `Cookie:` or `Set-Cookie:` header and its `name=value` pairs. A cookie's name holds no `=` and neither holds
 * a `;`, so each pair is read once: no backtracking over a long header. A label with no pair after it
 * ("Favourite cookie: oatmeal") is no match.
 */
const COOKIE_HEADER = new RegExp(
  String.raw`(${headerName('(Set-)?Cookie')})(${COOKIE_PAIR}(?:;[ \t]*${COOKIE_PAIR})*)`,
  'gi',
);
/** A credential written in one word (RFC 9110's token68). */
const TOKEN68 = String.raw`[\w.~+/-]+=*`;
/**
 * The credential after a scheme, in one word of any characters but a space, a quote or a query's `&`: a password
 * given as a token (`Token $ecr3t-Passw0rd!`) may start or end with a character token68 has no place for. A
 * sentence's `,`, `;`, `.` or `)` after it is no part of it.
 */
const SCHEME_CREDENTIAL = String.raw`[^\s"'\`\\&]*[^\s"'\`\\&,;.)]`;
/** An authorization's parameter, `name=value` or `name="value"` (Digest's `response="…"`, AWS's `Signature=…`). */
const AUTH_PARAM = String.raw`[\w-]+=(?:\\?"[^"\\\r\n]*\\?"|[^\s,"'\`\\]+)`;
/**
 * An `Authorization:` or `Proxy-Authorization:` header, or the same written `authorization=…` (a query string, an
 * env line), then its scheme (`Token`, `Digest`, `AWS4-HMAC-SHA256`), kept, and its credentials: a list of
 * parameters, or one word; in a query the space after the scheme is `%20`. A header may also hold its credential
 * alone, with no scheme, one word of the characters a credential is written in (token68). Groups: all before the
 * scheme, the scheme and its space, the credentials after a scheme, or the one word after the name.
 */
const AUTHORIZATION_HEADER = new RegExp(
  String.raw`(${headerName('(?:Proxy-)?Authorization', '[:=]')})` +
    String.raw`(?:([A-Za-z][\w-]*(?:[ \t]+|%20))(${AUTH_PARAM}(?:[ \t]*,[ \t]*${AUTH_PARAM})*|${SCHEME_CREDENTIAL})|(${TOKEN68}))`,
  'gi',
);
/**
 * An authorization whose value is in quotes (`Authorization: "Token $ecr3t Passw0rd"`, `"Authorization":"Token …"`,
 * curl's `-H 'Authorization: Token …'`): there its credential runs to the closing quote, and may be a password of
 * several words, then the same quote (of the two quote groups one is set; the other, unset, matches nothing). Groups:
 * all before the credential, the quote after the name's separator, or the one before the name, the credential.
 */
const QUOTED_AUTHORIZATION = new RegExp(
  String.raw`((?:${startingWord('(?:Proxy-)?Authorization')}\\?["']?[ \t]*[:=][ \t]*(\\?["'])|(\\?["'])(?:Proxy-)?Authorization[ \t]*:[ \t]*)` +
    String.raw`[A-Za-z][\w-]*[ \t]+)([^"'\`\\\r\n]{1,256})(?=\2\3)`,
  'gi',
);
/** A word of a password: it holds a digit or a sign, where a word of prose is letters only. */
const PASSWORD_WORD = /^(?=.*[^A-Za-z])\S+$/;

/**
 * A quoted authorization's credential of several words taken out when each word holds a digit or a sign, as a
 * password's do (`$ecr3t Passw0rd`), unless every word is a variable's name (`$USER $PASS`); "Token see the docs" and
 * "Token expires in 30 days" stay, and so does a credential of one word, which the header's pattern judges.
 */
function redactQuotedAuthorization(
  match: string,
  before: string,
  _quote: string | undefined,
  _quoteBeforeName: string | undefined,
  credential: string,
): string {
  const words = credential.trim().split(/[ \t]+/);
  const isPassword =
    words.length > 1 &&
    words.length <= 4 &&
    credential.trim().length >= MIN_SECRET_LENGTH &&
    words.every((word) => PASSWORD_WORD.test(word)) &&
    !words.every(isVariableReference);
  return isPassword ? `${before}${REDACTED}${credential.slice(credential.trimEnd().length)}` : match;
}

/**
 * A bearer credential with no `Authorization:` before it ("use Bearer !x9f8…"), one word of any characters as after a
 * scheme. The token shapes take one of 16 token68 characters or more; this takes the others, when they look random,
 * so "the Bearer scheme" and "Bearer <token>" stay. Groups: the word Bearer and its space, the credential.
 */
const BEARER_CREDENTIAL = new RegExp(
  String.raw`(${startingWord('Bearer')}[ \t]+)(${SCHEME_CREDENTIAL})`,
  'gi',
);
/**
 * A cookie set in a script, `document.cookie = "sid=…; path=/"`: its first pair, the cookie it sets. Groups: all
 * before the value, the cookie's name, its value.
 */
const DOCUMENT_COOKIE = new RegExp(
  String.raw`(${startingWord(String.raw`document\.cookie`)}[ \t]*=[ \t]*\\?["'\`](${COOKIE_NAME})=)(${COOKIE_VALUE})`,
  'g',
);
/**
 * A script sets cookies of every kind (a theme, a language, a consent); a cookie named as a session's or a
 * credential's (`sid`, `PHPSESSID`, `auth`, `remember_token`, `csrftoken`) holds a secret, and so does one of any
 * name whose value looks random (`id=9f8e7d6c…`): a script keeps a session under names of every kind too.
 */
const SESSION_COOKIE_NAME =
  /sess|(?:^|[\W_])sid(?:$|[\W_])|token|auth|jwt|[cx]srf|remember|login|secret|passw|cred|(?:api|access)[\W_]?key/i;

/**
 * `name=value` pairs with each value of a secret's length taken out; a `Set-Cookie` sets one cookie, its first. A
 * value read from a variable (`$SESSION`, `${token}`) is code, not a secret, as with curl's `-u "$USER:$PASS"`.
 */
export function redactCookiePairs(pairs: string, isSetCookie: boolean): string {
  return pairs
    .split(';')
    .map((pair, index) => {
      if (isSetCookie && index > 0) return pair;
      const equals = pair.indexOf('=');
      return isSecretCookieValue(pair.slice(equals + 1)) ? `${pair.slice(0, equals + 1)}${REDACTED}` : pair;
    })
    .join(';');
}

export function isSecretCookieValue(value: string): boolean {
  return value.length >= MIN_SECRET_LENGTH && !isVariableReference(value);
}

/**
 * An authorization's credentials, taken out unless a placeholder (`<token>`, `$TOKEN`). A header written on a line
 * of text may be a line of prose ("Authorization: pending approval"): there only credentials that look generated
 * are taken.
 */
export function redactAuthorizationCredentials(credentials: string, isInText: boolean): string {
  if (isPlaceholder(credentials) || (isInText && !looksGenerated(credentials))) return credentials;
  return REDACTED;
}

/**
 * An authorization header with its credentials taken out. A word alone after the name, with no scheme before it, is
 * taken when it looks random: "Authorization: required" and "Authorization: INV-2024-000123" stay. So is a scheme
 * that looks random: it is the credential, followed by a word.
 */
function redactAuthorizationHeader(
  match: string,
  before: string,
  scheme: string | undefined,
  credentials: string | undefined,
  alone: string | undefined,
): string {
  if (scheme !== undefined && credentials !== undefined) {
    const word = scheme.trimEnd().replace(/%20$/, '');
    const kept = looksRandom(word) ? `${REDACTED}${scheme.slice(word.length)}` : scheme;
    return `${before}${kept}${redactAuthorizationCredentials(credentials, true)}`;
  }
  return alone !== undefined && looksRandom(alone) && !isPlaceholder(alone) ? `${before}${REDACTED}` : match;
}

/**
 * The text with the cookies of its headers and scripts and the credentials of its authorizations and bearers taken
 * out.
 */
export function redactRequestCredentials(text: string): string {
  const out = text.replace(
    COOKIE_HEADER,
    (_match, header: string, setCookie: string | undefined, pairs: string) =>
      `${header}${redactCookiePairs(pairs, setCookie !== undefined)}`,
  );
  const withAuthorization = out
    .replace(QUOTED_AUTHORIZATION, redactQuotedAuthorization)
    .replace(AUTHORIZATION_HEADER, redactAuthorizationHeader)
    .replace(BEARER_CREDENTIAL, (match, before: string, credential: string) =>
      looksRandom(credential) && !isPlaceholder(credential) ? `${before}${REDACTED}` : match,
    );
  const withScripts = withAuthorization.replace(
    DOCUMENT_COOKIE,
    (match, before: string, name: string, value: string) =>
      isSecretCookieValue(value) && (SESSION_COOKIE_NAME.test(name) || looksRandom(value))
        ? `${before}${REDACTED}`
        : match,
  );
  return withScripts;
}
