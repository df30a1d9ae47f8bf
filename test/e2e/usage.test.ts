import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../shared/contract';
import { startFakeGemini } from '../fakes/gemini/server';
import { textReply } from '../fakes/gemini/script';
import type { FakeGemini } from '../fakes/gemini/types';
import { edgeContrast } from './support/contrast';
import { usePages } from './support/pages';
import { startHost, type RunningHost } from './support/host';

const { newPage } = usePages();

describe('Settings → General’s model picker and Settings → Usage, in the browser', () => {
  let gemini: FakeGemini;
  let host: RunningHost;
  let bareHost: RunningHost;
  const apiOf =
    (on: RunningHost) =>
    (path: string, init: RequestInit = {}) =>
      fetch(`${on.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${on.token}`, 'content-type': 'application/json' },
      });
  const api = (path: string, init?: RequestInit) => apiOf(host)(path, init);
  const settingsOf = async (on: RunningHost) => (await (await apiOf(on)('/api/settings')).json()) as Settings;

  beforeAll(async () => {
    gemini = await startFakeGemini();
    host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key' });
    bareHost = await startHost();
  });

  afterAll(async () => {
    await host?.stop();
    await bareHost?.stop();
    await gemini?.close();
  });

  const openSettings = async (on: RunningHost, tab: string) => {
    const page = await newPage();
    await page.goto(`${on.url}/#token=${on.token}`);
    await page.getByTestId('open-settings').click();
    await page.getByTestId(`settings-tab-${tab}`).click();
    return page;
  };

  it('picks the model from the ones the key can use, by keyboard, and saves it', async () => {
    const page = await openSettings(host, 'general');
    const picker = page.getByTestId('model-picker');
    await expect.poll(() => picker.locator('option').count()).toBe(4);
    expect(await picker.locator('option').allInnerTexts()).toEqual([
      'Gemini 2.5 Flash (gemini-2.5-flash)',
      'Gemini 2.5 Pro (gemini-2.5-pro)',
      'Gemini 2.5 Flash-Lite (gemini-2.5-flash-lite)',
      'Gemini 2.0 Flash (gemini-2.0-flash)',
    ]);
    await picker.focus();
    await picker.selectOption('gemini-2.5-pro');
    await page.getByTestId('settings-save').click();
    await page.getByTestId('settings-saved').waitFor();
    expect((await settingsOf(host)).model).toBe('gemini-2.5-pro');
    await api('/api/settings', { method: 'PUT', body: JSON.stringify({ model: 'gemini-2.5-flash' }) });
  });

  it('with no key, says where to add one, keeps the saved model, and still saves the rest', async () => {
    const page = await openSettings(bareHost, 'general');
    await page.getByTestId('model-picker-note').getByText('Add one in Settings → Connections').waitFor();
    const options = page.getByTestId('model-picker').locator('option');
    expect(await options.allInnerTexts()).toEqual([`${(await settingsOf(bareHost)).model} (saved)`]);
    await page.getByLabel('Your name').fill('Ana');
    await page.getByTestId('settings-save').click();
    await page.getByTestId('settings-saved').waitFor();
    expect((await settingsOf(bareHost)).userName).toBe('Ana');
  });

  it('shows the day’s tokens and cost, and a changed price changes the cost', async () => {
    gemini.script(textReply('Paris is the capital of France.'));
    const response = await api('/api/agent/run', {
      method: 'POST',
      body: JSON.stringify({ prompt: 'What is the capital of France?' }),
    });
    expect(response.status).toBe(200);
    const page = await openSettings(host, 'usage');
    const panel = page.getByTestId('usage-panel');
    const total = panel.getByTestId('usage-total-cost');
    await total.waitFor();
    const before = Number(await total.getAttribute('data-cost'));
    expect(before).toBeGreaterThan(0);
    expect(await panel.getByTestId('usage-days').locator('tbody tr').count()).toBe(1);

    const input = panel.getByLabel('Input price of gemini-2.5-flash', { exact: true });
    const output = panel.getByLabel('Output price of gemini-2.5-flash', { exact: true });
    await input.fill(String(0.3 * 100));
    await output.fill(String(2.5 * 100));
    await panel.getByTestId('price-table-save').click();
    await panel.getByText('Prices saved.').waitFor();
    await expect
      .poll(async () => Number((await total.innerText()).replace('$', '')))
      .toBeCloseTo(before * 100, 2);

    // A negative price is refused in words before anything is sent, and nothing changes.
    await input.fill('-1');
    await panel.getByTestId('price-table-save').click();
    await panel
      .getByTestId('price-table-error')
      .getByText('A price cannot be negative (gemini-2.5-flash).')
      .waitFor();
    expect((await settingsOf(host)).modelPrices['gemini-2.5-flash']).toEqual({ input: 30, output: 250 });

    await panel.getByRole('button', { name: 'Reset to Google’s list prices' }).click();
    await expect
      .poll(async () => (await settingsOf(host)).modelPrices['gemini-2.5-flash'])
      .toEqual({
        input: 0.3,
        output: 2.5,
      });

    // Ctrl+S in a price saves the table, as the footer's Save is pressed on General and Permissions.
    await input.fill('0.5');
    await input.press('Control+S');
    await expect
      .poll(async () => (await settingsOf(host)).modelPrices['gemini-2.5-flash'])
      .toEqual({ input: 0.5, output: 2.5 });
    await expect.poll(() => input.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await panel.getByTestId('price-table-save').getAttribute('aria-keyshortcuts')).toBe('Control+S');
  });

  it('lines each price table heading up with the text of the fields under it: the model on the left, the prices on the right in tabular digits (1280 and 420 px)', async () => {
    const page = await openSettings(bareHost, 'usage');
    const table = page.getByTestId('price-table');
    await table.locator('tbody tr').first().waitFor();
    for (const width of [1280, 420]) {
      await page.setViewportSize({ width, height: 800 });
      const columns = await table.evaluate((form) => {
        const headings = [...form.querySelectorAll('thead th')].slice(0, 3);
        const fields = [...(form.querySelector('tbody tr')?.querySelectorAll('input') ?? [])];
        return headings.map((heading, index) => {
          const words = document.createRange();
          words.selectNodeContents(heading);
          const said = words.getBoundingClientRect();
          const field = fields[index];
          if (!field) return 'no field';
          const style = getComputedStyle(field);
          const box = field.getBoundingClientRect();
          const start = box.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft);
          const end = box.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight);
          const isRight = style.textAlign === 'right' || style.textAlign === 'end';
          return {
            heading: heading.textContent,
            align: isRight ? 'right' : 'left',
            off: Math.round(isRight ? said.right - end : said.left - start),
            digits: style.fontVariantNumeric,
          };
        });
      });
      expect(columns, `${width} px`).toEqual([
        { heading: 'Model', align: 'left', off: 0, digits: expect.any(String) },
        { heading: 'Input', align: 'right', off: 0, digits: 'tabular-nums' },
        { heading: 'Output', align: 'right', off: 0, digits: 'tabular-nums' },
      ]);
    }
  });

  it('removes and adds a price row by keyboard without dropping the focus on the page', async () => {
    const page = await openSettings(host, 'usage');
    const panel = page.getByTestId('usage-panel');
    const remove = (model: string) => panel.getByRole('button', { name: `Remove ${model}`, exact: true });
    const label = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    // Removed, the keyboard is on the next row's ✕; the last row's goes to the one before it.
    await remove('gemini-2.5-pro').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => remove('gemini-2.5-pro').count()).toBe(0);
    expect(await label()).toBe('Remove gemini-2.5-flash');
    const last = await panel
      .getByRole('button', { name: /^Remove / })
      .last()
      .getAttribute('aria-label');
    const beforeLast = await panel
      .getByRole('button', { name: /^Remove / })
      .nth(-2)
      .getAttribute('aria-label');
    await panel.getByRole('button', { name: last ?? '', exact: true }).focus();
    await page.keyboard.press('Enter');
    expect(await label()).toBe(beforeLast);
    // Added, the keyboard is in the new row's model id.
    await panel.getByRole('button', { name: 'Add a model' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => label()).toBe('Model id');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('');
  });

  it('in dark mode, the quiet buttons (a price row’s ✕, Refresh the list) keep an edge that stands out from what is around them (3:1), quieter than Save prices (1280 and 420 px)', async () => {
    const page = await openSettings(host, 'usage');
    await page.emulateMedia({ colorScheme: 'dark' });
    const panel = page.getByTestId('usage-panel');
    const remove = panel.getByRole('button', { name: /^Remove / }).first();
    await remove.waitFor();
    const fill = (button: Locator) => button.evaluate((element) => getComputedStyle(element).backgroundColor);
    for (const width of [1280, 420]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await remove.evaluate((element) => getComputedStyle(element).borderTopStyle)).toBe('dashed');
      expect(await edgeContrast(remove), `${width} px`).toBeGreaterThanOrEqual(3);
      expect(await fill(remove)).not.toBe(await fill(panel.getByRole('button', { name: 'Save prices' })));
    }
    await page.getByTestId('settings-tab-general').click();
    const refresh = page.getByRole('button', { name: 'Refresh the list' });
    await refresh.waitFor();
    expect(await edgeContrast(refresh)).toBeGreaterThanOrEqual(3);
  });

  it('a stored run shows its tokens and cost under its answer after a reload', async () => {
    gemini.script(textReply('Blue, on a clear day.'));
    const response = await api('/api/agent/run', {
      method: 'POST',
      body: JSON.stringify({ prompt: 'What colour is the sky?' }),
    });
    const { threadId } = (await response.json()) as { threadId: string };
    const page = await newPage();
    await page.goto(`${host.url}/#token=${host.token}`);
    await page
      .locator(`[data-testid="thread-row"][data-thread-id="${threadId}"]`)
      .getByRole('button')
      .first()
      .click();
    const footer = page.getByTestId('run-usage');
    await footer.waitFor();
    expect(await footer.innerText()).toMatch(
      /^[\d,]+ tokens in, [\d,]+ out · (about |under )\$0\.\d{4} \(gemini-2\.5-flash\)$/,
    );
  });
});
