import { describe, expect, it } from 'vitest';
import type { Settings, TaskItem } from '../../shared/contract';
import { callReply, textReply } from '../fakes/gemini/script';
import { apiOf, putSettings } from './support/api';
import { useHostedGemini } from './support/hosted';
import { focusedLabel, focusedTestId, focusedText, usePages } from './support/pages';
import { focusColourPixels, tabToPickerButton } from './support/picker-ring';
import { coveredByTab, pinnedButtonView } from './support/pinned-buttons';

const { newPage } = usePages();
const SHOTS = process.env.DEPUTY_SHOTS;
// Autonomous trust with the default per-action settings: adds and edits go through, a delete asks first.
const hosted = useHostedGemini({ trustLevel: 'autonomous' });

describe('the Tasks panel, in the browser', () => {
  const api = (path: string, init?: RequestInit) => apiOf(hosted.host())(path, init);
  const tasks = async () => ((await (await api('/api/tasks')).json()) as { tasks: TaskItem[] }).tasks;

  const openPanel = async () => {
    const page = await newPage();
    const host = hosted.host();
    await page.goto(`${host.url}/#token=${host.token}`);
    await page.getByTestId('open-tasks').click();
    const panel = page.getByTestId('tasks-panel');
    await panel.getByTestId('tasks-empty').or(panel.getByTestId('task-row').first()).waitFor();
    return { page, panel };
  };

  it('adds with a due day, edits, completes; a delete asks first and goes once approved', async () => {
    const { page, panel } = await openPanel();
    await panel.getByLabel('New task').fill('Buy milk');
    await panel.getByLabel('Due date').fill('2026-11-25');
    await page.keyboard.press('Enter');
    await panel.getByTestId('tasks-notice').getByText('Added “Buy milk”.').waitFor();
    const row = panel.getByTestId('task-row').filter({ hasText: 'Buy milk' });
    expect(await row.innerText()).toMatch(/Due Wed,? (25 Nov|Nov 25)/);

    await row.getByRole('button', { name: 'Edit “Buy milk”' }).click();
    const form = panel.getByTestId('task-edit-form');
    await form.getByLabel('Task').fill('Buy oat milk');
    await form.getByLabel('Notes').fill('Two litres');
    await form.getByRole('button', { name: 'Save' }).click();
    await panel.getByTestId('tasks-notice').getByText('Saved “Buy oat milk”.').waitFor();
    expect((await tasks())[0]).toMatchObject({
      description: 'Buy oat milk',
      notes: 'Two litres',
      due: '2026-11-25',
    });

    // A click, not check(): once done, the row leaves the open list with its checkbox, and check()
    // would look for the removed box to confirm it is ticked and time out.
    await panel.getByLabel('Mark “Buy oat milk” done').click();
    await panel.getByTestId('tasks-notice').getByText('Done: “Buy oat milk”.').waitFor();
    await panel.getByTestId('tasks-tab-done').click();
    const done = panel.getByTestId('task-row').filter({ hasText: 'Buy oat milk' });
    await done.waitFor();

    await done.getByRole('button', { name: 'Delete “Buy oat milk”' }).click();
    await panel
      .getByTestId('tasks-notice')
      .getByText('Waiting for your approval', { exact: false })
      .waitFor();
    // While that waits, the row says so and does not offer a second delete (a second approval).
    await done.getByTestId('task-waiting').waitFor();
    expect(await done.getByRole('button', { name: 'Delete “Buy oat milk”' }).isDisabled()).toBe(true);
    const approval = panel.getByTestId('task-approval');
    await approval.waitFor();
    expect(await tasks()).toHaveLength(1);
    await approval.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(async () => (await tasks()).length).toBe(0);
    await expect.poll(() => panel.getByTestId('task-row').count()).toBe(0);
  });

  it('by keyboard only: edit, Escape, done, delete and its approval never drop the focus on the page', async () => {
    const { page, panel } = await openPanel();
    await page.keyboard.type('Post the letter');
    await page.keyboard.press('Enter');
    await panel.getByTestId('tasks-notice').getByText('Added “Post the letter”.').waitFor();
    const row = panel.getByTestId('task-row').filter({ hasText: 'Post the letter' });
    const edit = row.getByRole('button', { name: 'Edit “Post the letter”' });

    // Edit: the keyboard goes into the task's words; Escape cancels the edit, not the panel, and comes back to Edit.
    await edit.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement).value))
      .toBe('Post the letter');
    await page.keyboard.press('Escape');
    await expect.poll(() => focusedText(page)).toBe('Edit');
    expect(await panel.isVisible()).toBe(true);
    // Saved, the same.
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await page.keyboard.type(' today');
    await page.keyboard.press('Enter');
    await panel.getByTestId('tasks-notice').getByText('Saved “Post the letter today”.').waitFor();
    await expect.poll(() => focusedTestId(page)).toBe('task-edit');

    // Done: the row leaves the open list with its box; the keyboard goes to what came of it.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Space');
    await panel.getByTestId('tasks-notice').getByText('Done: “Post the letter today”.').waitFor();
    await expect.poll(() => focusedTestId(page)).toBe('tasks-notice');

    // A delete waits for approval: the keyboard goes to the notice, and Tab from it to the waiting change.
    // The Open and Done tabs are one tab stop, and the arrows move between them, as Settings' tabs do.
    await panel.getByTestId('tasks-tab-open').focus();
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).not.toBe('tasks-tab-done');
    await panel.getByTestId('tasks-tab-open').focus();
    await page.keyboard.press('ArrowRight');
    expect(await focusedTestId(page)).toBe('tasks-tab-done');
    expect(await panel.getByTestId('tasks-tab-done').getAttribute('aria-selected')).toBe('true');
    const done = panel.getByTestId('task-row').filter({ hasText: 'Post the letter today' });
    await done.getByRole('button', { name: 'Delete “Post the letter today”' }).focus();
    await page.keyboard.press('Enter');
    await panel
      .getByTestId('tasks-notice')
      .getByText('Waiting for your approval', { exact: false })
      .waitFor();
    await expect.poll(() => focusedTestId(page)).toBe('tasks-notice');
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Approve');
    await page.keyboard.press('Enter');
    await expect.poll(() => panel.getByTestId('task-row').count()).toBe(0);
    // Decided, the notice says so (not "waiting" any more), and holds the keyboard.
    await panel.getByTestId('tasks-notice').getByText('Approved: ', { exact: false }).waitFor();
    await expect.poll(() => focusedTestId(page)).toBe('tasks-notice');
  });

  it('by keyboard, the due date’s calendar button and the time’s clock button show the app’s focus ring (1280 and 420 px, light and dark)', async () => {
    for (const width of [1280, 420])
      for (const colorScheme of ['light', 'dark'] as const) {
        const { page } = await openPanel();
        await page.setViewportSize({ width, height: 800 });
        await page.emulateMedia({ colorScheme });
        await expect.poll(() => focusedLabel(page)).toBe('New task');
        // Past the day, month and year: Chromium drew only its thin default outline here, not the 3 px ring.
        expect(await tabToPickerButton(page)).toBe(true);
        expect(await focusedLabel(page)).toBe('Due date');
        expect(await focusColourPixels(page)).toBeGreaterThan(100);
        expect(await tabToPickerButton(page)).toBe(true);
        expect(await focusedLabel(page)).toBe('Time');
        expect(await focusColourPixels(page)).toBeGreaterThan(100);
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/task-form-clock-${width}-${colorScheme}.png` });
      }
  });

  it('shows a task the chat adds while it is open', async () => {
    const { panel } = await openPanel();
    hosted.gemini().script(
      callReply('add_task', {
        description: 'Call the plumber',
        intent: 'Add the plumber task',
        reasoning: 'The person asked.',
        confidence: 0.95,
      }),
      textReply('Added.'),
    );
    const response = await api('/api/agent/run', {
      method: 'POST',
      body: JSON.stringify({ prompt: 'Remind me to call the plumber' }),
    });
    expect(response.status).toBe(200);
    await panel.getByTestId('task-row').filter({ hasText: 'Call the plumber' }).waitFor();
  });

  it('in a window as short as the desktop app’s (720 × 480 px), the Tasks and Approvals panels keep Close in view, and scroll under it; the Tasks panel’s approvals offer no conversation to open', async () => {
    const pendingIds = async () =>
      ((await (await api('/api/actions/pending')).json()) as { approvals: { id: string }[] }).approvals.map(
        (approval) => approval.id,
      );
    // Eight actions at once: more than the default limit a minute allows after the tests before this one.
    const { rateLimits } = (await (await api('/api/settings')).json()) as Settings;
    await putSettings(hosted.host(), { rateLimits: { ...rateLimits, actionsPerMinute: 1000 } });
    // Deletes ask first: four of them wait in Approvals, and their tasks stay in the list.
    for (const errand of ['Return the library books', 'Renew the car tax', 'Fix the gate', 'Sort the loft']) {
      const added = (await (
        await api('/api/tasks', { method: 'POST', body: JSON.stringify({ description: errand }) })
      ).json()) as { result: { task: TaskItem } };
      await api(`/api/tasks/${added.result.task.id}`, { method: 'DELETE' });
    }
    try {
      const page = await newPage();
      const host = hosted.host();
      await page.goto(`${host.url}/#token=${host.token}`);
      const isCloseInView = (panelId: string) =>
        pinnedButtonView(page, `[data-testid="${panelId}"]`, 'Close');
      for (const height of [480, 600]) {
        await page.setViewportSize({ width: 720, height });
        await page.getByTestId('open-tasks').click();
        const panel = page.getByTestId('tasks-panel');
        await panel.getByTestId('task-approval').first().waitFor();
        expect(`${height} px: ${await isCloseInView('tasks-panel')}`).toBe(`${height} px: in view`);
        await page.getByTestId('tasks-close').click();
        await page.getByTestId('open-approvals').click();
        await page.getByTestId('pending-approval').nth(3).waitFor();
        expect(`${height} px: ${await isCloseInView('approvals-panel')}`).toBe(`${height} px: in view`);
        // Asked for in the Tasks panel, they have no conversation to open: each says where it came from instead.
        expect(await page.getByTestId('pending-open').count()).toBe(0);
        expect(await page.getByTestId('pending-approval').first().innerText()).toContain(
          'From the Tasks panel',
        );
        // By keyboard, each control the focus reaches is scrolled into view above Close, not under it.
        const covered = (await coveredByTab(page, 24)).map((seen) => `${height} px: ${seen}`);
        expect(covered).toEqual([]);
        // Scrolled to its end, the panel's last words are not under Close.
        const last = page.getByTestId('pending-approval').last().getByTestId('pending-reject-with-reason');
        await page.getByTestId('approvals-panel').evaluate((panel) => panel.scrollTo(0, panel.scrollHeight));
        expect(
          await last.evaluate((button) => {
            const box = button.getBoundingClientRect();
            return document.elementFromPoint(box.left + 2, box.top + box.height / 2) === button;
          }),
        ).toBe(true);
        await page.keyboard.press('Escape');
      }
    } finally {
      for (const id of await pendingIds()) await api(`/api/actions/${id}/reject`, { method: 'POST' });
      await putSettings(hosted.host(), { rateLimits });
    }
  });

  it('while side effects are paused, says so and changes nothing', async () => {
    await api('/api/side-effects', { method: 'PUT', body: JSON.stringify({ isPaused: true }) });
    try {
      const { page, panel } = await openPanel();
      const before = (await tasks()).length;
      await panel.getByLabel('New task').fill('Not now');
      await page.keyboard.press('Enter');
      const notice = panel.getByTestId('tasks-notice');
      await notice.waitFor();
      expect(await notice.getAttribute('role')).toBe('alert');
      expect(await notice.innerText()).toMatch(/paused/i);
      expect(await tasks()).toHaveLength(before);
    } finally {
      await api('/api/side-effects', { method: 'PUT', body: JSON.stringify({ isPaused: false }) });
    }
  });
});
