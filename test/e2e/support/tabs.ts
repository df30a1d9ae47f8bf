import type { Locator } from 'playwright-core';

/**
 * The tabs of a ScrollingTabs row (`row`: its tablist) whose words, as far as the row lets them be seen, lie under
 * one of its ‹ › arrows: none when the arrows cover no tab's words.
 */
export const wordsUnderArrows = (row: Locator): Promise<string[]> =>
  row.evaluate((list) => {
    const view = list.getBoundingClientRect();
    const arrows = [...(list.parentElement?.querySelectorAll('.tabs-row__arrow') ?? [])].map((arrow) =>
      arrow.getBoundingClientRect(),
    );
    return [...list.querySelectorAll('[role="tab"]')].flatMap((tab) => {
      const words = document.createRange();
      words.selectNodeContents(tab);
      const box = words.getBoundingClientRect();
      // The part of the words the row shows: what lies outside it is scrolled away.
      const left = Math.max(box.left, view.left);
      const right = Math.min(box.right, view.right);
      if (right - left < 1) return [];
      const isCovered = arrows.some(
        (arrow) =>
          Math.min(right, arrow.right) - Math.max(left, arrow.left) >= 1 &&
          Math.min(box.bottom, arrow.bottom) - Math.max(box.top, arrow.top) >= 1,
      );
      return isCovered ? [tab.getAttribute('data-testid') ?? tab.textContent ?? ''] : [];
    });
  });
