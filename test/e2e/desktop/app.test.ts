import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textReply } from '../../fakes/gemini/script';
import { axeViolations } from './axe';
import {
  assertSecure,
  assistantText,
  composerOf,
  SECURE_PREFERENCES,
  type,
  useDesktop,
} from './desktop-fixture';

const desktop = useDesktop();

describe('the built app, run with a stand-in electron and Chromium windows', () => {
  it('starts on the chat, streams an answer, and after quit and restart the conversation and window are back', async () => {
    const first = await desktop.launch();
    const main = await first.mainWindow();
    const page = await main.page();
    // Served by the app's own protocol handler, not from file://.
    expect(main.webContents.getURL()).toBe('app://deputy/index.html');
    expect(first.protocol.privileged).toEqual([
      expect.objectContaining({
        scheme: 'app',
        privileges: expect.objectContaining({ standard: true, secure: true }),
      }),
    ]);
    await composerOf(page).waitFor();
    expect(
      await page.evaluate(() =>
        Object.keys(window)
          .filter((key) => key.startsWith('deputy'))
          .sort(),
      ),
    ).toEqual(['deputy', 'deputyShell']);
    // The page has no Node and no Electron: only what the preload exposed.
    expect(await page.evaluate(() => typeof (window as { require?: unknown }).require)).toBe('undefined');

    desktop.gemini.script(textReply('The answer is **42**.', { chunks: 4, gapMs: 40 }));
    await type(page, 'What is the answer?');
    await page.locator('[data-testid="message"][data-role="assistant"] strong', { hasText: '42' }).waitFor();
    await expect.poll(() => assistantText(page)).toContain('The answer is 42.');
    // Everything the page loaded came through app://; it asked the network for nothing.
    expect(first.blockedRequests).toEqual([]);

    main.setBounds({ x: 40, y: 60, width: 1000, height: 700 });
    expect(await first.quit()).toBe(0);
    // The window's place was saved as it closed, in the shell's preferences beside the data.
    const saved = JSON.parse(readFileSync(join(first.app.getPath('userData'), 'shell.json'), 'utf8'));
    expect(saved.mainWindow.bounds).toEqual({ x: 40, y: 60, width: 1000, height: 700 });

    const second = await desktop.launch({ dataDir: first.app.getPath('userData') });
    const reopened = await second.mainWindow();
    expect(reopened.getBounds()).toEqual({ x: 40, y: 60, width: 1000, height: 700 });
    const again = await reopened.page();
    // Reopened, the app is back on the conversation it had open, not on the welcome: nothing to click.
    await again
      .locator('[data-testid="message"][data-role="user"]', { hasText: 'What is the answer?' })
      .waitFor();
    await expect.poll(() => assistantText(again)).toContain('The answer is 42.');
    expect(await again.getByTestId('empty-state').count()).toBe(0);
    expect(await axeViolations(again)).toEqual([]);

    // A conversation deleted since (here, one the app never had) leaves the welcome, and is forgotten.
    await again.evaluate(() => localStorage.setItem('deputy.lastThreadId', 'a-conversation-deleted-since'));
    expect(await second.quit()).toBe(0);
    const third = await desktop.launch({ dataDir: first.app.getPath('userData') });
    const last = await (await third.mainWindow()).page();
    await last.getByTestId('empty-state').waitFor();
    expect(await last.getByRole('alert').count()).toBe(0);
    await expect.poll(() => last.evaluate(() => localStorage.getItem('deputy.lastThreadId'))).toBeNull();
  });

  it('creates every window with the secure webPreferences', async () => {
    const app = await desktop.launch();
    await app.mainWindow();
    app.globalShortcut.press('Alt+Space');
    await app.waitForWindow((url) => url.endsWith('#/quick'), 'the quick prompt');
    app.openLink('deputy://approval/some-approval');
    await app.waitForWindow((url) => url.includes('#/approval/'), 'an approval window');
    const created = app.runtime.created;
    expect(created.length).toBe(3);
    // The check every test of this suite runs after it (desktop-fixture.ts), and that it catches a weak window.
    expect(() => assertSecure({ ...SECURE_PREFERENCES, sandbox: false, preload: 'x' })).toThrow(
      /secure webPreferences/,
    );
    for (const window of created) {
      expect(window.options.webPreferences).toMatchObject(SECURE_PREFERENCES);
      expect(window.options.webPreferences?.preload).toMatch(/out[/\\]preload[/\\]preload\.cjs$/);
    }
  });

  it('the audit window: Back to Deputy and Open the conversation use the main window, and the viewer stays', async () => {
    const app = await desktop.launch();
    const main = await app.mainWindow();
    const page = await main.page();
    desktop.gemini.script(textReply('Noted.'));
    await type(page, 'Remember the milk');
    await expect.poll(() => assistantText(page)).toContain('Noted.');
    // What the main page's "Audit trail" link asks of the window-open handler.
    main.webContents.windowOpenHandler?.({ url: 'app://deputy/index.html#/audit' });
    const audit = await app.waitForWindow((url) => url.endsWith('#/audit'), 'the audit window');
    const viewer = await audit.page();
    await viewer.getByTestId('audit-back').click();
    await expect.poll(() => main.isFocused()).toBe(true);
    expect(audit.webContents.getURL()).toMatch(/#\/audit$/);

    // The main window has moved to a new conversation meanwhile: the viewer's link brings this one back there.
    const question = page.locator('[data-testid="message"][data-role="user"]', {
      hasText: 'Remember the milk',
    });
    await page.getByTestId('new-conversation').click();
    await question.waitFor({ state: 'detached' });
    await viewer.getByTestId('audit-row').first().getByRole('button').click();
    await viewer.getByTestId('audit-open-chat').click();
    await question.waitFor();
    await expect.poll(() => main.isFocused()).toBe(true);
    expect(audit.webContents.getURL()).toMatch(/#\/audit(\/[\w-]+)?$/);
    expect(app.runtime.created.length).toBe(2);

    // The viewer opened inside the main window (a tool card's link): Back goes back to the chat there.
    await page.evaluate(() => {
      window.location.hash = '#/audit';
    });
    await page.getByTestId('audit-back').click();
    await composerOf(page).waitFor();
    expect(main.webContents.getURL()).not.toContain('#/audit');
  });

  it('keeps a window on the app: a page that navigates elsewhere is stopped, and a foreign frame cannot call IPC', async () => {
    const app = await desktop.launch();
    const main = await app.mainWindow();
    const page = await main.page();
    await composerOf(page).waitFor();
    const attacker = 'https://attacker.example/';
    // The app hardened this webContents when it was created, so its will-navigate handler runs before this one.
    const asked = new Promise<{ defaultPrevented: boolean }>((resolve) =>
      main.webContents.once('will-navigate', resolve),
    );
    // A refused navigation is answered 204, on which Chromium stays put; an allowed one gets no response.
    const answered = page.waitForResponse(attacker).catch(() => null);
    await page.evaluate((url) => {
      window.location.href = url;
    }, attacker);
    expect((await asked).defaultPrevented).toBe(true);
    expect((await answered)?.status()).toBe(204);
    expect(main.webContents.getURL()).toBe('app://deputy/index.html');
    expect(app.blockedRequests).toEqual([]);
    // The handler itself refuses a sender whose frame is not ours, whatever the page managed to call.
    const handler = app.ipcMain.handlers.get('deputy:command');
    const answer = await handler?.(
      { sender: main.webContents, senderFrame: { url: 'https://attacker.example/', parent: null } },
      'settings.get',
      {},
    );
    expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    // Device and web permissions are refused for every page.
    const decisions: boolean[] = [];
    app.session.handlers.permissionRequest?.(
      ...([null, 'media', (ok: boolean) => decisions.push(ok)] as never[]),
    );
    expect(decisions).toEqual([false]);
  });
});
