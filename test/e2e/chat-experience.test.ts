import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply, statusReply, textReply } from '../fakes/gemini/script';
import type { FakeGemini } from '../fakes/gemini/types';
import Database from 'better-sqlite3';
import { askOver, putSettings } from './support/api';
import { axeViolations } from './support/axe';
import {
  addTaskCard,
  assistantMessages,
  composer,
  focusedTestId,
  focusedText,
  send,
  usePages,
} from './support/pages';
import { startHost, type RunningHost } from './support/host';
import { MILK_CALL } from './support/milk';
import { seedLongThread } from './support/seed-thread';

const { newPage } = usePages();

const MARKDOWN = [
  'Your week:',
  '',
  '| Task | Due |',
  '|---|---|',
  '| Buy milk | tomorrow |',
  '',
  '- [x] draft the report',
  '- [ ] send it',
  '',
  '~~old plan~~',
  '',
  '> Quoted from Sam',
  '',
  '```',
  'npm run serve',
  '```',
].join('\n');

describe('the chat, as a person uses it', () => {
  let gemini: FakeGemini;
  let host: RunningHost;
  let longThreadId: string;
  let dataDir: string;

  beforeAll(async () => {
    gemini = await startFakeGemini();
    dataDir = await mkdtemp(join(tmpdir(), 'deputy-e2e-chat-'));
    // A host started once makes the database; the long thread is written into it while it is stopped.
    const first = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key', dataDir });
    await first.stop();
    longThreadId = seedLongThread(dataDir, 2_000);
    host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key', dataDir });
  });

  afterAll(async () => {
    await host?.stop();
    await gemini?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function openPage(): Promise<Page> {
    const page = await newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: host.url });
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    return page;
  }

  const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

  it('opens a 2,000-message conversation with only the rows in view in the page', async () => {
    const page = await openPage();
    await page.goto(`${host.url}/#/thread/${longThreadId}`);
    await page.getByText('Answer number 1999.').waitFor();
    // The virtual list measures its rows over a few frames: asked until it has settled.
    const rows = () => page.getByTestId('timeline').locator(':scope > li').count();
    await expect.poll(rows).toBeLessThan(60);
    expect(await rows()).toBeGreaterThan(0);
    await page.getByTestId('conversation').evaluate((element) => (element.scrollTop = 0));
    await page.getByText('Question number 0:').waitFor();
  });

  it('shows GitHub markdown: a table, task list, strikethrough, quote and a code block with a copy button', async () => {
    await putSettings(host, { trustLevel: 'autonomous' });
    gemini.script(textReply(MARKDOWN, { chunks: 4, gapMs: 10 }));
    const page = await openPage();
    await send(page, 'What is on this week?');
    const answer = assistantMessages(page).last();
    await answer.locator('table td', { hasText: 'Buy milk' }).waitFor();
    // The copy button comes once the answer has stopped streaming: what follows reads the whole of it.
    await answer.getByTestId('message-copy').waitFor();
    expect(await answer.locator('input[type="checkbox"]').count()).toBe(2);
    expect(await answer.locator('del').innerText()).toBe('old plan');
    expect(await answer.locator('blockquote').innerText()).toContain('Quoted from Sam');
    await answer.getByTestId('code-copy').click();
    await expect.poll(() => clipboard(page)).toBe('npm run serve');
    await answer.getByTestId('message-copy').click();
    await expect.poll(() => clipboard(page)).toContain('| Task | Due |');
  });

  it('keeps a long line of code whole in a narrow window: the block scrolls sideways, by keyboard too', async () => {
    const line =
      'const configurationForTheAssistant = createConfigurationFromEnvironment(process.env.DEPUTY_PATH);';
    gemini.script(textReply(`Here:\n\n\`\`\`ts\n${line}\n\`\`\`\n\nDone.`));
    const page = await openPage();
    await page.setViewportSize({ width: 420, height: 700 });
    await send(page, 'Show me the line');
    const block = assistantMessages(page).last().locator('.code-block pre');
    await block.waitFor();
    const shape = await block.evaluate((pre) => ({
      lines: Math.round(pre.querySelector('code')?.getBoundingClientRect().height ?? 0),
      lineHeight: parseFloat(getComputedStyle(pre).lineHeight),
      scrolls: pre.scrollWidth > pre.clientWidth,
      tabIndex: pre.tabIndex,
    }));
    expect(shape.scrolls).toBe(true);
    expect(shape.lines).toBeLessThan(shape.lineHeight * 1.5);
    expect(shape.tabIndex).toBe(0);
  });

  it('renames a conversation (kept after a reload) and finds conversations by title', async () => {
    gemini.script(textReply('Lisbon it is.'), textReply('Porto too.'));
    const page = await openPage();
    await send(page, 'Plan a trip');
    await assistantMessages(page).getByText('Lisbon it is.').waitFor();
    await page.getByTestId('new-conversation').click();
    await send(page, 'Another plan, a long trip across Portugal, Spain and the south of France in May');
    await assistantMessages(page).getByText('Porto too.').waitFor();

    // A title has the row's width: Rename and Delete sit on the line of its date, not beside it.
    const longId = await page
      .getByTestId('thread-row')
      .filter({ hasText: 'Another plan' })
      .getAttribute('data-thread-id');
    const long = page.locator(`[data-testid="thread-row"][data-thread-id="${longId}"]`);
    const widths = await long.evaluate((row) => ({
      row: row.getBoundingClientRect().width,
      title: row.querySelector('.thread-list__title')?.getBoundingClientRect().width ?? 0,
    }));
    expect(widths.title).toBeGreaterThan(widths.row * 0.85);
    // The rename box starts at the title's beginning, all of it selected, ready to be typed over.
    await long.getByTestId('thread-rename').click();
    const box = long.getByTestId('thread-rename-input');
    expect(
      await box.evaluate((input: HTMLInputElement) => ({
        isAllSelected: input.selectionStart === 0 && input.selectionEnd === input.value.length,
        scrollLeft: input.scrollLeft,
      })),
    ).toEqual({ isAllSelected: true, scrollLeft: 0 });
    await box.press('Escape');

    const threadId =
      (await page
        .getByTestId('thread-row')
        .filter({ hasText: 'Plan a trip' })
        .getAttribute('data-thread-id')) ?? '';
    const row = page.locator(`[data-testid="thread-row"][data-thread-id="${threadId}"]`);
    await row.getByTestId('thread-rename').click();
    await row.getByTestId('thread-rename-input').fill('Lisbon in May');
    await row.getByTestId('thread-rename-input').press('Enter');
    await page.getByTestId('thread-item').filter({ hasText: 'Lisbon in May' }).waitFor();
    await page.reload();
    await page.getByTestId('thread-item').filter({ hasText: 'Lisbon in May' }).waitFor();

    await page.getByTestId('thread-search').fill('may lisbon');
    await expect.poll(() => page.getByTestId('search-hit').allInnerTexts()).toEqual(['Lisbon in May']);
    await page.getByTestId('thread-search').fill('nothing like this');
    await page.getByText('No conversation mentions “nothing like this”.').waitFor();

    const patch = (id: string, body: unknown) =>
      fetch(`${host.url}/api/threads/${id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await patch('no-such-thread', { title: 'x' })).status).toBe(404);
    expect((await patch(threadId, { title: '   ' })).status).toBe(400);
  });

  it('shows a row’s Rename and Delete on hover or keyboard focus, not over the title of a row just clicked', async () => {
    gemini.script(textReply('Noted.'));
    const page = await openPage();
    await send(page, 'Remember the blue folder');
    await assistantMessages(page).getByText('Noted.').waitFor();
    const row = page.getByTestId('thread-row').filter({ hasText: 'Remember the blue folder' });
    const actions = row.locator('.thread-list__actions');
    const opacity = () => actions.evaluate((element) => getComputedStyle(element).opacity);
    // Clicked, the row keeps the focus; once the pointer leaves it, its title is whole again.
    await row.getByTestId('thread-item').click();
    await page.mouse.move(700, 400);
    await expect.poll(() => focusedTestId(page)).toBe('thread-item');
    expect(await opacity()).toBe('0');
    await row.hover();
    expect(await opacity()).toBe('1');
    await page.mouse.move(700, 400);
    expect(await opacity()).toBe('0');
    // Tab from the row reaches Rename, and shows both.
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('thread-rename');
    expect(await opacity()).toBe('1');
  });

  it('tells apart two conversations of the same title and minute, by sight and by their buttons’ names', async () => {
    gemini.script(textReply('Monday: report.'), textReply('Monday: gym.'));
    const first = await askOver(host, 'Plan my week');
    const second = await askOver(host, 'Plan my week');
    // Changed in one minute, 34 seconds apart (a run's answer moves its conversation's time to when it came).
    const db = new Database(join(dataDir, 'deputy.db'));
    try {
      const touch = db.prepare('UPDATE threads SET updated_at = ? WHERE id = ?');
      touch.run('2026-03-02T09:15:07.000Z', first);
      touch.run('2026-03-02T09:15:41.000Z', second);
    } finally {
      db.close();
    }
    const page = await openPage();
    const rows = page.getByTestId('thread-row').filter({ hasText: 'Plan my week' });
    await expect.poll(() => rows.count()).toBe(2);
    const [newer, older] = await rows.evaluateAll((found) =>
      found.map((row) => ({
        seen: row.querySelector('[data-testid="thread-item"]')?.textContent ?? '',
        rename: row.querySelector('[data-testid="thread-rename"]')?.getAttribute('aria-label') ?? '',
        remove: row.querySelector('[data-testid="thread-delete"]')?.getAttribute('aria-label') ?? '',
      })),
    );
    expect(newer?.seen).not.toBe(older?.seen);
    for (const row of [newer, older]) {
      // The time the row shows, to the second, is in what its Rename and Delete are called.
      const when = /Plan my week(.*\d:\d\d:\d\d.*)$/.exec(row?.seen ?? '')?.[1] ?? 'no time in seconds';
      expect(row?.rename).toBe(`Rename “Plan my week” (${when})`);
      expect(row?.remove).toBe(`Delete “Plan my week” (${when})`);
    }
    expect(newer?.remove).not.toBe(older?.remove);
  });

  it('says a tool call in words, keeps the raw input behind Details, and regenerates the last answer', async () => {
    await putSettings(host, { trustLevel: 'autonomous' });
    gemini.script(callReply('add_task', MILK_CALL), textReply('Done.'), textReply('Done again.'));
    const page = await openPage();
    await send(page, 'Add a task to buy milk');
    const card = addTaskCard(page).and(page.locator('[data-state="completed"]'));
    await card.waitFor();
    expect(await card.getByTestId('tool-call-summary').innerText()).toBe('Added task “Buy milk”');
    expect(await card.getByTestId('tool-call-input').isVisible()).toBe(false);
    await card.getByText('Details').click();
    expect(await card.getByTestId('tool-call-input').innerText()).toContain('"description": "Buy milk"');
    // Its Input and Output headings come under the conversation's, with no level skipped.
    expect(await axeViolations(page)).toEqual([]);
    await assistantMessages(page).getByText('Done.').waitFor();
    // The run's footer: the tokens both turns used, priced at the model's list price.
    await expect
      .poll(() => page.getByTestId('run-usage').last().innerText())
      .toMatch(/tokens in, \d+ out · (about |under )\$/);

    await page.getByTestId('regenerate').click();
    await assistantMessages(page).getByText('Done again.').waitFor();
    expect(gemini.requests.at(-1)?.body.contents?.at(-1)?.parts?.[0]?.text).toBe('Add a task to buy milk');
  });

  it('puts a new approval in its tool card, gives it focus, and Enter in the reason rejects without model words', async () => {
    await putSettings(host, { trustLevel: 'supervised' });
    gemini.script(callReply('add_task', { description: 'Buy milk' }), textReply('Left it.'));
    const page = await openPage();
    await send(page, 'Add a task to buy milk');
    const card = addTaskCard(page);
    const approval = card.getByTestId('approval-card');
    await approval.waitFor();
    expect(await page.getByTestId('timeline').getByTestId('approval-card').count()).toBe(1);
    // The card says the action once, as the approval's name, with its risk and status; no header, preview
    // title or row above the buttons says it again.
    const said = await card.innerText();
    expect(said.split('Buy milk')).toHaveLength(2);
    expect(said).toMatch(/low risk/i);
    expect(said).toContain('Waiting for you');
    const name = await approval.evaluate(
      (element) => document.getElementById(element.getAttribute('aria-labelledby') ?? '')?.textContent,
    );
    expect(name).toContain('Buy milk');
    await expect.poll(() => focusedTestId(page)).toBe('approval-card');
    expect(await page.getByTestId('approval-announcement').innerText()).toContain('needs your approval');
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('approval-approve');

    await approval.getByTestId('approval-reject').click();
    await approval.getByTestId('approval-reject-reason').fill('Not now');
    await approval.getByTestId('approval-reject-reason').press('Enter');
    await card.and(page.locator('[data-state="rejected"]')).waitFor();
    await assistantMessages(page).getByText('Left it.').waitFor();
    expect(await page.getByTestId('timeline').innerText()).not.toContain('Do not retry');
  });

  it('edits an approval with a date picker under human labels', async () => {
    await putSettings(host, { trustLevel: 'supervised' });
    gemini.script(
      callReply('add_task', { description: 'Buy milk', due: '2026-11-22' }),
      textReply('Moved it.'),
    );
    const page = await openPage();
    await send(page, 'Add a task to buy milk on Sunday');
    const approval = addTaskCard(page).getByTestId('approval-card');
    await approval.getByTestId('approval-edit').click();
    const due = approval.getByTestId('approval-field-due');
    expect(await due.getAttribute('type')).toBe('date');
    expect(await due.inputValue()).toBe('2026-11-22');
    expect(await due.evaluate((input: HTMLInputElement) => input.labels?.[0]?.textContent)).toBe('Due');
    expect(await approval.innerText()).not.toContain('ISO date');
    await due.fill('2026-11-24');
    await approval.getByTestId('approval-field-due-time').fill('09:30');
    await approval.getByTestId('approval-save').click();
    await assistantMessages(page).getByText('Moved it.').waitFor();
    await addTaskCard(page).getByText('Details').click();
    expect(await addTaskCard(page).getByTestId('tool-call-input').innerText()).toContain('2026-11-24T09:30');
  });

  it('asks before a new message cancels a waiting approval', async () => {
    await putSettings(host, { trustLevel: 'supervised' });
    gemini.script(callReply('add_task', { description: 'Buy milk' }));
    const page = await openPage();
    await send(page, 'Add a task to buy milk');
    await addTaskCard(page).getByTestId('approval-card').waitFor();

    await send(page, 'Actually, never mind');
    const ask = page.getByTestId('send-anyway');
    await ask.waitFor();
    expect(await ask.innerText()).toContain('Send anyway and cancel the pending approval?');
    // Focus is on the safe answer: Enter pressed twice does not cancel the approval.
    expect(await focusedText(page)).toBe('Keep the approval');
    await ask.getByRole('button', { name: 'Keep the approval' }).click();
    expect(await composer(page).inputValue()).toBe('Actually, never mind');
    expect(await page.locator('[data-testid="message"][data-role="user"]').count()).toBe(1);

    gemini.script(textReply('Alright.'));
    await composer(page).press('Enter');
    await ask.getByRole('button', { name: 'Send anyway' }).click();
    await assistantMessages(page).getByText('Alright.').waitFor();
    expect(await page.getByTestId('run-error').count()).toBe(0);
  });

  it('says a failure in plain words with details and Retry, and Retry sends again', async () => {
    // The first answer names an address and a low-level code; the retries that follow get the fake's 500.
    gemini.script(statusReply(500, { message: 'upstream 127.0.0.1:9 said UND_ERR_SOCKET' }));
    const page = await openPage();
    await send(page, 'Say hello');
    // While it waits to try again, it says so in two plain sentences, without Gemini's text or HTTP codes.
    const notice = page.getByTestId('run-notice').first();
    await notice.waitFor();
    expect(await notice.innerText()).toMatch(/^Gemini had a problem answering\. Trying again in \d+ s\.$/);
    expect(await page.getByTestId('run-status').innerText()).toBe('Waiting to try again…');
    const error = page.getByTestId('run-error');
    await error.waitFor({ timeout: 30_000 });
    const words = await error.locator('.run-error__text').innerText();
    expect(words).not.toMatch(/127\.0\.0\.1|UND_ERR|500/);
    expect(await page.getByTestId('run-error-details').isVisible()).toBe(false);
    await expect.poll(() => page.getByTestId('run-notice').count()).toBe(0);
    // The details say what Gemini said; the error's code is for the program, not shown among the words.
    await error.getByText('Details').click();
    const details = await page.getByTestId('run-error-details').innerText();
    expect(details).toContain('HTTP 500');
    expect(details).not.toContain('model_server_error');
    expect(await error.getAttribute('data-code')).toBe('model_server_error');

    gemini.script(textReply('Hello again.'));
    await error.getByTestId('run-error-retry').click();
    await assistantMessages(page).getByText('Hello again.').waitFor();
  });

  it('says it waits to try again only until the next try starts, then what the run is doing', async () => {
    // Gemini fails once; the next try gets no answer at all for now.
    gemini.script(statusReply(503), { kind: 'hang' });
    const page = await openPage();
    await send(page, 'Say hello');
    const status = page.getByTestId('run-status');
    await page.getByTestId('run-notice').waitFor();
    expect(await status.innerText()).toBe('Waiting to try again…');
    // The notice said when the next try starts ("Trying again in 1 s."): from then on it is trying again.
    await expect.poll(() => status.innerText(), { timeout: 8_000 }).toBe('Planning…');
    expect(await page.getByTestId('run-notice').count()).toBe(1);
    // Each Stop below waits until the model holds the request: a hang left in the script would reach the next test.
    await expect.poll(() => gemini.pending()).toBe(0);
    await page.getByTestId('composer-stop').click();
    await page.getByTestId('run-stopped').waitFor();
  });

  it('says Writing… under an answer that is streaming in, not Planning…', async () => {
    gemini.script(textReply('One two three four five six seven eight nine ten.', { chunks: 10, gapMs: 250 }));
    const page = await openPage();
    await send(page, 'Count to ten');
    await assistantMessages(page).getByText('One', { exact: false }).waitFor();
    expect(await page.getByTestId('run-status').innerText()).toBe('Writing…');
    await page.getByTestId('run-usage').waitFor();
  });

  it('while an answer streams in, its cursor follows the last word on the same line (1280 and 420 px)', async () => {
    for (const width of [1280, 420]) {
      gemini.script(
        textReply('Here is a first paragraph.\n\nOne two three four five six seven eight nine ten.', {
          chunks: 12,
          gapMs: 250,
        }),
      );
      const page = await openPage();
      await page.setViewportSize({ width, height: 800 });
      await send(page, 'Count to ten');
      const answer = assistantMessages(page).last();
      await answer.getByText('two', { exact: false }).waitFor();
      /** How far the cursor is from just after the answer's last character: across and down, in px. */
      const offset = await answer.evaluate((message) => {
        if (message.dataset.streaming !== 'true') return 'finished before it was measured';
        const cursor = message.querySelector('.message__cursor');
        const walker = document.createTreeWalker(message, NodeFilter.SHOW_TEXT);
        let last: Text | null = null;
        for (let node = walker.nextNode(); node; node = walker.nextNode())
          if (node.textContent?.trim()) last = node as Text;
        if (!cursor || !last) return 'no cursor or no text';
        const range = document.createRange();
        const end = last.data.trimEnd().length;
        range.setStart(last, end - 1);
        range.setEnd(last, end);
        const char = range.getBoundingClientRect();
        const box = cursor.getBoundingClientRect();
        return {
          across: Math.round(box.left - char.right),
          down: Math.round(box.top + box.height / 2 - (char.top + char.height / 2)),
        };
      });
      expect(offset, `${width} px`).toMatchObject({ across: expect.any(Number), down: expect.any(Number) });
      const { across, down } = offset as { across: number; down: number };
      expect(Math.abs(down), `${width} px: ${down} px below the last word`).toBeLessThanOrEqual(4);
      expect(across, `${width} px: ${across} px after the last word`).toBeGreaterThanOrEqual(0);
      expect(across, `${width} px: ${across} px after the last word`).toBeLessThanOrEqual(12);
      await page.getByTestId('run-usage').waitFor();
    }
  });

  it('a conversation reopened while its answer streams in shows the answer from its first word, once', async () => {
    const answer = 'One two three four five six seven eight nine ten eleven twelve.';
    gemini.script(textReply(answer, { chunks: 12, gapMs: 200 }));
    const page = await openPage();
    await send(page, 'Count to twelve slowly');
    await assistantMessages(page).getByText('two', { exact: false }).waitFor();
    await page.getByTestId('new-conversation').click();
    await page.getByTestId('thread-item').filter({ hasText: 'Count to twelve' }).click();
    // Reopened mid-answer: what streamed before it was opened again is there, not only what came after.
    await page.getByTestId('composer-stop').waitFor();
    await expect.poll(() => assistantMessages(page).first().innerText()).toMatch(/\bOne two/);
    await page.getByTestId('run-usage').waitFor();
    expect(await assistantMessages(page).count()).toBe(1);
    // Nothing twice: the words it streamed before, replayed, and the words after, live, join up once.
    const shown = await assistantMessages(page).innerText();
    expect(shown.split(answer).length - 1, shown).toBe(1);
    expect(shown.split('One').length - 1, shown).toBe(1);
  });

  it('shows the person’s own Stop as stopped, and Escape stops a run', async () => {
    gemini.script({ kind: 'hang' }, { kind: 'hang' });
    const page = await openPage();
    await send(page, 'Take your time');
    await expect.poll(() => gemini.pending()).toBe(1);
    await page.getByTestId('composer-stop').click();
    await page.getByTestId('run-stopped').waitFor();
    expect(await page.getByTestId('run-error').count()).toBe(0);

    await send(page, 'Take your time again');
    await page.getByTestId('composer-stop').waitFor();
    await expect.poll(() => gemini.pending()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('run-stopped').count()).toBe(2);
  });

  it('says "still waiting" when the model is silent, with Keep waiting and Stop', async () => {
    gemini.script({ kind: 'hang' });
    const page = await newPage();
    await page.clock.install();
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    await send(page, 'Think hard');
    // The run's own first event resets the quiet time: the clock jumps only after it has arrived.
    await page.getByTestId('run-status').getByText('Planning…').waitFor();
    await page.clock.fastForward(26_000);
    const silent = page.getByTestId('run-silent');
    await silent.waitFor();
    await silent.getByRole('button', { name: 'Keep waiting' }).click();
    await page.getByTestId('run-status').waitFor();
    await page.clock.fastForward(26_000);
    await expect.poll(() => gemini.pending()).toBe(0);
    await silent.getByRole('button', { name: 'Stop' }).click();
    await page.getByTestId('run-stopped').waitFor();
  });

  it('a conversation opened while its run works is not called silent at once', async () => {
    gemini.script({ kind: 'hang' });
    const page = await openPage();
    await send(page, 'Take all the time you need');
    await page.getByTestId('composer-stop').waitFor();
    const other = await openPage();
    await other.getByTestId('thread-item').filter({ hasText: 'Take all the time' }).click();
    await other.getByTestId('composer-stop').waitFor();
    // Its earlier events were not seen here: the quiet time starts when the window opens the conversation.
    await other.getByTestId('run-status').waitFor();
    expect(await other.getByTestId('run-silent').count()).toBe(0);
    await expect.poll(() => gemini.pending()).toBe(0);
    await page.getByTestId('composer-stop').click();
    await page.getByTestId('run-stopped').waitFor();
  });
});

describe('a send that cannot reach Deputy', () => {
  it('keeps the words in the composer and offers Retry', async () => {
    const host = await startHost();
    try {
      const page = await newPage();
      await page.goto(`${host.url}/#token=${host.token}`);
      await composer(page).waitFor();
      await composer(page).fill('Remember this sentence');
      await host.stop();
      await composer(page).press('Enter');
      await page.getByTestId('run-error').waitFor();
      await expect.poll(() => composer(page).inputValue()).toBe('Remember this sentence');
      await page.getByTestId('run-error-retry').waitFor();
    } finally {
      await host.stop();
    }
  });
});
