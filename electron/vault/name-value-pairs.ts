/**
 * The name/value pairs that hold a request's headers, cookies, query and form fields, or a program's environment:
 * a browser's saved requests (HAR), a Postman collection, a Kubernetes env list in JSON or YAML, a script's object.
 * Each pair's value is judged by its name: a cookie's, an authorization's, or a field named like a credential's.
 */
import { isSecretField, quotedField } from './credential-fields';
import { AFTER_ESCAPE, LINE_BREAK, REDACTED } from './redaction';
import { isSecretCookieValue, redactAuthorizationCredentials, redactCookiePairs } from './request-shapes';

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
 * in either order, with up to sixteen other members between them (`"type": "secret"`, an object, a list); in JSON
 * (`quote` is `"`) or escaped in a JSON string (`\"`: a HAR pasted into a message, then stored). A name and a value
 * are read to their closing quote, so each pair is read once. Groups: name first, all before the value, the name, the
 * value; or value first, all before the value, the value, the name.
 */
function jsonNameValuePair(quote: string, stringText: string): RegExp {
  const field = (name: string) => `${quote}${name}${quote}${JSON_SPACE}:${JSON_SPACE}${quote}`;
  const name = String.raw`${field('(?:name|key)')}([^"\\\r\n]*)${quote}`;
  const comma = `${JSON_SPACE},${JSON_SPACE}`;
  // Up to sixteen other members between the name and the value (`"type": "secret"`, `"enabled": true`,
  // `"meta": {"a": {"b": 1}}`, `"tags": ["a", {"b": 1}]`), never a value. An object or a list among them is up to two
  // levels deep, each of up to 64 pieces: a string, a character outside one, or (in the outer) an inner object or
  // list. Each piece starts with a different character, so the pattern stays linear.
  const string = `${quote}${stringText}${quote}`;
  const piece = String.raw`${string}|[^{}[\]"\\]|\\[nrt]`;
  const inner = String.raw`\{(?:${piece}){0,64}\}|\[(?:${piece}){0,64}\]`;
  const nested = String.raw`\{(?:${piece}|${inner}){0,64}\}|\[(?:${piece}|${inner}){0,64}\]`;
  const others = String.raw`(?:${comma}${quote}(?!value${quote})[\w-]{1,64}${quote}${JSON_SPACE}:${JSON_SPACE}(?:${string}|[\w.-]{1,64}|${nested})){0,16}`;
  return new RegExp(
    `(${name}${others}${comma}${field('value')})(${stringText})(?=${quote})|` +
      `(${field('value')})(${stringText})(?=${quote}${others}${comma}${name})`,
    'g',
  );
}
const NAME_VALUE_PAIRS = [
  jsonNameValuePair('"', JSON_STRING_TEXT),
  jsonNameValuePair(String.raw`\\"`, ESCAPED_JSON_STRING_TEXT),
];
/**
 * Up to sixteen lines between a YAML pair's name and its value, each ending in a line break: a comment, or another key
 * of the same map, indented (`description: …`), never the value's own.
 */
const YAML_LINES_BETWEEN = String.raw`(?:(?:[ \t]*#|[ \t]+(?!value:)[\w-]{1,64}:)[^\r\n\\]*${LINE_BREAK}){0,16}`;
/** A word of a bare YAML value: a `#` after a space starts a comment. */
const YAML_WORD = String.raw`[^\s"'\\#][^\s"'\\]*`;
/** A bare YAML value: its words, to its line's end or its comment. */
const YAML_WORDS = `${YAML_WORD}(?:[ \\t]+${YAML_WORD})*`;
/** A YAML pair's name (`name:`, or Postman's `key:`), quoted or bare; it holds no `:`. Groups: the quote, the name. */
function yamlName(quoteGroup: number): string {
  return String.raw`(?:name|key):[ \t]*(\\?["'])?([^\s"'\\:,{}[\]]+)` + `\\${quoteGroup}`;
}
/**
 * The same pair in YAML, as Kubernetes' env lists hold it: `- name: API_KEY`, then `value: …` on the next line (or
 * after up to sixteen lines of comments or other keys), indented; each quoted or bare. A name holds no `:`, so a text of
 * many `name:` is read once. Groups: all before the value, the name's quote, the name, the value's quote, the value in
 * quotes, or bare.
 */
const YAML_NAME_VALUE_PAIR = new RegExp(
  String.raw`((?:(?<![\w.-])|${AFTER_ESCAPE})${yamlName(2)}[ \t]*${LINE_BREAK}${YAML_LINES_BETWEEN}[ \t]+value:[ \t]*)` +
    String.raw`(?:(\\?["'])([^"'\\\r\n]*)(?=\4)|(${YAML_WORDS}))`,
  'g',
);
/**
 * The same pair with its value first: `- value: …`, then `name: API_KEY` on the next line. The value's line is read
 * from its start (a JSON string's, or after an escape), so a line of many `value:` is read once. Groups: all before the value, the
 * value's quote, the value in quotes, or bare, the name's quote, the name.
 */
const YAML_VALUE_NAME_PAIR = new RegExp(
  String.raw`((?:^|(?<=[\r\n"])|${AFTER_ESCAPE})[ \t]*(?:-[ \t]+)?value:[ \t]*)(?:(\\?["'])([^"'\\\r\n]*)(?=\2)|(${YAML_WORDS}))` +
    String.raw`(?=\2?[ \t]*(?:[ \t]#[^\r\n\\]*)?${LINE_BREAK}${YAML_LINES_BETWEEN}[ \t]+${yamlName(5)})`,
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
 * The backslashes before a quote escaped as deep as it is: none, one (in a JSON string), three or more (JSON in a JSON
 * string, and deeper). Written so, not as any run (`\\*`), a look back from each `:` of a JSON text costs no more than
 * with one backslash at most.
 */
const QUOTE_ESCAPES = String.raw`(?:\\?|\\{3,})`;
/**
 * Where a pair whose name ends in one of `names` (a pattern) may be, or a HAR's list of cookies: the `:` after a
 * pair's `name` or `key` (in JSON, YAML or a script) when the name that follows ends so, or after `"cookies"` when a
 * list follows, for the redactor's first quick test (secret-shapes.ts). One look back from each `:` tells both. The
 * many pairs that are neither (a mail's From and Subject headers) are left to the quick test alone. Its quotes may be
 * escaped as deep as they are (`\\\"name\\\"`, JSON in a JSON string, in JSON), so a hint reads alike at every depth.
 */
export function nameValueHint(names: string): string {
  return (
    String.raw`:(?<=(?:"cookies${QUOTE_ESCAPES}"|(?:name|key)${QUOTE_ESCAPES}["']?)[ \t]*:)` +
    String.raw`(?=${JSON_SPACE}(?:\[|${QUOTE_ESCAPES}["']?[\w.-]{1,100}(?![\w.-])(?<=${names})))`
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
export function redactNameValuePairs(text: string): string {
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
