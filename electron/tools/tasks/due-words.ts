/** One formatter, as the calendar's cards say a day: "Thu, 10 Dec 2026". */
const DAY = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

/**
 * A task's due date or date-time as an approval card says it, the way the calendar's cards say a day:
 * "2026-12-10" → "Thu, 10 Dec 2026", "2026-12-10T09:00" → "Thu, 10 Dec 2026, 09:00" (the time as written).
 * A value that does not read as a date is said as it is.
 */
export function describeDue(due: string): string {
  const match = /^(\d{4})-(\d\d)-(\d\d)(?:T(\d\d:\d\d))?/.exec(due);
  if (!match) return due;
  const [, year, month, day, time] = match;
  const at = Date.UTC(Number(year), Number(month) - 1, Number(day));
  const date = new Date(at);
  // "2026-02-31" rolls over into March: not a day, so said as written.
  if (date.getUTCDate() !== Number(day)) return due;
  return time ? `${DAY.format(date)}, ${time}` : DAY.format(date);
}
