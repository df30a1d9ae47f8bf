import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/gemini/server';
import { textReply } from '../fakes/gemini/script';
import type { FakeGemini } from '../fakes/gemini/types';
import { focusedTestId, focusedText, usePages } from './support/pages';
import { startHost, type RunningHost } from './support/host';

const { newPage } = usePages();

describe('Settings → Data and deleting a conversation, in the browser', () => {
  let gemini: FakeGemini;
  let host: RunningHost;
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${host.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
    });
  const ask = async (prompt: string): Promise<string> => {
    const response = await api('/api/agent/run', { method: 'POST', body: JSON.stringify({ prompt }) });
    return ((await response.json()) as { threadId: string }).threadId;
  };

  /** A window with Settings open at Data, its figures read. */
  const openDataPanel = async () => {
    const page = await newPage();
    await page.goto(`${host.url}/#token=${host.token}`);
    await page.getByTestId('open-settings').click();
    await page.getByRole('tab', { name: 'Data' }).click();
    const panel = page.getByTestId('data-panel');
    await panel.getByTestId('data-size').waitFor();
    return { page, panel };
  };

  beforeAll(async () => {
    gemini = await startFakeGemini();
    host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key' });
  });

  afterAll(async () => {
    await host?.stop();
    await gemini?.close();
  });

  it('deletes a conversation from the list with the keyboard, after a confirmation', async () => {
    gemini.script(textReply('Paris.'), textReply('Blue.'));
    const doomed = await ask('What is the capital of France?');
    const kept = await ask('What colour is the sky?');
    const page = await newPage();
    await page.goto(`${host.url}/#token=${host.token}`);
    const rows = page.getByTestId('thread-row');
    await expect.poll(() => rows.count()).toBe(2);

    const doomedRow = page.locator(`[data-testid="thread-row"][data-thread-id="${doomed}"]`);
    await doomedRow.getByRole('button', { name: 'Delete “What is the capital of France?”' }).focus();
    await page.keyboard.press('Enter');
    const confirm = doomedRow.getByRole('group', { name: 'Delete “What is the capital of France?”?' });
    await confirm.getByText('Delete this conversation for good?').waitFor();
    // Escape keeps it; the confirmation's Delete button takes the focus when asked again.
    await page.keyboard.press('Escape');
    await expect.poll(() => confirm.count()).toBe(0);
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedText(page)).toBe('Delete');
    await page.keyboard.press('Enter');

    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-thread-id')).toBe(kept);
    expect((await api(`/api/threads/${doomed}`)).status).toBe(404);
    expect((await api(`/api/threads/${kept}`)).status).toBe(200);
  });

  it('shows the database size, counts old conversations before deleting, and compacts', async () => {
    const { panel } = await openDataPanel();
    expect(await panel.getByTestId('data-size').innerText()).toMatch(/^\d+(\.\d)? (KB|MB)$/);
    expect(await panel.getByTestId('data-counts').innerText()).toContain('Conversations\n1');

    await panel.getByLabel('Delete conversations with no activity for more than').fill('1');
    await panel.getByTestId('prune-check').click();
    await panel
      .getByTestId('prune-confirm')
      .getByText('No conversation has been inactive for more than 1 day.')
      .waitFor();

    await panel.getByRole('button', { name: 'Compact database' }).click();
    const outcome = panel.getByTestId('data-outcome');
    await outcome.waitFor();
    expect(await outcome.innerText()).toMatch(/^Compacted/);
    const stats = (await (await api('/api/data')).json()) as {
      walBytes: number;
      counts: { threads: number };
    };
    expect(stats).toMatchObject({ walBytes: 0, counts: { threads: 1 } });
  });
  it('keeps the keyboard on the button pressed: counting, closing the answer, compacting and clearing', async () => {
    const { page, panel } = await openDataPanel();
    const press = async (testId: string) => {
      await panel.getByTestId(testId).focus();
      await page.keyboard.press('Enter');
    };

    // Each button says it is busy while it works; the keyboard stays on it (or on the answer it brings), not on
    // the page behind the dialog.
    await panel.getByLabel('Delete conversations with no activity for more than').fill('3650');
    await press('prune-check');
    const confirm = panel.getByTestId('prune-confirm');
    await confirm.waitFor();
    // Nothing to delete: the keyboard is on OK, which says the answer.
    await expect.poll(() => focusedTestId(page)).toBe('prune-confirm-ok');
    expect(
      await page.evaluate(() => {
        const described = document.activeElement?.getAttribute('aria-describedby') ?? '';
        return document.getElementById(described)?.textContent;
      }),
    ).toBe('No conversation has been inactive for more than 3,650 days.');
    // The answer's OK goes with the answer: the keyboard goes back to the button that asked.
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    expect(await focusedTestId(page)).toBe('prune-check');

    const outcome = panel.getByTestId('data-outcome');
    await press('data-compact');
    await outcome.getByText(/^Compacted/).waitFor();
    expect(await focusedTestId(page)).toBe('data-compact');
    await press('context-clear');
    await expect.poll(() => outcome.innerText()).not.toMatch(/^Compacted/);
    expect(await focusedTestId(page)).toBe('context-clear');
  });
});
