import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { launchBrowser } from './browser';

export const composer = (page: Page) => page.getByLabel('Message Deputy');
export const assistantMessages = (page: Page) =>
  page.locator('[data-testid="message"][data-role="assistant"]');
export const addTaskCard = (page: Page) => page.locator('[data-testid="tool-call"][data-tool="add_task"]');

/** Presses one of the header's Tasks, Audit trail or Settings, opening the "More" menu first in a narrow window. */
export async function openFromHeader(page: Page, testId: 'open-tasks' | 'open-settings' | 'open-audit') {
  // The header first: before it is drawn, the More button of a narrow window is not visible yet either.
  await page.getByTestId('open-approvals').waitFor();
  const more = page.getByTestId('header-menu-button');
  if (await more.isVisible()) await more.click();
  await page.getByTestId(testId).click();
}

export async function send(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press('Enter');
}

/**
 * What has the keyboard focus, by its data-testid; by its tag name when it has none, so that a failed check
 * says where focus went (BODY: dropped on the page).
 */
/** Whether `element` is wholly inside the conversation's visible area. */
export const isInConversationView = (element: Locator) =>
  element.evaluate((found) => {
    const box = found.getBoundingClientRect();
    const pane = found.closest('[data-testid="conversation"]')?.getBoundingClientRect();
    return pane !== undefined && box.top >= pane.top && box.bottom <= pane.bottom;
  });

export const focusedTestId = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return active?.getAttribute('data-testid') ?? active?.tagName ?? null;
  });
/** The id of what has the keyboard focus. */
export const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id);
/** The text of what has the keyboard focus, e.g. a button's label. */
export const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent);
/** The label of the field that has the keyboard focus: its aria-label, or its <label>'s words. */
export const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    if (!active) return null;
    const labels = active instanceof HTMLInputElement ? active.labels : null;
    return active.getAttribute('aria-label') ?? labels?.[0]?.textContent?.trim() ?? null;
  });
/** The tag name of what has the keyboard focus, in capitals: 'TEXTAREA'. */
export const focusedTag = (page: Page) => page.evaluate(() => document.activeElement?.tagName);

/**
 * Whether the keyboard's focus is seen: 'whole' when the focused element, or the nearest element around it that
 * draws the ring for it (up to three levels), has an outline that no box clipping its overflow cuts; otherwise
 * what is wrong ('no ring', or which box cuts it on which sides), so that a failed check says why.
 */
export const focusRing = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return 'no focus';
    const hasOutline = (element: Element) => {
      const style = getComputedStyle(element);
      return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    };
    let ringed: Element | null = active;
    for (let level = 0; ringed && !hasOutline(ringed) && level < 3; level += 1) ringed = ringed.parentElement;
    if (!ringed || !hasOutline(ringed)) return 'no ring';
    const style = getComputedStyle(ringed);
    const reach = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
    const box = ringed.getBoundingClientRect();
    for (let around = ringed.parentElement; around; around = around.parentElement) {
      const aroundStyle = getComputedStyle(around);
      if (aroundStyle.display === 'contents' || aroundStyle.overflow === 'visible') continue;
      const edge = around.getBoundingClientRect();
      const left = edge.left + around.clientLeft;
      const top = edge.top + around.clientTop;
      const cut = [
        box.left - reach < left - 0.5 && 'left',
        box.right + reach > left + around.clientWidth + 0.5 && 'right',
        box.top - reach < top - 0.5 && 'top',
        box.bottom + reach > top + around.clientHeight + 0.5 && 'bottom',
      ].filter(Boolean);
      if (cut.length > 0)
        return `cut on the ${cut.join(', ')} by ${around.tagName.toLowerCase()}.${around.className}`;
    }
    return 'whole';
  });

/**
 * One browser for the test file and fresh pages for each test, closed after it.
 * Call at the top level of a test file; `newPage()` is valid inside tests.
 */
/** `options`: a page's own locale, time zone… (the browser's own by default). */
export function usePages(): { newPage: (options?: BrowserContextOptions) => Promise<Page> } {
  let browser: Browser | undefined;
  let pages: Page[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(pages.map((page) => page.close()));
    pages = [];
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    newPage: async (options?: BrowserContextOptions) => {
      if (!browser) throw new Error('usePages(): the browser is not started yet');
      const page = await browser.newPage(options);
      pages.push(page);
      return page;
    },
  };
}

/** Whether `element`'s colour (or its left edge's) is the danger red of the theme shown. */
export const isDangerRed = (element: Locator, property: 'color' | 'borderLeftColor') =>
  element.evaluate((node, property) => {
    const probe = node.appendChild(document.createElement('span'));
    probe.style.color = 'var(--danger)';
    const danger = getComputedStyle(probe).color;
    probe.remove();
    return getComputedStyle(node)[property] === danger;
  }, property);

/**
 * Shows the page at 1280 and 420 px, light and dark, with `card` in view: `check` runs at each, and with DEPUTY_SHOTS
 * set the page and the card are saved there as `<name>-<width>-<scheme>.png` and `<name>-card-<width>-<scheme>.png`.
 * It is left at 1280 px, light.
 */
export async function atEveryLook(
  page: Page,
  card: Locator,
  name: string,
  check: () => Promise<void> = async () => {},
): Promise<void> {
  const shots = process.env.DEPUTY_SHOTS;
  for (const width of [1280, 420])
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme });
      await card.scrollIntoViewIfNeeded();
      await check();
      if (!shots) continue;
      await page.screenshot({ path: `${shots}/${name}-${width}-${colorScheme}.png` });
      await card.screenshot({ path: `${shots}/${name}-card-${width}-${colorScheme}.png` });
    }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Presses `button` by the keyboard, and waits for `field`, which it opens in place, to have the keyboard. */
export async function openInPlace(page: Page, button: Locator, field: Locator): Promise<void> {
  await button.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => field.evaluate((input) => input === document.activeElement)).toBe(true);
}

/** Escape in `field` closes it, and only it (Settings stays open), with the keyboard back on `button`. */
export async function escapeInPlace(page: Page, field: Locator, button: Locator): Promise<void> {
  await page.keyboard.press('Escape');
  await field.waitFor({ state: 'detached' });
  expect(await page.getByTestId('extensions-panel').isVisible()).toBe(true);
  await expect.poll(() => button.evaluate((element) => element === document.activeElement)).toBe(true);
}
