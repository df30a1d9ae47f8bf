import { describe, expect, it } from 'vitest';
import { useHostedGemini } from './support/hosted';
import { composer, openFromHeader, usePages } from './support/pages';
import { wordsUnderArrows } from './support/tabs';

const { newPage } = usePages();

/** Settings' row of tabs when the window changes size. */
describe('Settings tabs', () => {
  const hosted = useHostedGemini();

  it('keeps the chosen tab whole, clear of the fade and its arrow, when the window narrows', async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    const host = hosted.host();
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    await openFromHeader(page, 'open-settings');
    const row = page.getByTestId('settings-tabs');
    /** Whether the chosen tab lies inside the row and clear of a faded edge (where an arrow is drawn). */
    const chosenIsWhole = () =>
      row.evaluate((list) => {
        const tab = list.querySelector('[aria-selected="true"]');
        if (!tab) return false;
        const fade = parseFloat(getComputedStyle(list).scrollPaddingInlineStart);
        const outer = list.getBoundingClientRect();
        const start = outer.left + (list.hasAttribute('data-more-before') ? fade : 0);
        const end = outer.right - (list.hasAttribute('data-more-after') ? fade : 0);
        const box = tab.getBoundingClientRect();
        return box.left >= start - 1 && box.right <= end + 1;
      });
    for (const testId of ['settings-tab-extensions', 'settings-tab-data']) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByTestId(testId).click();
      for (const width of [720, 420]) {
        await page.setViewportSize({ width, height: 800 });
        await expect.poll(chosenIsWhole).toBe(true);
        // Nor does an arrow cover another tab's words: the one cut off at the row's end fades out before it.
        expect(await wordsUnderArrows(row)).toEqual([]);
      }
    }
  });
});
