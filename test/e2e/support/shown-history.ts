import type { Page } from 'playwright-core';

/** What the conversation showed at one moment: the assistant's words and the cards, counted. */
export interface Shown {
  words: string;
  toolCards: number;
  approvalCards: number;
  childRuns: number;
}

/**
 * Starts noting what the conversation shows, once after every change to the page (a MutationObserver sees each
 * state React commits, even one no frame painted); resolves to a function that reads the notes so far.
 */
export async function watchShown(page: Page): Promise<() => Promise<Shown[]>> {
  await page.evaluate(() => {
    const notes: Shown[] = [];
    const take = (): Shown => {
      const timeline = document.querySelector('[data-testid="timeline"]');
      const count = (selector: string) => timeline?.querySelectorAll(selector).length ?? 0;
      const words = [...(timeline?.querySelectorAll('[data-testid="message"][data-role="assistant"]') ?? [])]
        .map((message) => message.textContent ?? '')
        .join('\n');
      return {
        words,
        toolCards: count('[data-testid="tool-call"]'),
        approvalCards: count('[data-testid="approval-card"]'),
        childRuns: count('[data-testid="child-run"]'),
      };
    };
    const note = () => {
      const now = take();
      const last = notes.at(-1);
      if (!last || JSON.stringify(last) !== JSON.stringify(now)) notes.push(now);
    };
    note();
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
    (window as unknown as { shownNotes: Shown[] }).shownNotes = notes;
  });
  return () => page.evaluate(() => (window as unknown as { shownNotes: Shown[] }).shownNotes);
}

/** How much an answer says: its letters, not the spaces a finished answer's markdown trims. */
const letters = (words: string) => words.replace(/\s+/g, '').length;

/** The first moment the conversation showed less than the moment before (fewer words or cards), or null. */
export function firstShrink(notes: readonly Shown[]): { before: Shown; after: Shown } | null {
  for (let index = 1; index < notes.length; index += 1) {
    const before = notes[index - 1];
    const after = notes[index];
    if (!before || !after) continue;
    const isShorter =
      letters(after.words) < letters(before.words) ||
      after.toolCards < before.toolCards ||
      after.approvalCards < before.approvalCards ||
      after.childRuns < before.childRuns;
    if (isShorter) return { before, after };
  }
  return null;
}
