/**
 * `date.toISOString()`, made cheaply. V8 formats every call through `snprintf` (about 7,000 instructions), and a
 * run's step stamps some twenty records. The text before the seconds changes once a minute, so it is kept for
 * the few minutes in use (now, and the starts of the rate-limit windows), and only the seconds and milliseconds
 * are written each time. An invalid date throws the same RangeError.
 */
export function isoTime(date: Date): string {
  const ms = date.getTime();
  const minute = Math.floor(ms / 60_000);
  let prefix = prefixes.get(minute);
  if (prefix === undefined) {
    // Everything before "SS.mmmZ": the last seven characters, whatever the year's width.
    prefix = date.toISOString().slice(0, -7);
    if (prefixes.size >= MAX_MINUTES) prefixes.clear();
    prefixes.set(minute, prefix);
  }
  const withinMinute = ms - minute * 60_000;
  const seconds = Math.floor(withinMinute / 1000);
  const millis = withinMinute - seconds * 1000;
  return `${prefix}${seconds < 10 ? '0' : ''}${seconds}.${millis < 100 ? (millis < 10 ? '00' : '0') : ''}${millis}Z`;
}

const MAX_MINUTES = 16;
const prefixes = new Map<number, string>();
