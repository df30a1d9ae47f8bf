import { estimateTokens } from '../engine/context-window';

export type ContextSource =
  'contacts' | 'calendar' | 'tasks' | 'conversations' | 'gmail' | 'slack' | 'memory';

/** One piece of context, with where it came from, as the content-is-data rules require. */
export interface ContextItem {
  source: ContextSource;
  /** Where it came from, finishing "this appears only in …": "a mail from ana@x.io (“Q4”)". */
  label: string;
  title: string;
  detail: string;
  /** When it happened or happens (ISO), if it has a time. */
  at: string | null;
  /** The person's own words (a memory they confirmed, their task): never content from outside. */
  isConfirmed: boolean;
}

export interface RankedItem extends ContextItem {
  score: number;
}

/** A person named in the request counts most, then the request's words, then how soon or how recent. */
const WEIGHTS = { person: 3, word: 1, time: 0.5 };
const DAY = 86_400_000;

const wordsOf = (text: string): Set<string> =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((word) => !STOP.has(word)));
const STOP = new Set([
  'the',
  'and',
  'for',
  'with',
  'what',
  'when',
  'where',
  'who',
  'how',
  'you',
  'your',
  'my',
  'next',
]);

/** Spec 004's rankContextRelevance: scores each item against the request and sorts, best first. */
export function rankContextRelevance(
  items: readonly ContextItem[],
  intent: { text: string; addresses: readonly string[] },
  now: Date,
): RankedItem[] {
  const wanted = wordsOf(intent.text);
  const addresses = intent.addresses.map((address) => address.toLowerCase());
  return items
    .map((item) => {
      const text = `${item.title}\n${item.detail}`.toLowerCase();
      const words = wordsOf(text);
      const overlap =
        wanted.size === 0 ? 0 : [...wanted].filter((word) => words.has(word)).length / wanted.size;
      const namesPerson = addresses.some((address) => text.includes(address)) ? 1 : 0;
      const distance = item.at ? Math.abs(Date.parse(item.at) - now.getTime()) / DAY : Infinity;
      const nearness = Number.isFinite(distance) ? 1 / (1 + distance / 7) : 0;
      const score = WEIGHTS.person * namesPerson + WEIGHTS.word * overlap + WEIGHTS.time * nearness;
      return { ...item, score: Math.round(score * 1000) / 1000 };
    })
    .sort((a, b) => b.score - a.score);
}

/** The best items that fit in `maxTokens`, and whether any were left out. */
export function withinBudget<T>(items: readonly T[], maxTokens: number): { kept: T[]; isTruncated: boolean } {
  const kept: T[] = [];
  let used = 0;
  for (const item of items) {
    const cost = estimateTokens(JSON.stringify(item));
    if (used + cost > maxTokens) return { kept, isTruncated: true };
    kept.push(item);
    used += cost;
  }
  return { kept, isTruncated: false };
}
