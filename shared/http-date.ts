const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY = '(?:mon|tue|wed|thu|fri|sat|sun)';
const LONG_DAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

/** "Sun, 06 Nov 1994 08:49:37 GMT": the form HTTP writes today. */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`, 'i');
/** "Sunday, 06-Nov-94 08:49:37 GMT": obsolete, with a year of two digits. */
const RFC_850 = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`, 'i');
/** "Sun Nov  6 08:49:37 1994": obsolete (C's asctime), GMT though it does not say so; a day below 10 has a space. */
const ASCTIME = new RegExp(`^${DAY} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`, 'i');

/**
 * The time an HTTP date stands for (RFC 9110 §5.6.7), in ms since the epoch, or null when `text` is none: the
 * IMF-fixdate HTTP writes, or either obsolete form a recipient must also take (RFC 850, asctime). `Date.parse` is no
 * judge of that: it takes far more (ISO dates, dates with no day), and reads an asctime date in the local time zone.
 * A two-digit year is the latest with those digits that is at most 50 years after `now`'s, as §5.6.7 asks. The day's name is
 * not checked against its date; a date that does not exist (31 Feb, 24:00:00) is none.
 */
export function parseHttpDate(text: string, now: number): number | null {
  const imf = IMF_FIXDATE.exec(text);
  if (imf) return utc(Number(imf[3]), imf[2], imf[1], imf.slice(4, 7));
  const rfc850 = RFC_850.exec(text);
  if (rfc850) return utc(fullYear(Number(rfc850[3]), now), rfc850[2], rfc850[1], rfc850.slice(4, 7));
  const asctime = ASCTIME.exec(text);
  if (asctime) return utc(Number(asctime[6]), asctime[1], asctime[2], asctime.slice(3, 6));
  return null;
}

function fullYear(twoDigits: number, now: number): number {
  const thisYear = new Date(now).getUTCFullYear();
  const year = thisYear - (thisYear % 100) + twoDigits;
  return year > thisYear + 50 ? year - 100 : year;
}

function utc(year: number, month = '', day = '', time: (string | undefined)[]): number | null {
  const [hours = 0, minutes = 0, seconds = 0] = time.map(Number);
  const date = Number(day.trim());
  const midnight = Date.UTC(year, MONTHS.indexOf(month.toLowerCase()), date);
  // Date.UTC rolls a day past the month's end over into the next: such a date, and such a time, are none.
  if (new Date(midnight).getUTCDate() !== date || hours > 23 || minutes > 59 || seconds > 60) return null;
  // A leap second (:60) is the next second's start.
  return midnight + ((hours * 60 + minutes) * 60 + seconds) * 1_000;
}
