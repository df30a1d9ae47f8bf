import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composer, openFromHeader, usePages } from './support/pages';
import { startHost, type RunningHost } from './support/host';

const { newPage } = usePages();

/** What the keyboard's focus is on, by test id (or tag), for the assertions below. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return active?.getAttribute('data-testid') ?? active?.tagName ?? null;
  });

/** Settings → Permissions → Rules, where the keyboard must never be dropped on the page. */
describe('the rules in Settings → Permissions', () => {
  let host: RunningHost;

  beforeAll(async () => {
    host = await startHost();
  });

  afterAll(async () => {
    await host?.stop();
  });

  async function openRules(width: number): Promise<Page> {
    const page = await newPage();
    await page.setViewportSize({ width, height: 860 });
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    await openFromHeader(page, 'open-settings');
    await page.getByTestId('settings-tab-permissions').click();
    await page.getByTestId('rules').waitFor();
    return page;
  }

  async function addRule(page: Page, pattern: string): Promise<void> {
    await page.getByTestId('rule-tool').selectOption({ label: 'Send an email' });
    await page.getByTestId('rule-pattern').fill(pattern);
    await page.getByTestId('rule-add').click();
  }

  it('gives the focus to the rule just added, and after Revoke to its neighbour, then to the form', async () => {
    const page = await openRules(1280);
    await addRule(page, '*@one.example');
    const first = page.getByTestId('rule').filter({ hasText: '*@one.example' });
    await expect.poll(() => first.evaluate((rule) => rule === document.activeElement)).toBe(true);
    await addRule(page, '*@two.example');
    const second = page.getByTestId('rule').filter({ hasText: '*@two.example' });
    await expect.poll(() => second.evaluate((rule) => rule === document.activeElement)).toBe(true);

    await first.getByTestId('rule-revoke').click();
    await expect.poll(() => page.getByTestId('rule').count()).toBe(1);
    await expect
      .poll(() => second.getByTestId('rule-revoke').evaluate((button) => button === document.activeElement))
      .toBe(true);
    await second.getByTestId('rule-revoke').click();
    await expect.poll(() => page.getByTestId('rule').count()).toBe(0);
    await expect.poll(() => focused(page)).toBe('rule-tool');
  });
});
