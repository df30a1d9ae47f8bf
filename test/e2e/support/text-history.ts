import type { Page } from 'playwright-core';

type Noted = { textNotes?: (string | null)[][] };

/**
 * Starts noting the text of the first element `selector` finds (null while there is none), once after every change
 * to the page (a MutationObserver sees each state React commits, even one no frame painted); resolves to a function
 * that reads what it said so far, in order, each change once.
 */
export async function watchText(page: Page, selector: string): Promise<() => Promise<(string | null)[]>> {
  const slot = await page.evaluate((wanted) => {
    const seen: (string | null)[] = [];
    const note = () => {
      const now = document.querySelector(wanted)?.textContent ?? null;
      if (seen.at(-1) !== now) seen.push(now);
    };
    note();
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
    return ((window as Noted).textNotes ??= []).push(seen) - 1;
  }, selector);
  return () => page.evaluate((at) => (window as Noted).textNotes?.[at] ?? [], slot);
}
