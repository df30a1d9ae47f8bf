/**
 * The distinctive strings in a call's arguments: addresses, links and code-like tokens. These are what a text
 * read by the assistant can smuggle into an action (an attacker's address, a phishing link, a security code),
 * so the policy asks where each one came from.
 */
export interface ContentToken {
  kind: 'address' | 'link' | 'code' | 'channel';
  /** As it appears in the arguments. */
  value: string;
}

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
const URL_WITH_SCHEME = /\b(?:https?|ftp):\/\/[^\s<>"'()[\]{}]+/giu;
/** A bare host such as www.x.com or secure-login.io/reset: common top-level domains only, so "e.g." or "v2.3" stay text. */
const BARE_HOST =
  /\b(?:[a-z0-9-]+\.)+(?:com|net|org|io|co|info|biz|xyz|ru|cn|app|dev|link|me|ly|site|online|top|club|shop|live|click|tk|gg|ai|us|uk|de|fr|eu)\b(?:\/[^\s<>"'()[\]{}]*)?/giu;
/** Tokens of letters, digits and dashes; a code is one with enough digits to be distinctive (see isCode). */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}_-]*[\p{L}\p{N}]/gu;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:t\d{2}(?::\d{2}){0,2})?/i;
const SLACK_CHANNEL = /^#[^\s#,]+$/;
/** A Slack channel given by its id (C…, G…, D…) is a handle looked up, like an event id. */
const SLACK_CHANNEL_ID = /^[CGD][A-Z0-9]{6,}$/;

/**
 * Argument names that refer to a thing by id (an event, a task, a thread, a Slack ts). An id is a handle the
 * assistant looked up, not text it passes on; what it points at is judged by the request's scope instead.
 */
const REFERENCE_ARG = /(?:^id$|Id$|_ts$|^timeZone$|^start$|^end$|^due$)/;

const trimPunctuation = (value: string): string => value.replace(/[.,;:!?]+$/u, '');

/** A token worth tracing: at least four digits, or a mix of letters and at least two digits six long or more. */
function isCode(word: string): boolean {
  if (ISO_DATE_TIME.test(word)) return false;
  const digits = word.replace(/\D/g, '').length;
  const letters = word.replace(/[^\p{L}]/gu, '').length;
  if (digits >= 4 && !/^(19|20)\d{2}$/.test(word)) return true;
  return letters > 0 && digits >= 2 && word.length >= 6;
}

/** Every distinctive token in one piece of text, addresses first, then links, then codes. */
export function tokensIn(text: string): ContentToken[] {
  const found: ContentToken[] = [];
  let rest = text;
  for (const match of text.match(EMAIL) ?? []) {
    found.push({ kind: 'address', value: match.toLowerCase() });
    rest = rest.split(match).join(' ');
  }
  for (const match of rest.match(URL_WITH_SCHEME) ?? []) {
    found.push({ kind: 'link', value: trimPunctuation(match) });
    rest = rest.split(match).join(' ');
  }
  for (const match of rest.match(BARE_HOST) ?? []) {
    found.push({ kind: 'link', value: trimPunctuation(match) });
    rest = rest.split(match).join(' ');
  }
  for (const match of rest.match(WORD) ?? []) {
    if (isCode(match)) found.push({ kind: 'code', value: match });
  }
  return found;
}

/** The tokens in every string argument (nested ones too), except ids that only point at a thing. */
export function tokensInArgs(args: Record<string, unknown>): ContentToken[] {
  const found: ContentToken[] = [];
  const visit = (value: unknown, key: string): void => {
    if (REFERENCE_ARG.test(key)) return;
    if (typeof value === 'string') {
      if (key === 'channel' && SLACK_CHANNEL_ID.test(value.trim())) return;
      if (SLACK_CHANNEL.test(value.trim()) || key === 'channel') {
        found.push({ kind: 'channel', value: `#${value.trim().replace(/^#/, '').toLowerCase()}` });
        return;
      }
      found.push(...tokensIn(value));
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, key);
    } else if (typeof value === 'object' && value !== null) {
      for (const [childKey, child] of Object.entries(value)) visit(child, childKey);
    }
  };
  for (const [key, value] of Object.entries(args)) visit(value, key);
  const seen = new Set<string>();
  return found.filter((token) => {
    const key = `${token.kind}:${token.value.toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Lower case, without a link's scheme and "www.", so https://www.x.com/a and x.com/a compare equal. */
export function normalizedToken(token: ContentToken): string {
  const lower = token.value.toLowerCase();
  if (token.kind === 'link')
    return lower
      .replace(/^[a-z]+:\/\//, '')
      .replace(/^www\./, '')
      .replace(/\/$/, '');
  if (token.kind === 'channel') return lower.replace(/^#/, '');
  return lower;
}

/** Whether a text contains the token (case-insensitive; links compared without scheme and "www."). */
export function textHasToken(text: string, token: ContentToken): boolean {
  return text.toLowerCase().includes(normalizedToken(token));
}

/** The times of day an event call sets (its start and end), as "23:00". */
export function timesInArgs(args: Record<string, unknown>): string[] {
  return ['start', 'end'].flatMap((key) => {
    const value = args[key];
    const time = typeof value === 'string' ? /T(\d{2}):(\d{2})/.exec(value) : null;
    return time ? [`${time[1]}:${time[2]}`] : [];
  });
}

/** The ways a text can name a time of day: 23:00, 23h, 23.00, 11pm, 11 pm, 11:00 pm. */
export function timeSpellings(time: string): string[] {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  const twelve = hours % 12 === 0 ? 12 : hours % 12;
  const half = hours < 12 ? 'am' : 'pm';
  const clock = String(minutes).padStart(2, '0');
  const h24 = String(hours).padStart(2, '0');
  const spellings = [
    `${h24}:${clock}`,
    `${hours}:${clock}`,
    `${h24}.${clock}`,
    `${hours}h${minutes ? clock : ''}`,
  ];
  spellings.push(`${twelve}:${clock} ${half}`, `${twelve}:${clock}${half}`);
  if (minutes === 0) spellings.push(`${twelve}${half}`, `${twelve} ${half}`, `${twelve} o'clock`);
  return spellings;
}

/** Whether a text (lower case) names the time of day, as a whole token ("3pm" is not in "13pm"). */
export function textHasTime(text: string, time: string): boolean {
  return timeSpellings(time).some((spelling) =>
    new RegExp(`(^|[^\\d])${spelling.replace(/[.]/g, '\\.')}($|[^\\d])`).test(text),
  );
}
