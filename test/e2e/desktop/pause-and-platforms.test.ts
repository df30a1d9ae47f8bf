import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callReply, textReply } from '../../fakes/gemini/script';
import { focusedId } from '../support/pages';
import { assistantText, composerOf, type, useDesktop } from './desktop-fixture';

const desktop = useDesktop();

const MILK_CALL = { description: 'Buy milk', confidence: 0.95, intent: 'add task', assumptions: [] };
const APPROVAL_TITLE = 'Deputy needs your approval';
const PAUSE = 'Pause all side effects';

describe('Pause all side effects, from the tray', () => {
  it('shows in the tray and the window, holds approvals, is kept across a restart, and Resume ends it', async () => {
    const first = await desktop.launch({ platform: 'linux' });
    const main = await first.mainWindow();
    const page = await main.page();
    const banner = page.getByTestId('pause-banner');
    expect(first.trays[0]?.menu?.find(PAUSE).checked).toBe(false);
    expect(first.trays[0]?.toolTip).toBe('Deputy');
    // An approval asked for before the pause (never approved here, so no answer is scripted after it).
    desktop.gemini.script(callReply('add_task', MILK_CALL));
    await type(page, 'Add a task to buy milk');
    const notification = await first.waitForNotification(
      (n) => n.options.title === APPROVAL_TITLE,
      'the approval notification',
    );

    first.trays[0]?.menu?.click(PAUSE);
    await banner.waitFor();
    expect(await banner.innerText()).toContain('All side effects are paused');
    await expect.poll(() => first.trays.at(-1)?.menu?.find(PAUSE).checked).toBe(true);
    expect(first.trays[0]?.toolTip).toBe('Deputy: side effects paused');

    // The quick prompt says so too.
    first.trays.at(-1)?.menu?.click('Quick prompt');
    const quick = await first.waitForWindow((url) => url.includes('#/quick'), 'the quick prompt');
    await (await quick.page()).getByTestId('pause-banner').waitFor();
    quick.hide();

    // Approving it now is refused in words, and it stays waiting.
    notification.click();
    const card = await (
      await first.waitForWindow((url) => url.includes('#/approval/'), 'the approval window')
    ).page();
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await card.getByText('All side effects are paused, so this cannot be approved now').waitFor();

    // A new side effect is refused by the policy; the model is told why and says so.
    desktop.gemini.script(
      callReply('add_task', { ...MILK_CALL, description: 'Buy bread' }),
      textReply('Side effects are paused, so I did not add it.'),
    );
    await type(page, 'Add a task to buy bread');
    // The milk approval still waits in this conversation: the chat asks before a new message cancels it.
    await page.getByTestId('send-anyway').getByRole('button', { name: 'Send anyway' }).click();
    await expect.poll(() => assistantText(page)).toContain('Side effects are paused');
    expect(JSON.stringify(desktop.gemini.requests.at(-1))).toContain('All side effects are paused');
    await first.quit();

    const second = await desktop.launch({ platform: 'linux', dataDir: first.app.getPath('userData') });
    const again = await (await second.mainWindow()).page();
    // Kept in SQLite: the restarted app is still paused, and says so before anyone asks.
    await again.getByTestId('pause-banner').waitFor();
    await expect.poll(() => second.trays[0]?.menu?.find(PAUSE).checked).toBe(true);
    // In a narrow window the banner keeps its row between the header and the chat, which keeps the width.
    await again.setViewportSize({ width: 420, height: 800 });
    const bannerBox = await again.getByTestId('pause-banner').boundingBox();
    const messageBox = await composerOf(again).boundingBox();
    expect(bannerBox && messageBox && bannerBox.y < messageBox.y && messageBox.width > 380).toBe(true);

    await again.getByTestId('resume-side-effects').click();
    await again.getByTestId('pause-banner').waitFor({ state: 'detached' });
    // Its button gone with it, the keyboard goes on in the message box.
    await expect.poll(() => focusedId(again)).toBe('composer-input');
    await expect.poll(() => second.trays.at(-1)?.menu?.find(PAUSE).checked).toBe(false);
    expect(second.trays.at(-1)?.toolTip).not.toContain('paused');
  });
});

describe('each platform’s tray, badge and links', () => {
  it('Linux and Windows: the tray glyph follows the system theme as it changes', async () => {
    const app = await desktop.launch({ platform: 'linux' });
    await app.mainWindow();
    expect(basename(app.trays[0]?.image.path ?? '')).toBe('tray-light.png');
    expect(app.trays[0]?.image.isEmpty()).toBe(false);
    app.nativeTheme.switchTo(true);
    expect(basename(app.trays[0]?.image.path ?? '')).toBe('tray-dark.png');
    expect(app.trays[0]?.image.isEmpty()).toBe(false);
  });

  it('Windows: approval toasts carry Approve and Reject, and the taskbar overlay counts what waits', async () => {
    const app = await desktop.launch({ platform: 'win32' });
    const main = await app.mainWindow();
    const page = await main.page();
    desktop.gemini.script(callReply('add_task', MILK_CALL), textReply('Added **Buy milk**.'));
    await type(page, 'Add a task to buy milk');
    const toast = await app.waitForNotification(
      (n) => n.options.title === APPROVAL_TITLE,
      'the approval toast',
    );
    expect(toast.options.actions?.map((action) => action.text)).toEqual(['Approve', 'Reject']);
    await expect.poll(() => main.overlay?.description).toBe('1 waiting for your approval');
    expect(basename(main.overlay?.icon ?? '')).toBe('badge.png');
    // Windows has no app badge: the count is not sent there.
    expect(app.app.badgeCount).toBe(0);

    toast.pressAction('Approve');
    await expect.poll(() => assistantText(page)).toContain('Added Buy milk.');
    await expect.poll(() => main.overlay).toBeNull();
  });

  it('Linux: the launcher badge counts pending approvals', async () => {
    const app = await desktop.launch({ platform: 'linux' });
    const page = await (await app.mainWindow()).page();
    desktop.gemini.script(callReply('add_task', MILK_CALL));
    await type(page, 'Add a task to buy milk');
    await expect.poll(() => app.app.badgeCount).toBe(1);
  });

  it('macOS: a deputy:// link that launches the app is not lost; it opens once the window exists', async () => {
    // The approval exists first: a run that asked for one, in an app that is then quit.
    const first = await desktop.launch({ platform: 'darwin' });
    const page = await (await first.mainWindow()).page();
    desktop.gemini.script(callReply('add_task', MILK_CALL));
    await type(page, 'Add a task to buy milk');
    const notification = await first.waitForNotification(
      (n) => n.options.title === APPROVAL_TITLE,
      'the approval notification',
    );
    const approvalId = notification.options.id?.replace('deputy-approval-', '') ?? '';
    await first.quit();

    // macOS delivers the link as open-url during launch, before ready.
    const second = await desktop.launch({
      platform: 'darwin',
      dataDir: first.app.getPath('userData'),
      launchedByLink: `deputy://approval/${approvalId}`,
    });
    await second.mainWindow();
    const card = await second.waitForWindow(
      (url) => url.endsWith(`#/approval/${approvalId}`),
      'the approval window the link asked for',
    );
    await (await card.page()).getByText('Buy milk').first().waitFor();
  });
});
