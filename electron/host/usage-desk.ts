import type { UsageDailyOutput, UsageDay } from '../../shared/contract';
import { costOf, type ModelPrice } from '../../shared/model-prices';
import type { Store } from '../store/store';

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 30;

export interface UsageDeskDeps {
  store: Store;
  now: () => Date;
  timezone: () => string;
  prices: () => Readonly<Record<string, ModelPrice>>;
}

/** Tokens and their estimated cost per day, in the person's time zone, priced by their table (Settings → Usage). */
export class UsageDesk {
  constructor(private readonly deps: UsageDeskDeps) {}

  daily(days = DEFAULT_DAYS): UsageDailyOutput {
    const timezone = this.deps.timezone();
    const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, dateStyle: 'short' });
    // A day more than asked, so the oldest local day is whole whatever the offset; then cut to `days` days.
    const since = new Date(this.deps.now().getTime() - (days + 1) * DAY_MS).toISOString();
    const prices = this.deps.prices();
    const byDay = new Map<string, Map<string, { inputTokens: number; outputTokens: number }>>();
    for (const run of this.deps.store.runs.usageSince(since)) {
      const day = dayOf.format(new Date(run.at));
      const models = byDay.get(day) ?? new Map<string, { inputTokens: number; outputTokens: number }>();
      const used = models.get(run.model) ?? { inputTokens: 0, outputTokens: 0 };
      used.inputTokens += run.inputTokens;
      used.outputTokens += run.outputTokens;
      models.set(run.model, used);
      byDay.set(day, models);
    }
    const unpriced = new Set<string>();
    const list: UsageDay[] = [...byDay.entries()]
      .sort(([a], [b]) => (a < b ? 1 : -1))
      .slice(0, days)
      .map(([day, models]) => {
        const byModel = [...models.entries()].map(([model, used]) => {
          const cost = costOf(model, used.inputTokens, used.outputTokens, prices);
          if (cost === null) unpriced.add(model);
          return { model, ...used, cost };
        });
        return { day, ...sum(byModel), byModel };
      });
    return { timezone, days: list, total: sum(list), unpricedModels: [...unpriced].sort() };
  }
}

/** Tokens added up; the cost of what has a price (null when nothing has one). */
function sum(rows: readonly { inputTokens: number; outputTokens: number; cost: number | null }[]): {
  inputTokens: number;
  outputTokens: number;
  cost: number | null;
} {
  const priced = rows.filter((row) => row.cost !== null);
  return {
    inputTokens: rows.reduce((total, row) => total + row.inputTokens, 0),
    outputTokens: rows.reduce((total, row) => total + row.outputTokens, 0),
    cost:
      priced.length === 0
        ? null
        : Math.round(priced.reduce((total, row) => total + (row.cost ?? 0), 0) * 1e6) / 1e6,
  };
}
