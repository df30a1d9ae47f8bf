import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
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
export const focusedTestId = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return active?.getAttribute('data-testid') ?? active?.tagName ?? null;
  });
/** The id of what has the keyboard focus. */
export const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id);
/** The text of what has the keyboard focus, e.g. a button's label. */
export const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent);
/** The tag name of what has the keyboard focus, in capitals: 'TEXTAREA'. */
export const focusedTag = (page: Page) => page.evaluate(() => document.activeElement?.tagName);

/**
 * One browser for the test file and fresh pages for each test, closed after it.
 * Call at the top level of a test file; `newPage()` is valid inside tests.
 */
export function usePages(): { newPage: () => Promise<Page> } {
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
    newPage: async () => {
      if (!browser) throw new Error('usePages(): the browser is not started yet');
      const page = await browser.newPage();
      pages.push(page);
      return page;
    },
  };
}
