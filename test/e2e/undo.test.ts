import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callReply, textReply } from '../fakes/gemini/script';
import type { FakeGemini } from '../fakes/gemini/types';
import type { FakeSlack } from '../fakes/slack/server';
import { axeViolations } from './support/axe';
import { apiOf } from './support/api';
import type { RunningHost } from './support/host';
import { startSlackHost } from './support/slack-host';
import { focusedId, focusedTestId, usePages } from './support/pages';

const { newPage } = usePages();
const SHOTS = process.env.DEPUTY_SHOTS;

/** Undo of an action that reached outside Deputy, walked in the viewer as a person would, against the Slack fake. */
describe('undoing a Slack post from the audit viewer', () => {
  let gemini: FakeGemini;
  let slack: FakeSlack;
  let host: RunningHost;
  let stop = async () => {};

  beforeAll(async () => {
    // The person's own setting lets Deputy post on its own: the undo is not held for approval either.
    ({ gemini, slack, host, stop } = await startSlackHost());
  });

  afterAll(() => stop());

  const detail = (page: Page) => page.getByTestId('audit-detail');
  const general = () => slack.state.channels.find((channel) => channel.name === 'general');
  const isPosted = (text: string) => general()?.messages.some((message) => message.text === text) ?? false;

  /** Posts `text` in #general through a run, and answers its audit entry's id. */
  async function post(text: string): Promise<string> {
    gemini.script(
      callReply('slack_send', { channel: '#general', text, intent: 'Tell the team', confidence: 0.95 }),
      textReply('Posted.'),
    );
    const api = apiOf(host);
    const run = (await (
      await api('/api/agent/run', { method: 'POST', body: JSON.stringify({ prompt: `Post: ${text}` }) })
    ).json()) as { runId: string };
    const { entries } = (await (await api(`/api/audit?tool=slack_send&runId=${run.runId}`)).json()) as {
      entries: { id: string }[];
    };
    expect(isPosted(text)).toBe(true);
    return entries[0]?.id ?? '';
  }

  it('names where the post went, and what it made, in words, keeping what an auditor needs to find it', async () => {
    const id = await post('Pizza on Friday.');
    for (const [width, scheme] of [
      [1280, 'light'],
      [420, 'dark'],
    ] as const) {
      const page = await newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${host.url}/#/audit/${id}&token=${host.token}`);
      await detail(page).getByRole('heading', { name: 'Posted in #general', exact: true }).waitFor();
      const where = detail(page).locator('dt:text-is("To whom or where") + dd');
      expect(await where.innerText()).toBe('#general in Slack');
      const diff = detail(page).getByTestId('audit-diff');
      // Each field made is marked "(changed)" for a screen reader.
      const labels = await diff.locator('tbody th').allInnerTexts();
      expect(labels.map((label) => label.replace(/\s*\(changed\)$/, ''))).toEqual([
        'Channel',
        'Posted at',
        'Thread',
        'Text',
      ]);
      expect(await diff.locator('tbody tr').nth(1).locator('td').nth(1).innerText()).toMatch(
        /^.+ \(its id in Slack: \d+\.\d+\)$/,
      );
      expect(JSON.stringify(await axeViolations(page))).toBe('[]');
      if (SHOTS)
        await page.screenshot({ path: `${SHOTS}/audit-slack-words-${width}-${scheme}.png`, fullPage: true });
      await page.close();
    }
    // The trail's own table says it the same way, in its "to whom or where" column.
    const page = await newPage();
    await page.setViewportSize({ width: 1280, height: 600 });
    await page.goto(`${host.url}/#/audit&token=${host.token}`);
    const target = page
      .locator('.audit-row', { hasText: 'Posted in #general' })
      .locator('.audit-row__target');
    await expect.poll(() => target.first().innerText()).toBe('#general in Slack');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/audit-slack-words-table-1280-light.png` });
  });

  it('asks before deleting the post, by keyboard; Keep it keeps it; yes deletes it once, and the action and its undo link to each other', async () => {
    const id = await post('The demo moves to Thursday.');
    const page = await newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${host.url}/#/audit/${id}&token=${host.token}`);
    await detail(page).getByRole('heading', { name: 'Posted in #general', exact: true }).waitFor();

    // Undo is the next stop after the entry's title, and it asks first: the question has focus, not "yes".
    await page.locator('#audit-detail-title').focus();
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('audit-undo');
    await page.keyboard.press('Enter');
    const question = detail(page).getByTestId('audit-undo-confirm');
    await expect
      .poll(() => question.innerText())
      .toBe(
        'Delete this post from #general? People there may have read it already, and a deleted post cannot be brought back.',
      );
    await expect.poll(() => focusedTestId(page)).toBe('audit-undo-confirm');
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    await page.keyboard.press('Enter');
    expect(await question.count()).toBe(1);
    // Escape keeps it, as Keep it does.
    await page.keyboard.press('Escape');
    await expect.poll(() => question.count()).toBe(0);
    await detail(page).getByTestId('audit-undo').click();
    await detail(page).getByRole('button', { name: 'Keep it' }).click();
    await expect.poll(() => question.count()).toBe(0);
    const deletes = () => slack.requests.filter((request) => request.path === '/api/chat.delete').length;
    expect(deletes()).toBe(0);
    expect(isPosted('The demo moves to Thursday.')).toBe(true);

    await detail(page).getByTestId('audit-undo').click();
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('audit-undo-confirm-yes');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Delete the post');
    await page.keyboard.press('Enter');
    await expect.poll(() => detail(page).getByTestId('audit-detail-status').innerText()).toBe('Undone');
    expect(await page.getByTestId('audit-notice').innerText()).toBe('Undone: Posted in #general.');
    await expect.poll(() => focusedId(page)).toBe('audit-detail-title');
    expect(isPosted('The demo moves to Thursday.')).toBe(false);
    expect(deletes()).toBe(1);

    // From the action to its undo, and back.
    await detail(page).getByTestId('audit-open-undo').click();
    await detail(page).getByRole('heading', { name: 'Undo: Posted in #general' }).waitFor();
    await detail(page).getByTestId('audit-open-undone').click();
    await detail(page).getByRole('heading', { name: 'Posted in #general', exact: true }).waitFor();
    expect(await detail(page).getByTestId('audit-undo-why-not').innerText()).toMatch(/^This was undone\./);
    // Asked again (a script, another window): refused in words, and Slack is not asked a second time.
    const again = await apiOf(host)(`/api/audit/${id}/undo`, { method: 'POST', body: '{}' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { message: string } }).error.message).toBe(
      'This action was already undone.',
    );
    expect(deletes()).toBe(1);
  });
});
