import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callReply, textReply } from '../../fakes/gemini/script';
import type { DeputyApp } from '../../harness/launch';
import { focusedTestId } from '../support/pages';
import { assistantText, type, useDesktop } from './desktop-fixture';

const desktop = useDesktop();

/** A side effect the default trust level asks about. */
const MILK_CALL = {
  description: 'Buy milk',
  confidence: 0.95,
  intent: 'add task',
  reasoning: 'asked',
  assumptions: [],
};
const APPROVAL_TITLE = 'Deputy needs your approval';

async function askForMilk(app: DeputyApp): Promise<Page> {
  const page = await (await app.mainWindow()).page();
  desktop.gemini.script(callReply('add_task', MILK_CALL), textReply('Added **Buy milk**.'));
  await type(page, 'Add a task to buy milk');
  return page;
}

describe('approvals outside the chat window', () => {
  it('macOS: the notification offers Approve and Reject, and Approve lets the run finish; the badge counts it', async () => {
    const app = await desktop.launch({ platform: 'darwin' });
    const page = await askForMilk(app);
    const notification = await app.waitForNotification(
      (n) => n.options.title === APPROVAL_TITLE,
      'the approval notification',
    );
    expect(notification.isShown).toBe(true);
    expect(notification.options.body).toContain('Buy milk');
    expect(notification.options.actions?.map((action) => action.text)).toEqual(['Approve', 'Reject']);
    await expect.poll(() => app.app.badgeCount).toBe(1);
    expect(app.trays[0]?.menu?.find(/^Pending approvals/).label).toBe('Pending approvals (1)');

    // A link from another app reaches the running app as open-url on macOS, and opens the card.
    const approvalId = notification.options.id?.replace('deputy-approval-', '') ?? '';
    app.openLink(`deputy://approval/${approvalId}`);
    await app.waitForWindow((url) => url.endsWith(`#/approval/${approvalId}`), 'the approval window');

    notification.pressAction('Approve');
    await expect.poll(() => assistantText(page)).toContain('Added Buy milk.');
    await expect.poll(() => app.app.badgeCount).toBe(0);
    expect(notification.isClosed).toBe(true);
  });

  it('Linux: clicking the notification opens the approval card, where it is approved', async () => {
    const app = await desktop.launch({ platform: 'linux' });
    const page = await askForMilk(app);
    const notification = await app.waitForNotification(
      (n) => n.options.title === APPROVAL_TITLE,
      'the approval notification',
    );
    expect(notification.options.actions).toBeUndefined();
    notification.click();
    const card = await (
      await app.waitForWindow((url) => url.includes('#/approval/'), 'the approval window')
    ).page();
    // The window opens with focus on its card, not on the page and not on Approve.
    await expect.poll(() => focusedTestId(card)).toBe('approval-card');
    await card.getByTestId('approval-approve').click();
    await expect.poll(() => assistantText(page)).toContain('Added Buy milk.');
  });

  it('an approval left pending at quit is announced again at the next start, and approving it there finishes the run', async () => {
    const first = await desktop.launch();
    await askForMilk(first);
    const before = await first.waitForNotification(
      (n) => n.options.title === APPROVAL_TITLE,
      'the approval notification',
    );
    await first.quit();
    // Quitting closes the notifications that offered to decide it: nothing would answer their buttons.
    expect(before.isClosed).toBe(true);

    const second = await desktop.launch({ dataDir: first.app.getPath('userData') });
    const again = await second.waitForNotification(
      (n) => n.options.id === before.options.id,
      'the same approval, announced again',
    );
    again.click();
    const card = await (
      await second.waitForWindow((url) => url.includes('#/approval/'), 'the approval window')
    ).page();
    // The model's next step was scripted by askForMilk and is still waiting: the new process asks for it.
    await card.getByTestId('approval-approve').click();
    const page = await (await second.mainWindow()).page();
    await page.getByTestId('thread-item').first().click();
    await expect.poll(() => assistantText(page)).toContain('Added Buy milk.');
  });

  it('a deputy:// link opens the approval; a malformed one opens nothing', async () => {
    const app = await desktop.launch();
    const page = await askForMilk(app);
    const notification = await app.waitForNotification(
      (n) => n.options.title === APPROVAL_TITLE,
      'the approval notification',
    );
    const approvalId = notification.options.id?.replace('deputy-approval-', '') ?? '';
    expect(approvalId).not.toBe('');
    const threadId = await page.getByTestId('thread-item').first().getAttribute('data-thread-id');
    expect(threadId).toMatch(/^[\w-]+$/);
    const windowsBefore = app.runtime.created.length;
    // The main window moves to a new conversation, so that the link's is seen to come back.
    const question = page.locator('[data-testid="message"][data-role="user"]', { hasText: 'buy milk' });
    await page.getByTestId('new-conversation').click();
    await question.waitFor({ state: 'detached' });

    for (const bad of [
      'deputy://approval/../../etc',
      `deputy://approval/${approvalId}?x=1`,
      'deputy://settings/x',
      'https://approval/x',
    ])
      app.openLink(bad);
    // Links are handled one by one, in order (main.ts, 'second-instance'), and a window is created while its
    // link is handled: once this later link has shown its conversation, any window the bad ones made exists.
    app.openLink(`deputy://thread/${threadId}`);
    await question.waitFor();
    expect(app.runtime.created).toHaveLength(windowsBefore);

    app.openLink(`deputy://approval/${approvalId}`);
    const window = await app.waitForWindow(
      (url) => url.endsWith(`#/approval/${approvalId}`),
      'the approval window',
    );
    const card = await window.page();
    await card.getByTestId('approval-card').waitFor();
    expect(await card.getByTestId('approval-card').innerText()).toContain('Buy milk');
    expect(app.app.protocolClients).toContain('deputy');
  });
});
