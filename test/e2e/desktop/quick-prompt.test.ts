import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { DeputyShell } from '../../../shared/shell';
import { callReply, textReply } from '../../fakes/gemini/script';
import type { FakeBrowserWindow } from '../../harness/electron/browser-window';
import type { DeputyApp } from '../../harness/launch';
import { focusedId, focusedTestId } from '../support/pages';
import { axeViolations } from './axe';
import {
  assistantText,
  composerOf,
  noKeyFailure,
  retryOnceKeySaved,
  type,
  useDesktop,
} from './desktop-fixture';

const desktop = useDesktop();
const isQuick = (url: string) => url.endsWith('#/quick');
const KEY = 'AIza-quick-prompt-key-0123456789abcdef';
const SHOTS = process.env.DEPUTY_SHOTS;

/**
 * Waits until the page shows the run as over: the answer has stopped streaming. The run's last status and
 * its result are sent in one synchronous step (engine/run-endings.ts), and the run notifier decides on the
 * result within it; the page hears of the end only later (IPC is asynchronous). So from here on, any
 * notification for this run would already be recorded.
 */
async function runEnded(page: Page, answer: string): Promise<void> {
  await page
    .locator('[data-testid="message"][data-role="assistant"]:not([data-streaming])', { hasText: answer })
    .waitFor();
}

/** Starts Deputy with no Gemini key and opens the quick prompt from the shortcut, the main window ready behind it. */
async function quickPromptWithNoKey(colorScheme?: 'light' | 'dark') {
  const app = await desktop.launch({ ...(colorScheme && { colorScheme }), env: { GEMINI_API_KEY: '' } });
  const main = await app.mainWindow();
  const mainPage = await main.page();
  await composerOf(mainPage).waitFor();
  app.globalShortcut.press('Alt+Space');
  const quick = await app.waitForWindow(isQuick, 'the quick prompt');
  return { app, main, mainPage, quick, page: await quick.page() };
}

/**
 * In the main window's Settings, opened at the key field by the quick prompt's button, types a key and saves it;
 * then brings the quick prompt back with the shortcut.
 */
async function saveKeyAndComeBack(app: DeputyApp, mainPage: Page, quick: FakeBrowserWindow): Promise<void> {
  await expect.poll(() => focusedTestId(mainPage)).toBe('gemini-api-key');
  await mainPage.keyboard.type(KEY);
  await mainPage.keyboard.press('Enter');
  await mainPage.locator('[data-testid="connection-gemini"][data-state="connected"]').waitFor();
  app.globalShortcut.press('Alt+Space');
  await expect.poll(() => quick.isVisible()).toBe(true);
}

describe('the quick prompt, the shortcut and the tray', () => {
  it('opens from the shortcut on the pointer’s display, answers on Enter, hides on Escape, and continues in Deputy', async () => {
    const app = await desktop.launch();
    await app.mainWindow();
    expect(app.globalShortcut.isRegistered('Alt+Space')).toBe(true);

    app.globalShortcut.press('Alt+Space');
    const quick = await app.waitForWindow(isQuick, 'the quick prompt');
    expect(quick.options).toMatchObject({ frame: false, alwaysOnTop: true, skipTaskbar: true });
    // The pointer is on the second display (x ≥ 1920): centred across it, a third of the way down.
    expect(quick.getBounds()).toEqual({
      x: 1920 + (1440 - 560) / 2,
      y: Math.round((900 - 440) / 3),
      width: 560,
      height: 440,
    });
    expect(quick.isVisible() && quick.isFocused()).toBe(true);

    const page = await quick.page();
    // Keyboard first: the composer has focus, so the person types at once.
    await expect.poll(() => focusedId(page)).toBe('composer-input');
    desktop.gemini.script(textReply('Tomorrow is **Tuesday**.', { chunks: 3, gapMs: 30 }));
    await page.keyboard.type('What day is tomorrow?');
    await page.keyboard.press('Enter');
    await expect.poll(() => assistantText(page)).toContain('Tomorrow is Tuesday.');

    await page.keyboard.press('Escape');
    await expect.poll(() => quick.isVisible()).toBe(false);
    // Hidden, not closed: the shortcut brings back the same conversation.
    app.globalShortcut.press('Alt+Space');
    await expect.poll(() => quick.isVisible()).toBe(true);
    expect(app.runtime.created.filter((window) => isQuick(window.webContents.getURL()))).toHaveLength(1);
    // The same key hides it again while it is in front.
    app.globalShortcut.press('Alt+Space');
    expect(quick.isVisible()).toBe(false);
    app.globalShortcut.press('Alt+Space');
    expect(quick.isVisible() && quick.isFocused()).toBe(true);

    await page.getByTestId('quick-open-in-deputy').click();
    await expect.poll(() => quick.isVisible()).toBe(false);
    const main = await app.mainWindow();
    const mainPage = await main.page();
    await mainPage
      .locator('[data-testid="message"][data-role="user"]', { hasText: 'What day is tomorrow?' })
      .waitFor();
    // The shell asked for it at #/thread/<id>; taken once, the address is the workspace's again.
    await expect.poll(() => main.webContents.getURL()).toBe('app://deputy/index.html#/');
  });

  it('says in its header that Enter sends and Esc hides it', async () => {
    const app = await desktop.launch();
    await app.mainWindow();
    app.globalShortcut.press('Alt+Space');
    const page = await (await app.waitForWindow(isQuick, 'the quick prompt')).page();
    await page.getByTestId('quick-prompt').waitFor();
    expect(await page.locator('.quick__hint').innerText()).toBe('Enter send · Esc hide');
  });

  it('opens its conversation in Deputy again after the person moved to another one there', async () => {
    const app = await desktop.launch();
    const main = await app.mainWindow();
    const mainPage = await main.page();
    const shownQuestions = () =>
      mainPage.locator('[data-testid="message"][data-role="user"] .message__plain').allInnerTexts();

    app.globalShortcut.press('Alt+Space');
    const quick = await app.waitForWindow(isQuick, 'the quick prompt');
    const page = await quick.page();
    desktop.gemini.script(textReply('It is sunny.'));
    await composerOf(page).fill('What is the weather?');
    await composerOf(page).press('Enter');
    await runEnded(page, 'It is sunny.');
    await page.getByTestId('quick-open-in-deputy').click();
    await expect.poll(shownQuestions).toEqual(['What is the weather?']);

    // In Deputy the person goes on to another conversation: the shell's address for the first is not changed by it.
    await mainPage.getByTestId('new-conversation').click();
    desktop.gemini.script(textReply('Filed.'));
    await type(mainPage, 'File the report');
    await runEnded(mainPage, 'Filed.');
    expect(await shownQuestions()).toEqual(['File the report']);

    // Asked again for the first one, the main window goes back to it.
    app.globalShortcut.press('Alt+Space');
    await expect.poll(() => quick.isVisible()).toBe(true);
    await page.getByTestId('quick-open-in-deputy').click();
    await expect.poll(shownQuestions).toEqual(['What is the weather?']);
    expect(main.isVisible() && main.isFocused()).toBe(true);
  });

  it('with no Gemini key, says so before the first message and offers Settings → Connections; a key saved there takes the note away (light and dark)', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { app, mainPage, quick, page } = await quickPromptWithNoKey(colorScheme);
      const hint = page.getByTestId('quick-key-hint');
      await hint.waitFor();
      expect(await hint.innerText()).toContain(
        'First, give Deputy a Gemini API key: paste it in Settings → Connections',
      );
      expect(await axeViolations(page)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/quick-no-key-${colorScheme}.png` });
      // The keyboard is in the message box; the way to the key is the next stop back from it.
      await expect.poll(() => focusedId(page)).toBe('composer-input');
      await page.keyboard.press('Shift+Tab');
      expect(await focusedTestId(page)).toBe('quick-open-connections');
      await page.keyboard.press('Enter');
      await expect.poll(() => quick.isVisible()).toBe(false);
      await saveKeyAndComeBack(app, mainPage, quick);
      await hint.waitFor({ state: 'detached' });
      expect(await page.getByTestId('quick-prompt').innerText()).toContain(
        'Ask Deputy anything, or tell it what to do.',
      );
      await app.quit();
    }
  });

  it('with no Gemini key, offers Settings → Connections: the quick prompt hides and the main window opens there', async () => {
    const { app, main, mainPage, quick, page } = await quickPromptWithNoKey();
    await expect.poll(() => focusedId(page)).toBe('composer-input');
    await page.keyboard.type('What is on today?');
    await page.keyboard.press('Enter');

    const { openConnections } = await noKeyFailure(page);
    expect(await axeViolations(page)).toEqual([]);
    // The keyboard stays in the message box; the way to the key is the next stop back from it, after the message.
    expect(await focusedId(page)).toBe('composer-input');
    await page.keyboard.press('Shift+Tab');
    expect(await focusedTestId(page)).toBe('run-error-open-connections');
    await page.keyboard.press('Enter');

    await expect.poll(() => quick.isVisible()).toBe(false);
    expect(main.isVisible() && main.isFocused()).toBe(true);
    await mainPage.getByRole('dialog', { name: 'Settings' }).waitFor();
    await expect.poll(() => focusedTestId(mainPage)).toBe('gemini-api-key');
    // Taken once: the address is the workspace's again, so the next ask is a change the page hears.
    await expect.poll(() => main.webContents.getURL()).toBe('app://deputy/index.html#/');

    // Asked again after Settings was closed, it opens again.
    await mainPage.keyboard.press('Escape');
    await mainPage.getByRole('dialog', { name: 'Settings' }).waitFor({ state: 'hidden' });
    app.globalShortcut.press('Alt+Space');
    await expect.poll(() => quick.isVisible()).toBe(true);
    await openConnections.click();
    await expect.poll(() => quick.isVisible()).toBe(false);
    await expect.poll(() => focusedTestId(mainPage)).toBe('gemini-api-key');

    // Only the quick prompt may ask it of the shell: the main window's page is refused, and nothing moves.
    await mainPage.keyboard.press('Escape');
    await mainPage.getByRole('dialog', { name: 'Settings' }).waitFor({ state: 'hidden' });
    const refusal = await mainPage.evaluate(() =>
      (window as unknown as { deputyShell: DeputyShell }).deputyShell.openConnections().then(
        () => 'opened',
        (error: { code?: string }) => error.code,
      ),
    );
    expect(refusal).toBe('forbidden_sender');
    expect(await mainPage.getByRole('dialog', { name: 'Settings' }).isVisible()).toBe(false);
  });

  it('with no Gemini key, offers Retry instead once a key is saved in the main window, and Retry asks again (light and dark)', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { app, mainPage, quick, page } = await quickPromptWithNoKey(colorScheme);
      await composerOf(page).fill('What is on today?');
      await composerOf(page).press('Enter');
      const { failure, openConnections } = await noKeyFailure(page);
      expect(await failure.getByTestId('run-error-retry').count()).toBe(0);

      // The key is saved in the main window's Settings, which the quick prompt's button opened.
      await openConnections.click();
      await saveKeyAndComeBack(app, mainPage, quick);
      // Back in the quick prompt, the same failure now offers to ask again, and no longer points to Settings.
      const retry = await retryOnceKeySaved(failure);
      expect(await axeViolations(page)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/quick-retry-after-key-${colorScheme}.png` });

      desktop.gemini.script(textReply('Two meetings and a dentist appointment.'));
      await retry.click();
      await expect.poll(() => assistantText(page)).toContain('Two meetings and a dentist appointment.');
      expect(desktop.gemini.requests.at(-1)?.apiKey).toBe(KEY);
      await app.quit();
    }
  });

  it('fits the plan and the approval card, and has no accessibility violations, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const app = await desktop.launch({ colorScheme });
      await app.mainWindow();
      app.trays[0]?.menu?.click('Quick prompt');
      const page = await (await app.waitForWindow(isQuick, 'the quick prompt')).page();
      await composerOf(page).waitFor();
      expect(await axeViolations(page)).toEqual([]);

      desktop.gemini.script(
        callReply('add_task', {
          description: 'Call the bank',
          confidence: 0.95,
          intent: 'add task',
          reasoning: 'asked',
          assumptions: [],
        }),
      );
      await composerOf(page).fill('Remind me to call the bank');
      await composerOf(page).press('Enter');
      const approve = page.getByTestId('approval-approve');
      await approve.waitFor();
      expect(await approve.isVisible()).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      // Nothing spills sideways out of the small window.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(560);
      await app.quit();
    }
  });

  it('tells the person in words when the OS refuses the shortcut, and the tray offers another key', async () => {
    const app = await desktop.launch({ platform: 'linux', takenShortcuts: ['Alt+Space'] });
    await app.mainWindow();
    const problem = await app.waitForNotification(
      (n) => n.options.title === 'Deputy’s shortcut is not set',
      'the shortcut notice',
    );
    expect(problem.options.body).toContain('Alt+Space is already used by another app or by the system');
    expect(app.globalShortcut.isRegistered('Alt+Space')).toBe(false);

    const menu = app.trays[0]?.menu;
    // On Linux, where Electron cannot set a login item, the tray does not offer one.
    expect(menu?.items.filter((item) => item.label).map((item) => item.label)).toEqual([
      'Quick prompt',
      'Open Deputy',
      'Pending approvals (0)',
      'Pause all side effects',
      'Quick prompt shortcut',
      'Notifications',
      'Quit Deputy',
    ]);
    menu?.click('CommandOrControl+Shift+Space');
    expect(app.globalShortcut.isRegistered('CommandOrControl+Shift+Space')).toBe(true);
    app.globalShortcut.press('CommandOrControl+Shift+Space');
    await app.waitForWindow(isQuick, 'the quick prompt');
    expect(app.trays.at(-1)?.menu?.find('CommandOrControl+Shift+Space').checked).toBe(true);
  });

  it('notifies when a run finishes while no Deputy window has focus, and the click opens that conversation', async () => {
    const app = await desktop.launch();
    const main = await app.mainWindow();
    const page = await main.page();
    desktop.gemini.script(textReply('Done: the report is filed.', { chunks: 2, gapMs: 300 }));
    await composerOf(page).fill('File the report');
    await composerOf(page).press('Enter');
    // The person switches to another app while Deputy works.
    main.blur();
    const done = await app.waitForNotification(
      (n) => n.options.title === 'Deputy finished',
      'the run notification',
    );
    expect(done.options.body).toContain('the report is filed');

    const threadId = await page.getByTestId('thread-item').first().getAttribute('data-thread-id');
    expect(threadId).toMatch(/^[\w-]+$/);
    const question = page.locator('[data-testid="message"][data-role="user"]', {
      hasText: 'File the report',
    });
    // Meanwhile the person had started another conversation.
    await page.getByTestId('new-conversation').click();
    await question.waitFor({ state: 'detached' });
    done.click();
    await question.waitFor();
    expect(main.isFocused()).toBe(true);

    // The same conversation by link, from another app, after starting a new one again: the same ask is heard twice.
    await page.getByTestId('new-conversation').click();
    await question.waitFor({ state: 'detached' });
    app.openLink(`deputy://thread/${threadId}`);
    await question.waitFor();
    expect(main.webContents.getURL()).toBe('app://deputy/index.html#/');
  });

  it('keeps the tray’s settings across a restart, and applies open at login (macOS)', async () => {
    const first = await desktop.launch({ platform: 'darwin' });
    await first.mainWindow();
    expect(first.trays[0]?.image.isTemplate).toBe(true);
    expect(first.trays[0]?.image.isEmpty()).toBe(false);
    expect(first.app.loginItem).toEqual({ openAtLogin: false });
    first.trays[0]?.menu?.click('Open at login');
    expect(first.app.loginItem).toEqual({ openAtLogin: true });
    first.trays.at(-1)?.menu?.click('When a run finishes or fails');
    await first.quit();

    const second = await desktop.launch({ platform: 'darwin', dataDir: first.app.getPath('userData') });
    await second.mainWindow();
    expect(second.app.loginItem).toEqual({ openAtLogin: true });
    expect(second.trays[0]?.menu?.find('Open at login').checked).toBe(true);
    expect(second.trays[0]?.menu?.find('When a run finishes or fails').checked).toBe(false);

    // Switched off, a finished run stays quiet even with no Deputy window in front.
    const main = await second.mainWindow();
    const page = await main.page();
    desktop.gemini.script(textReply('Quietly done.', { chunks: 2, gapMs: 200 }));
    await composerOf(page).fill('Do it quietly');
    await composerOf(page).press('Enter');
    main.blur();
    await runEnded(page, 'Quietly done.');
    expect(second.notifications.map((n) => n.options.title)).not.toContain('Deputy finished');
  });

  it('does not notify about a run the person watched finish', async () => {
    const app = await desktop.launch();
    const page = await (await app.mainWindow()).page();
    desktop.gemini.script(textReply('All set.'));
    await composerOf(page).fill('Do it');
    await composerOf(page).press('Enter');
    await runEnded(page, 'All set.');
    expect(app.notifications.map((n) => n.options.title)).not.toContain('Deputy finished');
  });
});
