import { describe, expect, it } from 'vitest';
import { textReply } from '../../fakes/gemini/script';
import { focusedTestId } from '../support/pages';
import { axeViolations } from './axe';
import { assistantText, noKeyFailure, retryOnceKeySaved, type, useDesktop } from './desktop-fixture';

const desktop = useDesktop();
const KEY = 'AIza-first-use-key-0123456789abcdef';

describe('the first hour, from a start with no Gemini key', () => {
  it('the welcome says in two short steps where a key comes from and where it goes, and opens AI Studio in the browser', async () => {
    const app = await desktop.launch({ colorScheme: 'light', env: { GEMINI_API_KEY: '' } });
    const page = await (await app.mainWindow()).page();
    const hint = page.getByTestId('gemini-key-hint');
    await hint.waitFor();
    const steps = await hint.getByRole('listitem').allInnerTexts();
    expect(steps.slice(0, 2)).toEqual([
      'Get a key at aistudio.google.com.',
      'Paste it in Settings → Connections (or set GEMINI_API_KEY before starting Deputy).',
    ]);
    // The sentence a failure says is not said before anything failed.
    expect(await hint.innerText()).not.toContain('Deputy needs a Gemini API key.');
    expect(await axeViolations(page)).toEqual([]);
    // The link leaves through the shell's one checked openExternal, for the person's own browser.
    await hint.getByRole('link', { name: 'aistudio.google.com' }).click();
    await expect.poll(() => app.openedExternally).toEqual(['https://aistudio.google.com/apikey']);
    await app.quit();
  });

  it('a first message sent before the key is saved says where to add it, opens it, and is asked again once it is there', async () => {
    for (const [colorScheme, width] of [
      ['light', 1280],
      ['dark', 420],
    ] as const) {
      const app = await desktop.launch({ colorScheme, env: { GEMINI_API_KEY: '' } });
      const main = await app.mainWindow();
      main.setBounds({ width, height: 800 });
      const page = await main.page();
      await type(page, 'Hello, what can you do?');
      // The welcome that pointed to Settings is gone with the first message: the failure itself offers the way.
      const { failure, openConnections } = await noKeyFailure(page);
      // Retrying with no key could only fail again: not offered yet.
      expect(await failure.getByTestId('run-error-retry').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      await openConnections.click();
      // Settings opens on the Gemini card, with the keyboard in its key field.
      await expect.poll(() => focusedTestId(page)).toBe('gemini-api-key');
      await page.keyboard.type(KEY);
      await page.keyboard.press('Enter');
      await page.locator('[data-testid="connection-gemini"][data-state="connected"]').waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Settings' }).waitFor({ state: 'hidden' });

      // With the key saved, the same message can be asked again, and nothing points to Settings any more.
      const retry = await retryOnceKeySaved(failure);
      expect(await axeViolations(page)).toEqual([]);
      desktop.gemini.script(textReply('I can read and send mail, and keep your tasks.'));
      await retry.click();
      await expect
        .poll(() => assistantText(page))
        .toContain('I can read and send mail, and keep your tasks.');
      expect(desktop.gemini.requests.at(-1)?.apiKey).toBe(KEY);
      await app.quit();
    }
  });
});
