import type { UsageDay } from '../../../../shared/contract';
import { dollars } from '../chat/run-cost';

/** "23 Nov" for a YYYY-MM-DD day (read as that calendar day, whatever the viewer's zone). */
export function dayLabel(day: string): string {
  const date = new Date(`${day}T12:00:00Z`);
  return Number.isNaN(date.getTime())
    ? day
    : date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', weekday: 'short', timeZone: 'UTC' });
}

export const tokenCount = (n: number): string => n.toLocaleString('en');

/** "$0.0012", or a dash when none of the models has a price. */
export const costWords = (cost: number | null): string => (cost === null ? '—' : dollars(cost));

/**
 * The 30 days' total as the panel's sentence begins it: "About $0.0012 for …", but "Under $0.0001 for …" without
 * "About", since an amount that is already a bound takes none (as the chat's run cost says it).
 */
export function totalCostWords(cost: number | null): { lead: string; amount: string } {
  const amount = costWords(cost);
  return amount.startsWith('under')
    ? { lead: '', amount: `U${amount.slice(1)}` }
    : { lead: 'About ', amount };
}

/** The models of a day, for the row's title: "gemini-2.5-flash, gemini-2.5-pro". */
export const modelsOf = (day: UsageDay): string => day.byModel.map((model) => model.model).join(', ');
