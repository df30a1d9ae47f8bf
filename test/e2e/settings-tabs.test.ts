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
  it('General, Permissions and Connections speak plainly: actions and steps, allowed recipients, where the key comes from', async () => {
    const page = await newPage();
    const host = hosted.host();
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    await openFromHeader(page, 'open-settings');
    const panel = page.getByRole('tabpanel');
    const wordsOf = async (tab: string, ready: string) => {
      await page.getByTestId(`settings-tab-${tab}`).click();
      await panel.getByText(ready, { exact: true }).first().waitFor();
      return panel.innerText();
    };
    const general = await wordsOf('general', 'How actions run');
    expect(general).toContain('Each step takes a single action');
    expect(general).toContain('Actions at once');
    expect(general).toContain('gets one last step to wrap up');
    const permissions = await wordsOf('permissions', 'Allowed recipients');
    expect(permissions).toContain('Acts alone for your allowed recipients and your rules');
    await wordsOf('connections', 'Gemini');
    // This host has its key from its environment: the card says so in words, with the name to look for.
    await panel.getByText('Using the key set before Deputy started (GEMINI_API_KEY)').waitFor();
    for (const words of [general, permissions, await panel.innerText()]) {
      expect(words).not.toMatch(/tool calls?|\bturns?\b|allow-list|“thinking” events|\bconfigured\b/i);
      // A variable's name only in brackets, after the words that say what it is.
      expect(words.replace(/\(GEMINI_API_KEY\)/g, '')).not.toContain('GEMINI_API_KEY');
    }
  });
});
