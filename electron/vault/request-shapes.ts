/**
 * Credentials written into a request rather than into a token of a known shape: the values of a `Cookie` or
 * `Set-Cookie` header, the `user:password` and cookies that curl is given with `-u`/`--user` (or
 * `-U`/`--proxy-user`) and `-b`/`--cookie`, a session's cookie set by `document.cookie`, and the name/value pairs of
 * a browser's saved requests (HAR) or a Postman collection. All keep the words around the secret readable: the
 * header's and the cookies' names, the user's name, an authorization's scheme.
 */
import {
  isPlaceholder,
  isSecretField,
  isVariableReference,
  looksGenerated,
  looksRandom,
  quotedField,
} from './credential-fields';
import { MIN_SECRET_LENGTH, REDACTED } from './redaction';

/** A cookie's `name=value`: neither holds a `;`, a space or a quote, and the name no `=`. */
const COOKIE_NAME = String.raw`[^\s=;,"'\`\\]+`;
const COOKIE_VALUE = String.raw`[^\s;,"'\`\\]*`;
const COOKIE_PAIR = `${COOKIE_NAME}=${COOKIE_VALUE}`;
/**
 * A header's name (a pattern) and its colon (or `separator`): plain, quoted, in a template literal, or in JSON.
 */
function headerName(name: string, separator = ':'): string {
  return String.raw`\b${name}\\?["'\`]?[ \t]*${separator}[ \t]*\\?["'\`]?`;
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
/** An authorization's parameter, `name=value` or `name="value"` (Digest's `response="…"`, AWS's `Signature=…`). */
const AUTH_PARAM = String.raw`[\w-]+=(?:\\?"[^"\\\r\n]*\\?"|[^\s,"'\`\\]+)`;
/**
 * An `Authorization:` or `Proxy-Authorization:` header, or the same written `authorization=…` (a query string, an
 * env line), then its scheme (`Token`, `Digest`, `AWS4-HMAC-SHA256`), kept, and its credentials: a list of
 * parameters, or one word of the characters a credential is written in (token68); in a query the space after the
 * scheme is `%20`. A header may also hold its credential alone, with no scheme. Groups: all before the scheme, the
 * scheme and its space, the credentials after a scheme, or the one word after the name.
 */
const AUTHORIZATION_HEADER = new RegExp(
  String.raw`(${headerName('(?:Proxy-)?Authorization', '[:=]')})` +
    String.raw`(?:([A-Za-z][\w-]*(?:[ \t]+|%20))(${AUTH_PARAM}(?:[ \t]*,[ \t]*${AUTH_PARAM})*|${TOKEN68})|(${TOKEN68}))`,
  'gi',
);
/**
 * A cookie set in a script, `document.cookie = "sid=…; path=/"`: its first pair, the cookie it sets. Groups: all
 * before the value, the cookie's name, its value.
 */
const DOCUMENT_COOKIE = new RegExp(
  String.raw`(\bdocument\.cookie[ \t]*=[ \t]*\\?["'\`](${COOKIE_NAME})=)(${COOKIE_VALUE})`,
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
function redactCookiePairs(pairs: string, isSetCookie: boolean): string {
  return pairs
    .split(';')
    .map((pair, index) => {
      if (isSetCookie && index > 0) return pair;
      const equals = pair.indexOf('=');
      return isSecretCookieValue(pair.slice(equals + 1)) ? `${pair.slice(0, equals + 1)}${REDACTED}` : pair;
    })
    .join(';');
}

function isSecretCookieValue(value: string): boolean {
  return value.length >= MIN_SECRET_LENGTH && !isVariableReference(value);
}

/** JSON's white space, also as the escapes it is written with inside a JSON string. */
const JSON_SPACE = String.raw`(?:\s|\\[nrt])*`;
/** A JSON string's text after its opening quote, to its closing one; an escape, `\"` too, is read whole. */
const JSON_STRING_TEXT = String.raw`(?:[^"\\\r\n]|\\[^\r\n])*`;
/**
 * The same inside a JSON string, whose quotes are written `\"`: an escape of the inner string is written `\\`
 * followed by one escape or character more (`\\\"` for a quote in it, `\\n` for a line break).
 */
const ESCAPED_JSON_STRING_TEXT = String.raw`(?:[^"\\\r\n]|\\[^"\\\r\n]|\\\\(?:[^"\\\r\n]|\\[^\r\n]))*`;
/**
 * A `"name": …, "value": …` pair (or `"key"`, as Postman writes it), as HAR files (a browser's saved requests),
 * Postman collections and Kubernetes' env lists in JSON hold headers, cookies, query and form fields and variables,
 * in either order; in JSON (`quote` is `"`) or escaped in a JSON string (`\"`: a HAR pasted into a message, then
 * stored). A name and a value are read to their closing quote, so each pair is read once. Groups: name first, all
 * before the value, the name, the value; or value first, all before the value, the value, the name.
 */
function jsonNameValuePair(quote: string, stringText: string): RegExp {
  const field = (name: string) => `${quote}${name}${quote}${JSON_SPACE}:${JSON_SPACE}${quote}`;
  const name = String.raw`${field('(?:name|key)')}([^"\\\r\n]*)${quote}`;
  const comma = `${JSON_SPACE},${JSON_SPACE}`;
  return new RegExp(
    `(${name}${comma}${field('value')})(${stringText})(?=${quote})|` +
      `(${field('value')})(${stringText})(?=${quote}${comma}${name})`,
    'g',
  );
}
const NAME_VALUE_PAIRS = [
  jsonNameValuePair('"', JSON_STRING_TEXT),
  jsonNameValuePair(String.raw`\\"`, ESCAPED_JSON_STRING_TEXT),
];
/** A line's end, in a text or as the escapes it is written with inside a JSON string. */
const LINE_BREAK = String.raw`(?:\r?\n|(?:\\r)?\\n)`;
/** A word of a bare YAML value: a `#` after a space starts a comment. */
const YAML_WORD = String.raw`[^\s"'\\#][^\s"'\\]*`;
/** A bare YAML value: its words, to its line's end or its comment. */
const YAML_WORDS = `${YAML_WORD}(?:[ \\t]+${YAML_WORD})*`;
/** A YAML pair's name (`name:`, or Postman's `key:`), quoted or bare; it holds no `:`. Groups: the quote, the name. */
function yamlName(quoteGroup: number): string {
  return String.raw`(?:name|key):[ \t]*(\\?["'])?([^\s"'\\:,{}[\]]+)` + `\\${quoteGroup}`;
}
/**
 * The same pair in YAML, as Kubernetes' env lists hold it: `- name: API_KEY`, then `value: …` on the next line,
 * indented; each quoted or bare. A name holds no `:`, so a text of many `name:` is read once. Groups: all before
 * the value, the name's quote, the name, the value's quote, the value in quotes, or bare.
 */
const YAML_NAME_VALUE_PAIR = new RegExp(
  String.raw`((?<![\w.-])${yamlName(2)}[ \t]*${LINE_BREAK}[ \t]+value:[ \t]*)` +
    String.raw`(?:(\\?["'])([^"'\\\r\n]*)(?=\4)|(${YAML_WORDS}))`,
  'g',
);
/**
 * The same pair with its value first: `- value: …`, then `name: API_KEY` on the next line. The value's line is read
 * from its start (or a JSON string's), so a line of many `value:` is read once. Groups: all before the value, the
 * value's quote, the value in quotes, or bare, the name's quote, the name.
 */
const YAML_VALUE_NAME_PAIR = new RegExp(
  String.raw`((?:^|(?<=[\r\n"]|\\n))[ \t]*(?:-[ \t]+)?value:[ \t]*)(?:(\\?["'])([^"'\\\r\n]*)(?=\2)|(${YAML_WORDS}))` +
    String.raw`(?=\2?[ \t]*(?:[ \t]#[^\r\n\\]*)?${LINE_BREAK}[ \t]+${yamlName(5)})`,
  'g',
);
/**
 * A value in a YAML flow map or a script's object: quoted (`\N` stands for its quote's group), or bare, to the next
 * `,` or brace, with no space at its ends. Groups: the quote, the value in quotes, or bare.
 */
const FLOW_VALUE = String.raw`(?:(\\?["'])([^"'\\\r\n]*)(?=\N)|([^\s,{}[\]"'\\#](?:[^,{}[\]\r\n"'\\]*[^\s,{}[\]"'\\])?))`;
/**
 * The same pair in a YAML flow map, or a script's object, on one line: `{name: API_KEY, value: …}`, in either order.
 * Groups: name first, all before the value, the name's quote, the name, the value's quote, the value in quotes, or
 * bare; or value first, all before the value, the value's quote, the value in quotes, or bare, the name's quote, the
 * name.
 */
const FLOW_NAME_VALUE_PAIR = new RegExp(
  String.raw`(\{[ \t]*${yamlName(2)}[ \t]*,[ \t]*value:[ \t]*)${FLOW_VALUE.replace('\\N', '\\4')}|` +
    String.raw`(\{[ \t]*value:[ \t]*)${FLOW_VALUE.replace('\\N', '\\8')}(?=\8?[ \t]*,[ \t]*${yamlName(11)})`,
  'g',
);
/**
 * Where a pair whose name ends in one of `names` (a pattern) may be, or a HAR's list of cookies: the `:` after a
 * pair's `name` or `key` (in JSON, YAML or a script) when the name that follows ends so, or after `"cookies"` when a
 * list follows, for the redactor's first quick test (secret-shapes.ts). One look back from each `:` tells both. The
 * many pairs that are neither (a mail's From and Subject headers) are left to the quick test alone.
 */
export function nameValueHint(names: string): string {
  return (
    String.raw`:(?<=(?:"cookies\\?"|(?:name|key)\\?["']?)[ \t]*:)` +
    String.raw`(?=${JSON_SPACE}(?:\[|\\?["']?[\w.-]{1,100}(?![\w.-])(?<=${names})))`
  );
}
/**
 * HAR's `"cookies": [ … ]` (a request's or a response's), whose pairs are cookies whatever their names. It ends at
 * the first bracket, so a text of many such openings with no end is read once.
 */
const COOKIE_LIST = new RegExp(String.raw`(\\?)"cookies\1"${JSON_SPACE}:${JSON_SPACE}\[[^[\]]*\]`, 'g');
/** A cookie's name is a token: a pair whose name has a space or whose value has one is no cookie. */
const COOKIE_PAIR_NAME = /^[^\s=;,]+$/;
const AUTHORIZATION_NAME = /^(?:proxy-)?authorization$/i;
const COOKIE_HEADER_NAME = /^(set-)?cookie$/i;
/** An authorization header's value: its scheme (`Basic`, `Bearer`, `Token`, `Digest`), kept, then its credentials. */
const AUTHORIZATION_VALUE = /^([A-Za-z][\w-]*[ \t]+)?(.*)$/s;

/**
 * An authorization's credentials, taken out unless a placeholder (`<token>`, `$TOKEN`). A header written on a line
 * of text may be a line of prose ("Authorization: pending approval"): there only credentials that look generated
 * are taken.
 */
function redactAuthorizationCredentials(credentials: string, isInText: boolean): string {
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
 * A pair's value with its secret taken out: a cookie's (in a `cookies` list), a `Cookie` or `Set-Cookie` header's
 * cookies, an `Authorization` header's credentials, or the value of a pair named like a credential (`X-Api-Key`,
 * `access_token`, `DB_PASSWORD`), judged as the same field written `name: "value"` is.
 */
function redactPairValue(name: string, value: string, isCookie: boolean): string {
  if (isCookie) {
    return COOKIE_PAIR_NAME.test(name) && !/\s/.test(value) && isSecretCookieValue(value) ? REDACTED : value;
  }
  const cookieHeader = COOKIE_HEADER_NAME.exec(name);
  if (cookieHeader) {
    // A HAR joins a response's Set-Cookie headers into one value, a line (a `\n` escape in JSON) for each.
    const isSetCookie = cookieHeader[1] !== undefined;
    return value
      .split('\\n')
      .map((line) => redactCookiePairs(line, isSetCookie))
      .join('\\n');
  }
  const authorization = AUTHORIZATION_NAME.test(name) ? AUTHORIZATION_VALUE.exec(value) : null;
  if (authorization) {
    const [, scheme = '', credentials = ''] = authorization;
    return `${scheme}${redactAuthorizationCredentials(credentials, false)}`;
  }
  return isSecretField(quotedField(name, value)) ? REDACTED : value;
}

/**
 * The name/value pairs of a text, in JSON or in YAML, each with its secret taken out, the pairs of a HAR's
 * `cookies` lists as cookies.
 */
function redactNameValuePairs(text: string): string {
  const pairsIn = (part: string, isCookie: boolean) =>
    NAME_VALUE_PAIRS.reduce(
      (out, pattern) =>
        out.replace(
          pattern,
          (
            _match,
            before: string | undefined,
            name: string | undefined,
            value: string | undefined,
            valueFirstBefore: string,
            valueFirst: string,
            lastName: string,
          ) =>
            before === undefined || name === undefined || value === undefined
              ? `${valueFirstBefore}${redactPairValue(lastName, valueFirst, isCookie)}`
              : `${before}${redactPairValue(name, value, isCookie)}`,
        ),
      part,
    );
  const withJson = pairsIn(
    text.replace(COOKIE_LIST, (list) => pairsIn(list, true)),
    false,
  );
  return withJson
    .replace(
      YAML_NAME_VALUE_PAIR,
      (_match, before: string, _nameQuote, name: string, quote?: string, quoted?: string, bare?: string) =>
        redactYamlPair(before, name, quote, quoted ?? bare),
    )
    .replace(
      YAML_VALUE_NAME_PAIR,
      (
        _match,
        before: string,
        quote: string | undefined,
        quoted: string | undefined,
        bare: string | undefined,
        _nameQuote,
        name: string,
      ) => redactYamlPair(before, name, quote, quoted ?? bare),
    )
    .replace(
      FLOW_NAME_VALUE_PAIR,
      (
        match,
        before?: string,
        _nameQuote?: string,
        name?: string,
        quote?: string,
        quoted?: string,
        bare?: string,
        valueFirstBefore?: string,
        valueFirstQuote?: string,
        valueFirstQuoted?: string,
        valueFirstBare?: string,
        _lastNameQuote?: string,
        lastName?: string,
      ) => {
        if (before !== undefined && name !== undefined)
          return redactYamlPair(before, name, quote, quoted ?? bare);
        if (valueFirstBefore === undefined || lastName === undefined) return match;
        return redactYamlPair(
          valueFirstBefore,
          lastName,
          valueFirstQuote,
          valueFirstQuoted ?? valueFirstBare,
        );
      },
    );
}

/** A YAML pair (or a script's object) with its value's secret taken out: all before the value, its quote, it. */
function redactYamlPair(before: string, name: string, quote: string | undefined, value = ''): string {
  return `${before}${quote ?? ''}${redactPairValue(name, value, false)}`;
}

/**
 * A curl command, to the end of its line and over the lines it continues onto (a `\` before the newline, or,
 * in JSON, before a `\n` escape), or to a shell's `&&`, `||`, `|` or `;` outside quotes, where the next command
 * starts. Only there is `-u user:password` a credential: `docker run -u 1000:1000` and `rsync -u host:/path` are a
 * user and group and a path (and `grep -b` a byte offset), after a curl command on the same line too. A quoted
 * argument is read to its closing quote on the line, or, with none, its quote as any other character.
 */
const CURL_COMMAND =
  /\bcurl\b(?:'[^'\r\n]*'|"(?:[^"\\\r\n]|\\[^\r\n])*"|[^\r\n\\'"|;&]|&(?!&)|['"]|\\(?:\r?\n|\\\\n|[^n\r\n]))*/g;
/**
 * The same in JSON text, where every plain `"` opens or closes a string: a command ends with the string it is in,
 * so `-u 1000:1000` in another string (a later message of the conversation, another Slack message) is not read
 * as its option. There the shell's double quotes are written `\"`.
 */
const CURL_COMMAND_IN_JSON =
  /\bcurl\b(?:'(?:[^'"\\\r\n]|\\[^n\r\n])*'|\\"(?:[^"\\\r\n]|\\[^"n\r\n])*\\"|[^\r\n\\'"|;&]|&(?!&)|'|\\(?:\\\\n|[^n\r\n]))*/g;
/** curl's short options that take no argument, which may stand before another in one word (`-su`, `-sSLb`). */
const CURL_FLAGS = '[0-46aBfgGiIjJklLMnNOpqRsSvVZ#]';
/** curl's options that carry a credential: `-u`/`--user`, the proxy's `-U`/`--proxy-user`, `-b`/`--cookie`. */
const CURL_CREDENTIAL_LETTERS = '[uUb]';
const CURL_CREDENTIAL_NAMES = 'proxy-user|user|cookie';
/**
 * Where one of those options may start, for the redactor's first quick test (secret-shapes.ts): a "-" after a
 * space, far rarer than the letters.
 */
export const CURL_CREDENTIAL_HINT = String.raw`-(?<=\s-)(?:${CURL_FLAGS}*${CURL_CREDENTIAL_LETTERS}|-(?:${CURL_CREDENTIAL_NAMES}))`;
/**
 * One of those options, alone or last in a word of flags (`-su`), then its argument in quotes (plain, or escaped
 * in JSON), where it runs to the closing quote, or bare, where it runs to a space. Groups: the option and the
 * space after it, the option's letter or long name, the quote, then the argument in quotes or bare.
 */
const CURL_CREDENTIAL_OPTION = new RegExp(
  String.raw`(\s(?:-${CURL_FLAGS}*(${CURL_CREDENTIAL_LETTERS})[ \t]*|--(${CURL_CREDENTIAL_NAMES})(?:[ \t]+|=)))` +
    String.raw`(?:(\\?["'])((?:(?!\4)[^\r\n\\]|\\(?!["n]))*)|([^\s"'\\]*))`,
  'g',
);

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
  String.raw`(\bmachine[ \t]+${NETRC_WORD}(?:${NETRC_SPACE}(?:login|account)[ \t]+${NETRC_WORD})*` +
    String.raw`${NETRC_SPACE}password[ \t]+)(${NETRC_WORD})`,
  'g',
);
/**
 * Where a `.netrc` entry may start, for the redactor's first quick test (secret-shapes.ts): `machine host` then one of
 * its words. It starts at the "e" ending "machine", a letter the test already stops at, so text with none costs
 * nothing more to scan.
 */
export const NETRC_HINT = String.raw`e(?<=\bmachine)[ \t]+${NETRC_WORD}${NETRC_SPACE}(?:login|account|password)[ \t]`;

/**
 * The text with the cookies of its headers and scripts, the passwords and cookies of its curl commands and `.netrc`
 * entries and the secrets of its name/value pairs taken out; `isJson` when the text is JSON (`JSON.stringify`'s output), whose
 * strings each hold their own text.
 */
export function redactRequestCredentials(text: string, isJson = false): string {
  const out = text.replace(
    COOKIE_HEADER,
    (_match, header: string, setCookie: string | undefined, pairs: string) =>
      `${header}${redactCookiePairs(pairs, setCookie !== undefined)}`,
  );
  const withAuthorization = out.replace(AUTHORIZATION_HEADER, redactAuthorizationHeader);
  const withCurl = withAuthorization.replace(isJson ? CURL_COMMAND_IN_JSON : CURL_COMMAND, (command) =>
    command.replace(CURL_CREDENTIAL_OPTION, redactCurlOption),
  );
  const withScripts = withCurl.replace(
    DOCUMENT_COOKIE,
    (match, before: string, name: string, value: string) =>
      isSecretCookieValue(value) && (SESSION_COOKIE_NAME.test(name) || looksRandom(value))
        ? `${before}${REDACTED}`
        : match,
  );
  const withNetrc = withScripts.replace(NETRC_PASSWORD, (match, before: string, password: string) =>
    isPlaceholder(password) || !looksGenerated(password) ? match : `${before}${REDACTED}`,
  );
  return redactNameValuePairs(withNetrc);
}
