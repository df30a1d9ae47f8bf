import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../harness/launch';
import { axeViolations } from './axe';
import { useDesktop } from './desktop-fixture';

const desktop = useDesktop();
const SHOTS = join(REPO_ROOT, 'test-results', 'desktop-settings');

async function openDesktopSettings(page: Page): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-tab-desktop').click();
  await page.getByTestId('desktop-settings').waitFor();
}

describe('Settings → Desktop', () => {
  it('records a shortcut from the keys pressed, explains a refused one in words, and keeps the old key', async () => {
    const app = await desktop.launch({ platform: 'linux', takenShortcuts: ['Alt+Shift+J'] });
    const page = await (await app.mainWindow()).page();
    await openDesktopSettings(page);
    expect(await page.getByTestId('current-shortcut').innerText()).toBe('Alt+Space');

    await page.getByTestId('record-shortcut').click();
    await page.keyboard.press('Control+Shift+K');
    await page.getByTestId('desktop-saved').waitFor();
    expect(await page.getByTestId('desktop-saved').innerText()).toBe(
      'Ctrl+Shift+K now opens the quick prompt.',
    );
    expect(app.globalShortcut.isRegistered('CommandOrControl+Shift+K')).toBe(true);
    expect(app.globalShortcut.isRegistered('Alt+Space')).toBe(false);
    expect(app.trays.at(-1)?.menu?.find('Quick prompt').accelerator).toBe('CommandOrControl+Shift+K');

    // Another app holds this one: the OS refuses it, the person is told, and the old key keeps working.
    await page.getByTestId('record-shortcut').click();
    await page.keyboard.press('Alt+Shift+J');
    await page.getByTestId('desktop-error').waitFor();
    expect(await page.getByTestId('desktop-error').innerText()).toContain(
      'Alt+Shift+J is already used by another app or by the system',
    );
    expect(await page.getByTestId('current-shortcut').innerText()).toBe('Ctrl+Shift+K');
    expect(app.globalShortcut.isRegistered('CommandOrControl+Shift+K')).toBe(true);

    // A key every app uses is refused before the OS is asked.
    await page.getByTestId('record-shortcut').click();
    await page.keyboard.press('Control+C');
    await expect
      .poll(() => page.getByTestId('desktop-error').innerText())
      .toContain('copies, pastes, saves or quits');

    // Escape stops listening without changing anything.
    await page.getByTestId('record-shortcut').click();
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('record-shortcut').innerText()).toBe('Change shortcut');
    expect(app.globalShortcut.isRegistered('CommandOrControl+Shift+K')).toBe(true);
  });

  it('turns the tray off and on, and each kind of notification, kept across a restart', async () => {
    const first = await desktop.launch({ platform: 'win32' });
    const page = await (await first.mainWindow()).page();
    await openDesktopSettings(page);
    await page.getByLabel('Show Deputy in the tray').uncheck();
    await expect.poll(() => first.trays[0]?.isDestroyed).toBe(true);
    await page.getByLabel('Open Deputy when I log in').check();
    await expect.poll(() => first.app.loginItem).toEqual({ openAtLogin: true });
    await page.getByTestId('notify-runFinished').uncheck();
    await page.getByTestId('desktop-saved').waitFor();
    await first.quit();

    const second = await desktop.launch({ platform: 'win32', dataDir: first.app.getPath('userData') });
    const again = await (await second.mainWindow()).page();
    expect(second.trays).toEqual([]);
    await openDesktopSettings(again);
    expect(await again.getByLabel('Show Deputy in the tray').isChecked()).toBe(false);
    expect(await again.getByTestId('notify-runFinished').isChecked()).toBe(false);
    expect(await again.getByTestId('notify-approvalNeeded').isChecked()).toBe(true);
    await again.getByLabel('Show Deputy in the tray').check();
    await expect.poll(() => second.trays.length).toBe(1);
  });

  it('is accessible in light and dark (axe), at 1280 and 420 px', async () => {
    mkdirSync(SHOTS, { recursive: true });
    for (const colorScheme of ['light', 'dark'] as const) {
      const app = await desktop.launch({ colorScheme, platform: 'darwin' });
      const main = await app.mainWindow();
      const page = await main.page();
      await openDesktopSettings(page);
      expect(await page.getByTestId('current-shortcut').innerText()).toBe('Option+Space');
      expect(await axeViolations(page)).toEqual([]);
      for (const width of [1280, 420]) {
        await page.setViewportSize({ width, height: 800 });
        await page.screenshot({ path: join(SHOTS, `desktop-${colorScheme}-${width}.png`) });
      }
      // The pause banner too, while it shows.
      app.trays[0]?.menu?.click('Pause all side effects');
      await page.getByTestId('settings-close').click();
      await page.getByTestId('pause-banner').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      for (const width of [1280, 420]) {
        await page.setViewportSize({ width, height: 800 });
        await page.screenshot({ path: join(SHOTS, `paused-${colorScheme}-${width}.png`) });
      }
      // And in the quick prompt, at its own size.
      app.globalShortcut.press('Alt+Space');
      const quick = await (
        await app.waitForWindow((url) => url.includes('#/quick'), 'the quick prompt')
      ).page();
      await quick.getByTestId('pause-banner').waitFor();
      expect(await axeViolations(quick)).toEqual([]);
      await quick.screenshot({ path: join(SHOTS, `paused-quick-${colorScheme}.png`) });
      await app.quit();
    }
  });

  it('Settings → Agents shows the agents folder in the file manager, and only that folder', async () => {
    const app = await desktop.launch({ platform: 'linux' });
    const page = await (await app.mainWindow()).page();
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-tab-agents').click();
    await page.getByRole('button', { name: 'Open the agents folder' }).click();
    await expect.poll(() => app.openedPaths).toHaveLength(1);
    expect(app.openedPaths[0]).toMatch(/deputy-desktop-[^/]+\/agents$/);
    expect(app.openedExternally).toEqual([]);
  });

  it('at 1280 px, Settings shows all nine tabs whole, Desktop too, with no arrow to scroll them', async () => {
    const app = await desktop.launch({ platform: 'linux' });
    const page = await (await app.mainWindow()).page();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('open-settings').click();
    const row = page.getByTestId('settings-tabs');
    await row.waitFor();
    const seen = await row.evaluate((list) => {
      const view = list.getBoundingClientRect();
      return [...list.querySelectorAll('[role="tab"]')].map((tab) => {
        const box = tab.getBoundingClientRect();
        return `${tab.textContent}${box.left >= view.left && box.right <= view.right ? '' : ' (cut off)'}`;
      });
    });
    expect(seen).toEqual([
      'General',
      'Permissions',
      'Connections',
      'Extensions',
      'Agents',
      'Memory',
      'Usage',
      'Data',
      'Desktop',
    ]);
    expect(await page.getByTestId('settings-tabs-more').count()).toBe(0);
  });
});
