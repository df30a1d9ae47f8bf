import { useLayoutEffect, useState, type CSSProperties, type RefObject } from 'react';

/** The table's time formats by locale (the app's is `undefined`): made once, as every row in view asks. */
const formats = new Map<string | undefined, Intl.DateTimeFormat>();

/**
 * How the table says a time: day and month, then the time of day as the chat says it (`timeStyle: 'medium'`), in
 * the computer's locale: its clock of 12 or 24 hours, and its hour of one digit or two.
 */
function formatOf(locale: string | undefined): Intl.DateTimeFormat {
  const known = formats.get(locale);
  if (known) return known;
  const clock = new Intl.DateTimeFormat(locale, { timeStyle: 'medium' });
  const { hourCycle } = clock.resolvedOptions();
  // Its hour at one in the morning: "01" where the locale writes two digits.
  const oneOClock = clock.formatToParts(new Date(2026, 0, 1, 1)).find((part) => part.type === 'hour');
  const hour = oneOClock?.value.length === 2 ? '2-digit' : 'numeric';
  const format = new Intl.DateTimeFormat(locale, {
    month: 'short',
    day: 'numeric',
    hour,
    minute: '2-digit',
    second: '2-digit',
    hourCycle,
  });
  formats.set(locale, format);
  return format;
}

/**
 * The table's short time, in the computer's locale as the rest of Deputy's times are: "Nov 23, 7:50:38 PM" where
 * the clock has 12 hours, "23 Nov, 19:50:38" where it has 24. `locale` is for tests; the app leaves it out.
 */
export function shortTimeWords(iso: string, locale?: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatOf(locale).format(date);
}

/**
 * Times whose words are among the widest the locale writes: late in each month (a month's name is as long as it
 * gets), before noon and after (the two day-period words differ), every figure of two digits.
 */
export function widestTimeSamples(locale?: string): string[] {
  const samples: string[] = [];
  for (let month = 0; month < 12; month += 1)
    for (const hour of [10, 22])
      samples.push(shortTimeWords(new Date(2026, month, 28, hour, 58, 58).toISOString(), locale));
  return samples;
}

/**
 * The width of the table's time column, as its style: as wide as the widest time in this locale is drawn, in the
 * rows' own type, so a 12-hour time ("Sep 28, 10:58:58 PM") is whole and a 24-hour one leaves no gap. Each row is
 * a grid of its own (only the rows in view exist), so the column cannot size itself to its cells.
 */
export function useTimeColumnStyle(table: RefObject<HTMLElement | null>): CSSProperties | undefined {
  const [width, setWidth] = useState<string | null>(null);
  useLayoutEffect(() => {
    const element = table.current;
    if (!element) return;
    const probe = document.createElement('span');
    probe.className = 'audit-row__time audit-table__time-probe';
    probe.setAttribute('aria-hidden', 'true');
    Object.assign(probe.style, { position: 'absolute', visibility: 'hidden', whiteSpace: 'nowrap' });
    element.append(probe);
    let widest = 0;
    for (const sample of widestTimeSamples()) {
      probe.textContent = sample;
      widest = Math.max(widest, probe.getBoundingClientRect().width);
    }
    const fontSize = parseFloat(getComputedStyle(probe).fontSize) || 16;
    probe.remove();
    // In em of the rows' type, so it follows a larger text size as the words do; a pixel spare for rounding.
    setWidth(`${((widest + 1) / fontSize).toFixed(3)}em`);
  }, [table]);
  return width === null ? undefined : ({ '--audit-time-width': width } as CSSProperties);
}
