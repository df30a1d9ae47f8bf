import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { textReply } from '../../fakes/gemini/script';
import { axeViolations } from './axe';
import { composerOf, useDesktop } from './desktop-fixture';

const desktop = useDesktop();
const isQuick = (url: string) => url.endsWith('#/quick');
const SHOTS = process.env.DEPUTY_SHOTS;

/** A question long enough that its conversation's title (its first 80 characters) cannot fit beside the buttons. */
const LONG = 'Plan the quarterly offsite for the whole design team, with travel, rooms, meals and a budget';

/** How the header lays out: each part's left and right edge, and whether its words are cut. */
function headerLayout(page: Page) {
  return page.evaluate(() => {
    const part = (selector: string) => {
      const element = document.querySelector<HTMLElement>(selector);
      if (!element) return null;
      const box = element.getBoundingClientRect();
      return { left: box.left, right: box.right, isCut: element.scrollWidth > element.clientWidth };
    };
    const title = document.querySelector<HTMLElement>('[data-testid="quick-thread-title"]');
    const style = title ? getComputedStyle(title) : null;
    return {
      width: window.innerWidth,
      pageWidth: document.documentElement.scrollWidth,
      title: part('[data-testid="quick-thread-title"]'),
      ellipsis: style?.textOverflow,
      // The header drags the frameless window, and a drag region takes the pointer from the page (no tooltip).
      appRegion: style?.getPropertyValue('-webkit-app-region'),
      newButton: part('[data-testid="quick-new"]'),
      openButton: part('[data-testid="quick-open-in-deputy"]'),
    };
  });
}

describe('the quick prompt’s header with a long conversation title', () => {
  it('cuts the title short with an ellipsis, keeps it whole for the pointer and screen readers, and keeps its buttons whole (560 and 420 px, light and dark)', async () => {
    const app = await desktop.launch();
    await app.mainWindow();
    app.globalShortcut.press('Alt+Space');
    const page = await (await app.waitForWindow(isQuick, 'the quick prompt')).page();
    desktop.gemini.script(textReply('Here is a plan.'));
    await composerOf(page).fill(LONG);
    await composerOf(page).press('Enter');
    await page.getByTestId('composer-send').waitFor();
    const title = page.getByTestId('quick-thread-title');
    await title.waitFor();
    // Whole for a screen reader, and for the pointer (its tooltip): the title as stored, its first 80 characters.
    const whole = await title.getAttribute('title');
    expect(whole).toMatch(/^Plan the quarterly offsite for the whole design team, with travel, rooms, meals/);
    expect(await title.textContent()).toBe(whole);

    for (const width of [560, 420])
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 440 });
        await page.emulateMedia({ colorScheme });
        const at = `${width} px, ${colorScheme}`;
        const layout = await headerLayout(page);
        const { title: shown, newButton, openButton } = layout;
        if (!shown || !newButton || !openButton) throw new Error(`${at}: the header lacks a part`);
        expect({ at, isCut: shown.isCut, ellipsis: layout.ellipsis, appRegion: layout.appRegion }).toEqual({
          at,
          isCut: true,
          ellipsis: 'ellipsis',
          appRegion: 'no-drag',
        });
        // The buttons come after the title, whole, inside the window; nothing spills sideways.
        expect(newButton.left, at).toBeGreaterThanOrEqual(shown.right);
        expect(openButton.right, at).toBeLessThanOrEqual(layout.width);
        expect([newButton.isCut, openButton.isCut], at).toEqual([false, false]);
        expect(layout.pageWidth, at).toBe(layout.width);
        expect(await axeViolations(page), at).toEqual([]);
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/quick-long-title-${width}-${colorScheme}.png` });
      }
  });
});
