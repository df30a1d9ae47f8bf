import type { ContentSource } from './types';

/** Whether words of a call were copied from content, or are the person's own: compared word by word. */

/**
 * Six words in a row, or a whole shorter value (a title, a location: "Cancelled"), copied from content and not
 * from the person, are text the content put there. A value of fewer than five letters says too little to tell.
 */
const PHRASE_WORDS = 6;
const SHORT_VALUE_LETTERS = 5;
const ANY_WORD = /[\p{L}\p{N}]+/gu;
const wordsOf = (text: string): string => ` ${(text.toLowerCase().match(ANY_WORD) ?? []).join(' ')} `;

export function copiedPhrase(
  args: Record<string, unknown>,
  sources: readonly ContentSource[],
  trusted: string,
): { phrase: string; source: ContentSource } | null {
  const texts = Object.entries(args).flatMap(([key, value]) =>
    typeof value === 'string' && !/(?:^id$|Id$|_ts$)/.test(key) ? [value] : [],
  );
  const person = wordsOf(trusted);
  const read = sources.map((source) => ({ source, words: wordsOf(source.text) }));
  for (const text of texts) {
    const words = text.toLowerCase().match(ANY_WORD) ?? [];
    if (words.join('').length < SHORT_VALUE_LETTERS) continue;
    const span = Math.min(PHRASE_WORDS, words.length);
    for (let start = 0; start + span <= words.length; start += 1) {
      const phrase = ` ${words.slice(start, start + span).join(' ')} `;
      if (person.includes(phrase)) continue;
      const found = read.find((candidate) => candidate.words.includes(phrase));
      if (found) {
        const written = asWritten(text, words.slice(start, start + span));
        return { phrase: span < words.length ? `${written}…` : written, source: found.source };
      }
    }
  }
  return null;
}

/** The words as the call wrote them (case, punctuation), for the approval card. */
function asWritten(text: string, words: readonly string[]): string {
  const escaped = words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(escaped.join('[^\\p{L}\\p{N}]+'), 'iu').exec(text)?.[0] ?? words.join(' ');
}

const WORD = /[\p{L}\p{N}]{3,}/gu;
const FILLER = new Set([
  'the',
  'and',
  'that',
  'this',
  'with',
  'for',
  'user',
  'users',
  'their',
  'they',
  'are',
]);

/**
 * Whether a text is in the person's own words: three in four of its words (by their first five letters, so
 * "prefers" is "prefer") appear in what the person wrote.
 */
export function isInOwnWords(text: string, trusted: string): boolean {
  const words = (text.toLowerCase().match(WORD) ?? []).filter((word) => !FILLER.has(word));
  if (words.length === 0) return true;
  const own = words.filter((word) => trusted.includes(word.slice(0, 5))).length;
  return own / words.length >= 0.75;
}
