import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply, textReply } from '../fakes/gemini/script';
import type { FakeGemini } from '../fakes/gemini/types';
import { apiOf, askOver, expireApproval, putSettings } from './support/api';
import { axeViolations } from './support/axe';
import { startHost, type RunningHost } from './support/host';
import {
  addTaskCard,
  focusRing,
  focusedId,
  focusedTag,
  focusedTestId,
  focusedText,
  send,
  usePages,
} from './support/pages';

const { newPage } = usePages();
const SHOTS = process.env.DEPUTY_SHOTS;

describe('the audit viewer against the headless host', () => {
  let gemini: FakeGemini;
  let host: RunningHost;

  beforeAll(async () => {
    gemini = await startFakeGemini();
    host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key' });
    await putSettings(host, { trustLevel: 'autonomous' });
  });

  afterAll(async () => {
    await host?.stop();
    await gemini?.close();
  });

  const rows = (page: Page) => page.getByTestId('audit-row');
  const detail = (page: Page) => page.getByTestId('audit-detail');

  it('a run → the viewer → filter → the detail → verify an assumption → undo the task → the chat and the list show it', async () => {
    gemini.script(
      callReply('add_task', {
        description: 'Renew passport',
        due: '2026-11-27',
        intent: 'Add the passport task',
        reasoning: 'The person asked for it by Friday.',
        confidence: 0.95,
        assumptions: [{ statement: 'Friday is the 27th', category: 'intent', evidence: ['by Friday'] }],
      }),
      textReply('Added it.'),
    );
    const page = await newPage();
    await page.goto(`${host.url}/#token=${host.token}`);
    await send(page, 'Add a task to renew my passport by Friday');
    await addTaskCard(page).and(page.locator('[data-state="completed"]')).waitFor();

    // From the chat's tool card to its entry.
    await addTaskCard(page).locator('summary').click();
    await addTaskCard(page).getByTestId('tool-call-audit').click();
    await detail(page).getByRole('heading', { name: 'Added task' }).waitFor();
    expect(page.url()).toMatch(/#\/audit\/[0-9a-f-]{36}$/);
    // The row says what the action was about, and the open entry scrolls in its pane, not the page.
    await expect
      .poll(() => rows(page).nth(1).getByRole('button').innerText())
      .toBe('Added task “Renew passport”');
    expect(
      await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight),
    ).toBeLessThanOrEqual(0);

    // Filter: the search finds it (and the run, by the words it was asked), a status with nothing in it
    // empties the table.
    await page.getByTestId('audit-search').fill('passport');
    await expect.poll(() => rows(page).count()).toBe(2);
    await page.getByTestId('audit-filter-status').selectOption('failed');
    await expect.poll(() => rows(page).count()).toBe(0);
    expect(await page.getByTestId('audit-empty').innerText()).toContain('No entries match');
    // The entry open until then is not among the results: its detail goes with it.
    await expect.poll(() => detail(page).count()).toBe(0);
    await page.getByTestId('audit-filter-status').selectOption('');
    await expect.poll(() => rows(page).count()).toBe(2);
    await page.getByTestId('audit-search').fill('');
    await expect.poll(() => rows(page).count()).toBe(2);
    // The tool as a person writes it: "Add task" finds add_task, and the box keeps what was typed.
    await page.getByTestId('audit-filter-tool').fill('Add task');
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await page.getByTestId('audit-filter-tool').inputValue()).toBe('Add task');
    await page.getByTestId('audit-filter-tool').fill('');
    await expect.poll(() => rows(page).count()).toBe(2);

    // The run's own row says what it was asked, and what it did.
    const runRow = 'Asked “Add a task to renew my passport by Friday”';
    expect(await rows(page).first().getByRole('button').innerText()).toBe(runRow);
    expect(await rows(page).first().locator('.audit-row__decision').innerText()).toBe('Used tools');

    // A pointer: a click anywhere on a row opens it, not only on its "What".
    await rows(page).first().locator('.audit-row__time').click();
    await detail(page).getByRole('heading', { name: runRow }).waitFor();

    // Keyboard: the rows are one tab stop; arrows move, Enter opens. The row with the focus shows its ring whole,
    // not cut to a sliver by the cell that shortens its words.
    await rows(page).first().getByRole('button').focus();
    await page.keyboard.press('ArrowDown');
    expect(await focusRing(page)).toBe('whole');
    await page.keyboard.press('Enter');
    await detail(page).getByRole('heading', { name: 'Added task' }).waitFor();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await detail(page).getByRole('heading', { name: runRow }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await detail(page).getByRole('heading', { name: 'Added task' }).waitFor();

    // The detail: why, the assumption (confirmed), the before/after.
    await expect.poll(() => detail(page).innerText()).toContain('The person asked for it by Friday.');
    await expect.poll(() => detail(page).getByTestId('audit-diff').innerText()).toContain('Renew passport');
    const assumption = detail(page).getByTestId('audit-assumption');
    // Correct… opens a box with focus in it; Escape closes it and gives focus back.
    await assumption.getByRole('button', { name: 'Correct…' }).click();
    await expect.poll(() => focusedTag(page)).toBe('TEXTAREA');
    await page.keyboard.press('Escape');
    await expect.poll(() => focusedText(page)).toBe('Correct…');
    await assumption.getByRole('button', { name: 'Confirm' }).click();
    await expect
      .poll(() => assumption.getByTestId('audit-assumption-verdict').innerText())
      .toBe('You confirmed it');

    expect(JSON.stringify(await axeViolations(page))).toBe('[]');

    // Limited to this conversation: the chip names it by its title, as the chat's list does, and takes it off.
    const { threads } = (await (
      await fetch(`${host.url}/api/threads`, { headers: { authorization: `Bearer ${host.token}` } })
    ).json()) as { threads: { title: string }[] };
    await detail(page).getByRole('button', { name: 'Only this conversation’s entries' }).click();
    const chip = page.locator('.audit-filters__scope');
    const asked = threads.find((thread) => thread.title.includes('passport'));
    expect(asked).toBeDefined();
    await expect.poll(() => chip.innerText()).toBe(`Conversation: ${asked?.title} ✕`);
    await chip.click();
    await expect.poll(() => chip.count()).toBe(0);

    // Undo the task; the entry says so.
    await detail(page).getByTestId('audit-undo').click();
    await expect.poll(() => detail(page).getByTestId('audit-detail-status').innerText()).toBe('Undone');
    await expect.poll(() => page.getByTestId('audit-notice').innerText()).toContain('Undone');

    // Check integrity: the chain holds after all of it. Its line and the export's are live regions there before
    // their words come (a screen reader may not say one that appears already filled), taking no room while empty.
    const emptyRegions = await page
      .locator('.audit-screen__chain')
      .evaluateAll((regions) =>
        regions.map((region) => [
          getComputedStyle(region).display,
          region.getBoundingClientRect().height <= 1,
        ]),
      );
    expect(emptyRegions).toEqual([
      ['block', true],
      ['block', true],
    ]);
    await page.getByTestId('audit-check').click();
    await expect.poll(() => page.getByTestId('audit-chain').innerText()).toMatch(/^Intact: \d+ entries/);

    // Back to the conversation: its card says the action was undone.
    await detail(page).getByTestId('audit-open-chat').click();
    await addTaskCard(page).and(page.locator('[data-undone="true"]')).waitFor();
    expect(await addTaskCard(page).getByTestId('tool-call-state').innerText()).toBe('Undone');

    // And the task list no longer has it.
    gemini.script(callReply('list_tasks', { status: 'all' }), textReply('Your list is empty.'));
    await send(page, 'What is on my task list?');
    const list = page.locator('[data-testid="tool-call"][data-tool="list_tasks"]');
    await list.and(page.locator('[data-state="completed"]')).waitFor();
    await list.locator('summary').click();
    await expect.poll(() => list.innerText()).toContain('"tasks": []');

    // Its entry: a read the model gave no reason for says so once, not as four empty lines, and that it needed no one.
    await list.getByTestId('tool-call-audit').click();
    await expect
      .poll(() => detail(page).getByTestId('audit-no-why').innerText())
      .toBe('Nothing recorded: Deputy was given no intent or reasoning for this, and it reached no one.');
    expect(await detail(page).getByText('Not needed (it only reads)').count()).toBe(1);
  });

  it('by keyboard from the chat’s card to its entry: the entry’s title has the focus, and Tab goes on in the entry, not from the top of the page (1280 and 420 px)', async () => {
    for (const width of [1280, 420]) {
      gemini.script(
        callReply('add_task', { description: `Water the plants (${width})`, confidence: 0.95 }),
        textReply('Added it.'),
      );
      const page = await newPage();
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${host.url}/#token=${host.token}`);
      await send(page, `Add a task to water the plants (${width})`);
      const card = addTaskCard(page).and(page.locator('[data-state="completed"]'));
      await card.waitFor();
      await card.locator('summary').focus();
      await page.keyboard.press('Enter');
      await card.getByTestId('tool-call-audit').focus();
      await page.keyboard.press('Enter');
      await detail(page)
        .getByRole('heading', { name: `Added task “Water the plants (${width})”` })
        .waitFor();
      await expect.poll(() => focusedId(page)).toBe('audit-detail-title');
      // Where reading starts, not a box to type in: the title has no ring; the control after it has one.
      expect(await focusRing(page)).toBe('no ring');
      await page.keyboard.press('Tab');
      expect(await focusedTestId(page)).toBe('audit-undo');
      expect(await focusRing(page)).toBe('whole');
    }
  });

  it('a verdict on an assumption is said with that assumption, not beside Undo, where “Confirmed.” read as an undo confirmed', async () => {
    gemini.script(
      callReply('add_task', {
        description: 'Book the vet',
        intent: 'Add the vet task',
        reasoning: 'The person asked for it.',
        confidence: 0.95,
        assumptions: [
          { statement: 'The vet is the one on Mill Lane', category: 'intent', evidence: ['the vet'] },
          { statement: 'The cat is due a booster', category: 'intent', evidence: ['book'] },
        ],
      }),
      textReply('Added it.'),
    );
    const page = await newPage();
    await page.goto(`${host.url}/#token=${host.token}`);
    await send(page, 'Add a task to book the vet');
    const card = addTaskCard(page).and(page.locator('[data-state="completed"]'));
    await card.waitFor();
    await card.locator('summary').click();
    await card.getByTestId('tool-call-audit').click();
    const vet = detail(page).getByTestId('audit-assumption').first();
    const booster = detail(page).getByTestId('audit-assumption').nth(1);
    await booster.waitFor();
    const undoBarSays = () => detail(page).getByTestId('audit-notice').innerText();
    // Both live regions are there, empty, before anything is said in them: one shown only once it has words
    // may not be heard.
    expect(await booster.getByRole('status').count()).toBe(2);
    // Empty, it takes no room.
    expect((await booster.getByTestId('audit-assumption-notice').boundingBox())?.height).toBe(0);

    await vet.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => vet.getByTestId('audit-assumption-verdict').innerText()).toBe('You confirmed it');
    expect(await undoBarSays()).toBe('');
    expect(await vet.getByTestId('audit-assumption-notice').innerText()).toBe('');

    await booster.getByRole('button', { name: 'Correct…' }).click();
    await booster.getByLabel('What is true instead').fill('The booster was done in March');
    await booster.getByRole('button', { name: 'Save correction' }).click();
    await expect
      .poll(() => booster.getByTestId('audit-assumption-notice').innerText())
      .toBe('Deputy will remember the correction.');
    expect(await booster.getByTestId('audit-assumption-verdict').innerText()).toBe(
      'You corrected it: The booster was done in March',
    );
    expect(await undoBarSays()).toBe('');
    expect(await vet.getByTestId('audit-assumption-notice').innerText()).toBe('');
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
  });

  it('the conversation chip follows a rename: made in the chat’s window, once the viewer is focused again; made in the same tab, once it is back on the viewer', async () => {
    gemini.script(textReply('It is due on the 3rd.'));
    const threadId = await askOver(host, 'When is the quarterly report due?');
    const api = apiOf(host);
    const { entries } = (await (await api(`/api/audit?threadId=${threadId}`)).json()) as {
      entries: { id: string }[];
    };
    const { thread } = (await (await api(`/api/threads/${threadId}`)).json()) as {
      thread: { title: string };
    };
    const page = await newPage();
    await page.goto(`${host.url}/#/audit/${entries[0]?.id}&token=${host.token}`);
    await detail(page).getByRole('button', { name: 'Only this conversation’s entries' }).click();
    const chip = page.locator('.audit-filters__scope');
    await expect.poll(() => chip.innerText()).toBe(`Conversation: ${thread.title} ✕`);

    // No event says a conversation was renamed: the viewer's window looks again when it gets the focus back.
    await api(`/api/threads/${threadId}`, {
      method: 'PATCH',
      body: JSON.stringify({ title: 'Quarterly report' }),
    });
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => chip.innerText()).toBe('Conversation: Quarterly report ✕');

    // In a browser tab the viewer and the chat can take turns: renamed in the chat, the chip follows on the way back.
    await detail(page).getByTestId('audit-open-chat').click();
    const row = page.locator(`[data-testid="thread-row"][data-thread-id="${threadId}"]`);
    await row.getByTestId('thread-rename').click();
    await row.getByTestId('thread-rename-input').fill('Q3 report');
    await row.getByTestId('thread-rename-input').press('Enter');
    await page.getByTestId('thread-item').filter({ hasText: 'Q3 report' }).waitFor();
    await page.goBack();
    await expect.poll(() => chip.innerText()).toBe('Conversation: Q3 report ✕');
  });

  it('an undo over a later change: the viewer says what changed, Undo anyway waits for approval, approving undoes it (dark, 0 axe); Export streams to the picked file', async () => {
    const run = async (prompt: string) => {
      const response = await fetch(`${host.url}/api/agent/run`, {
        method: 'POST',
        headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt }),
      });
      return (await response.json()) as { output?: { task?: { id: string } } };
    };
    const meta = { intent: 'Keep the dentist on the list', confidence: 0.9 };
    gemini.script(callReply('add_task', { description: 'Book the dentist', ...meta }), textReply('Added.'));
    const id = (await run('Add: book the dentist')).output?.task?.id ?? '';
    gemini.script(
      callReply('update_task', { id, description: 'Book the dentist for Tuesday', ...meta }),
      textReply('Changed.'),
    );
    await run('Make it Tuesday');

    const page = await newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    // A file picker that keeps what is written, write by write, as the real one would write to disk.
    await page.addInitScript(() => {
      const target = window as unknown as { exported: string[]; showSaveFilePicker: unknown };
      target.exported = [];
      target.showSaveFilePicker = async () => ({
        createWritable: async () => ({
          write: async (data: string) => void target.exported.push(data),
          close: async () => void target.exported.push('<closed>'),
          abort: async () => void target.exported.push('<aborted>'),
        }),
      });
    });
    await page.goto(`${host.url}/#/audit&token=${host.token}`);
    await page.getByTestId('audit-search').fill('dentist');
    const added = page.locator('[data-testid="audit-row"][data-tool="add_task"]');
    // The two actions, and the run that asked for the first.
    await expect.poll(() => rows(page).count()).toBe(3);
    await added.getByRole('button').click();
    await detail(page).getByTestId('audit-undo').click();
    const changed = detail(page).getByTestId('audit-undo-changed');
    await expect.poll(() => changed.innerText()).toMatch(/changed after Deputy's action \(description\)/);
    // Focus follows the question (its words, not "Undo anyway": a second Enter must not undo), never the body.
    await expect.poll(() => focusedTestId(page)).toBe('audit-undo-changed');
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');

    await detail(page).getByTestId('audit-undo-force').click();
    await expect
      .poll(() => detail(page).getByTestId('audit-undo-waiting').innerText())
      .toMatch(
        /^This undo waits for your approval: it would also reverse the later change to description\.$/,
      );
    await expect.poll(() => focusedTestId(page)).toBe('audit-undo-waiting');
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    // The same approval every surface shows.
    const approvals = (await (
      await fetch(`${host.url}/api/actions/pending`, { headers: { authorization: `Bearer ${host.token}` } })
    ).json()) as { approvals: { tool: string; preview: { title: string } }[] };
    expect(approvals.approvals).toContainEqual(
      expect.objectContaining({
        tool: 'add_task',
        preview: expect.objectContaining({ title: expect.stringMatching(/^Undo/) }),
      }),
    );
    // After a reload the action says an undo of it waits, and its button brings back the same question.
    await page.reload();
    await page.getByTestId('audit-search').fill('dentist');
    // The action itself, not its undo (an entry of the same tool): its row's words start with the tool's.
    const original = added.getByRole('button', { name: /^Added task/ });
    await expect.poll(() => original.count()).toBe(1);
    await original.click();
    await expect
      .poll(() => detail(page).getByTestId('audit-undo-pending').innerText())
      .toBe('An undo of this waits for your approval.');
    await detail(page).getByRole('button', { name: 'Answer the undo…' }).click();
    await detail(page).getByTestId('audit-undo-waiting').waitFor();
    expect(
      (
        (await (
          await fetch(`${host.url}/api/actions/pending`, {
            headers: { authorization: `Bearer ${host.token}` },
          })
        ).json()) as { approvals: unknown[] }
      ).approvals,
    ).toHaveLength(approvals.approvals.length);
    await detail(page).getByTestId('audit-undo-approve').click();
    await expect.poll(() => detail(page).getByTestId('audit-detail-status').innerText()).toBe('Undone');
    // It says what became of the undo, and focus is on the entry's title, not lost.
    await expect.poll(() => page.getByTestId('audit-notice').innerText()).not.toBe('');
    await expect.poll(() => focusedId(page)).toBe('audit-detail-title');

    // The export is of what the filter shows (here: the search for "dentist").
    await page.getByTestId('audit-export-jsonl').click();
    await expect.poll(() => page.getByTestId('audit-exported').innerText()).toMatch(/^Exported/);
    const written = await page.evaluate(() => (window as unknown as { exported: string[] }).exported);
    expect(written.at(-1)).toBe('<closed>');
    const streamed = await (
      await fetch(`${host.url}/api/audit/export?format=jsonl&q=dentist`, {
        headers: { authorization: `Bearer ${host.token}` },
      })
    ).text();
    expect(written.slice(0, -1).join('')).toBe(streamed);
  });

  it('gives the table the width until an entry opens, every column heading whole, and folds the filters away at 420 px', async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${host.url}/#/audit&token=${host.token}`);
    await rows(page).first().waitFor();
    /** The column headings shown, and whether each is cut short. */
    const headings = () =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('[role="columnheader"]')]
          .filter((cell) => cell.offsetWidth > 0)
          .map((cell) => `${cell.innerText}${cell.scrollWidth > cell.clientWidth ? ' (cut)' : ''}`),
      );
    const tableWidth = async () =>
      (await page.getByRole('table', { name: 'Audit entries' }).boundingBox())?.width ?? 0;
    expect(await tableWidth()).toBeGreaterThan(1200);
    expect(await headings()).toEqual([
      'Time',
      'What',
      'To whom or where',
      'Status',
      'Decision and rule',
      'Approved by',
    ]);
    // An entry open beside it: the table keeps the columns it has room for, whole.
    await rows(page).first().getByRole('button').click();
    await detail(page).waitFor();
    expect(await tableWidth()).toBeLessThan(900);
    expect(await headings()).toEqual(['Time', 'What', 'Status', 'Decision and rule']);

    // Narrow: the search stays, the other filters fold behind a button that says how many are on.
    await page.setViewportSize({ width: 420, height: 800 });
    await page.goto(`${host.url}/#/audit&token=${host.token}`);
    await rows(page).first().waitFor();
    // A row: what was done takes its width, its time under it in small print, its status beside both.
    const row = rows(page).first();
    const box = async (selector: string) =>
      (await row.locator(selector).boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };
    const what = await box('[role="cell"]:has(.audit-row__open)');
    const time = await box('.audit-row__time');
    const status = await box('.audit-status');
    expect(what.width).toBeGreaterThan(240);
    expect(time.y).toBeGreaterThanOrEqual(what.y + what.height - 2);
    expect(status.x).toBeGreaterThanOrEqual(what.x + what.width);
    expect(await row.locator('.audit-row__time').isVisible()).toBe(true);
    // The header in two rows: the title with Back, then its three actions side by side, each whole.
    const rowsOf = (selector: string) =>
      page.locator(selector).evaluateAll((elements) =>
        elements.map((element) => ({
          top: Math.round(element.getBoundingClientRect().top),
          isWhole: element.scrollWidth <= element.clientWidth && element.getBoundingClientRect().right <= 420,
        })),
      );
    const heading = await rowsOf('.audit-screen__header > h1, [data-testid="audit-back"]');
    const actions = await rowsOf('.audit-screen__header button');
    expect(actions.map((action) => action.isWhole)).toEqual([true, true, true]);
    expect(new Set(actions.map((action) => action.top)).size).toBe(1);
    expect(heading[0]?.top).toBeLessThan(actions[0]?.top ?? 0);
    expect(Math.abs((heading[0]?.top ?? 0) - (heading[1]?.top ?? 0))).toBeLessThanOrEqual(8);
    const filters = page.getByRole('search');
    expect((await filters.boundingBox())?.height ?? 0).toBeLessThan(80);
    expect(await page.getByTestId('audit-filter-status').isVisible()).toBe(false);
    await page.getByTestId('audit-search').focus();
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('audit-filters-toggle');
    const toggle = page.getByTestId('audit-filters-toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('audit-filter-status');
    await page.getByTestId('audit-filter-status').selectOption('completed');
    await expect.poll(() => toggle.innerText()).toBe('Filters (1 on)');
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    await toggle.click();
    expect(await page.getByTestId('audit-filter-status').isVisible()).toBe(false);
  });

  it('says times as the computer’s locale does, 12-hour or 24-hour, each whole in its column, at 1280 px with and without an entry open', async () => {
    for (const locale of ['en-US', 'en-GB']) {
      const page = await newPage({ locale, viewport: { width: 1280, height: 800 } });
      await page.goto(`${host.url}/#/audit&token=${host.token}`);
      await rows(page).first().waitFor();
      const times = () =>
        page.locator('.audit-row__time').evaluateAll((cells) =>
          cells.map((cell) => ({
            words: (cell as HTMLElement).innerText,
            isCut: cell.scrollWidth > cell.clientWidth,
            spare: cell.clientWidth - cell.scrollWidth,
          })),
        );
      for (const isOpen of [false, true]) {
        if (isOpen) {
          await rows(page).first().getByRole('button').click();
          await detail(page).waitFor();
        }
        const shown = await times();
        expect(shown.length).toBeGreaterThan(0);
        for (const time of shown) {
          // en-US: "Nov 29, 7:04:47 PM"; en-GB: "29 Nov, 19:04:47".
          expect(time.words).toMatch(
            locale === 'en-US'
              ? /^[A-Z][a-z]{2} \d+, \d{1,2}:\d\d:\d\d\s[AP]M$/
              : /^\d+ [A-Z][a-z]{2,3}, \d\d:\d\d:\d\d$/,
          );
          expect(time.isCut, `${locale}: “${time.words}” cut short`).toBe(false);
          // A 24-hour time is not set in a column made for a 12-hour one.
          if (locale === 'en-GB') expect(time.spare).toBeLessThan(40);
        }
      }
      await page.close();
    }
  });

  it('at 420 px the opened filters stand in two even columns, the Tool across both, From beside To, and Filters level with the search (light and dark, 0 axe)', async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 420, height: 800 });
    await page.goto(`${host.url}/#/audit&token=${host.token}`);
    await page.getByTestId('audit-search').waitFor();
    await page.getByTestId('audit-filters-toggle').click();
    const boxes = await page.getByRole('search').evaluate((bar) =>
      Object.fromEntries(
        [...bar.querySelectorAll('.audit-filters__field')].map((field) => {
          const box = field.querySelector('input, select')?.getBoundingClientRect();
          return [
            field.querySelector('span')?.textContent ?? '',
            {
              top: Math.round(box?.top ?? -1),
              left: Math.round(box?.left ?? -1),
              right: Math.round(box?.right ?? -1),
              bottom: Math.round(box?.bottom ?? -1),
            },
          ];
        }),
      ),
    );
    const at = (name: string) => boxes[name] ?? { top: -1, left: -1, right: -1, bottom: -1 };
    const said = JSON.stringify(boxes);
    // Side by side in pairs, each pair on a line of its own.
    for (const [left, right] of [
      ['Status', 'Category'],
      ['Decision', 'Risk'],
      ['From', 'To'],
    ] as const) {
      expect(at(left).top, said).toBe(at(right).top);
      expect(at(left).right, said).toBeLessThan(at(right).left);
    }
    expect(new Set(['Status', 'Decision', 'Tool', 'From'].map((name) => at(name).top)).size, said).toBe(4);
    // Two columns: every left field starts where the search does, every right field ends where the Tool does.
    for (const name of ['Status', 'Decision', 'Tool', 'From'])
      expect(at(name).left, said).toBe(at('Search').left);
    for (const name of ['Category', 'Risk', 'To']) expect(at(name).right, said).toBe(at('Tool').right);
    expect(at('Tool').right, said).toBeLessThanOrEqual(420 - 8);
    // The Filters button is as high as the search box beside it, on the same line.
    const toggle = await page.getByTestId('audit-filters-toggle').boundingBox();
    expect(Math.round((toggle?.y ?? 0) + (toggle?.height ?? 0))).toBe(at('Search').bottom);
    expect(Math.round(toggle?.y ?? 0)).toBe(at('Search').top);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(JSON.stringify(await axeViolations(page))).toBe('[]');
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/audit-filters-open-420-${colorScheme}.png` });
    }
  });

  it('the filter bar’s fields are one height, their labels in one line at 1280 px: the From and To dates sit no higher than the rest (1280 and 420 px)', async () => {
    const page = await newPage();
    await page.goto(`${host.url}/#/audit&token=${host.token}`);
    await page.getByTestId('audit-search').waitFor();
    for (const width of [1280, 420]) {
      await page.setViewportSize({ width, height: 800 });
      const toggle = page.getByTestId('audit-filters-toggle');
      if (await toggle.isVisible()) await toggle.click();
      const fields = await page.getByRole('search').evaluate((bar) =>
        [...bar.querySelectorAll('.audit-filters__field')].map((field) => {
          const control = field.querySelector('input, select')?.getBoundingClientRect();
          const label = field.querySelector('span')?.getBoundingClientRect();
          return {
            name: field.querySelector('span')?.textContent,
            top: Math.round(control?.top ?? 0),
            height: Math.round(control?.height ?? 0),
            labelTop: Math.round(label?.top ?? 0),
          };
        }),
      );
      const first = fields[0];
      expect(
        fields
          .filter((field) => field.height !== first?.height)
          .map((field) => `${field.name}: ${field.height} px`),
        `${width} px, as high as ${first?.name}: ${first?.height} px`,
      ).toEqual([]);
      if (width === 1280)
        expect(
          fields
            .filter((field) => field.top !== first?.top || field.labelTop !== first.labelTop)
            .map((field) => `${field.name}: field at ${field.top}, label at ${field.labelTop}`),
          `1280 px, in line with ${first?.name}: field at ${first?.top}, label at ${first?.labelTop}`,
        ).toEqual([]);
    }
  });

  it('the entry’s other entries of its run: a link that takes two lines starts each at the left, as the one-line ones do (420 px)', async () => {
    gemini.script(
      callReply('add_task', { description: 'Book the boiler service', intent: 'Add it', confidence: 0.95 }),
      textReply('Added.'),
    );
    const prompt =
      'Please add a task to book the annual boiler service with the usual engineer before winter';
    await apiOf(host)('/api/agent/run', { method: 'POST', body: JSON.stringify({ prompt }) });
    const page = await newPage();
    await page.setViewportSize({ width: 420, height: 800 });
    await page.goto(`${host.url}/#/audit&token=${host.token}`);
    await page.getByTestId('audit-search').fill('boiler');
    const row = page.locator('[data-testid="audit-row"][data-tool="add_task"]');
    await expect.poll(() => row.count()).toBe(1);
    await row.getByRole('button').click();
    const links = detail(page).locator('.audit-related button');
    await links.first().waitFor();
    /** Each link's lines: how far each starts from the left of the list. */
    const lines = await links.evaluateAll((buttons) =>
      buttons.map((button) => {
        const left = button.closest('ul')?.getBoundingClientRect().left ?? 0;
        const words = document.createRange();
        words.selectNodeContents(button);
        // One rectangle per text node per line: a line starts where its leftmost one does.
        const starts = new Map<number, number>();
        for (const part of words.getClientRects()) {
          const line = Math.round(part.top);
          starts.set(line, Math.min(starts.get(line) ?? Infinity, Math.round(part.left - left)));
        }
        return [...starts.values()];
      }),
    );
    // The run's prompt is long enough to take two lines here: the case that was centred.
    expect(lines.some((starts) => starts.length > 1)).toBe(true);
    expect(lines.flat().filter((start) => start !== 0)).toEqual([]);
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
  });

  /** Runs `prompt` supervised, so that its add_task call waits for an approval; answers that approval's id. */
  async function askFirst(prompt: string, description: string): Promise<string> {
    await putSettings(host, { trustLevel: 'supervised' });
    try {
      gemini.script(callReply('add_task', { description, intent: `Add ${description}`, confidence: 0.9 }));
      const paused = (await (
        await apiOf(host)('/api/agent/run', { method: 'POST', body: JSON.stringify({ prompt }) })
      ).json()) as { approval?: { id: string } };
      return paused.approval?.id ?? '';
    } finally {
      await putSettings(host, { trustLevel: 'autonomous' });
    }
  }

  /** The viewer in a new page `width` px wide in `colorScheme`, searched for `search`. */
  async function searchedAt(width: number, colorScheme: 'light' | 'dark', search: string): Promise<Page> {
    const page = await newPage();
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme });
    await page.goto(`${host.url}/#/audit&token=${host.token}`);
    await page.getByTestId('audit-search').fill(search);
    return page;
  }

  /**
   * At 1280 and 420 px, light and dark: the one add_task row `search` finds reads `words` in a neutral tone,
   * whole in its column and in the detail, with no Undo to offer and `output` as its output; the Status filter
   * offers it by those words, and Failed does not list it.
   */
  async function expectNotDone(search: string, words: string, shot: string, output: string): Promise<void> {
    for (const width of [1280, 420])
      for (const colorScheme of ['light', 'dark'] as const) {
        const page = await searchedAt(width, colorScheme, search);
        const row = page.locator('[data-testid="audit-row"][data-tool="add_task"]');
        await expect.poll(() => row.count()).toBe(1);
        const badge = row.locator('.audit-status');
        expect(await badge.innerText()).toBe(words);
        expect(await badge.getAttribute('class')).toContain('audit-status--neutral');
        // Whole in its column, not cut off by the cell.
        expect(
          await badge.evaluate(
            (shown) =>
              shown.getBoundingClientRect().right <=
              (shown.parentElement?.getBoundingClientRect().right ?? 0) + 0.5,
          ),
        ).toBe(true);
        if (SHOTS)
          await page.screenshot({ path: `${SHOTS}/audit-${shot}-table-${width}-${colorScheme}.png` });
        await row.getByRole('button').click();
        await expect.poll(() => detail(page).getByTestId('audit-detail-status').innerText()).toBe(words);
        expect(await detail(page).getByTestId('audit-undo-why-not').innerText()).toContain('It was not done');
        expect(JSON.stringify(await axeViolations(page))).toBe('[]');
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/audit-${shot}-${width}-${colorScheme}.png` });
        // Its output in the person's words, never what Deputy told the model.
        const shownOutput = detail(page).getByTestId('audit-detail-output');
        expect(await shownOutput.innerText()).toBe(output);
        if (SHOTS) {
          await shownOutput.scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${SHOTS}/audit-${shot}-output-${width}-${colorScheme}.png` });
        }

        // The Status filter offers it by the same words, and Failed no longer lists it.
        const toggle = page.getByTestId('audit-filters-toggle');
        if (await toggle.isVisible()) await toggle.click();
        const status = page.getByTestId('audit-filter-status');
        expect(await status.locator('option').allInnerTexts()).toContain(words);
        await status.selectOption({ label: 'Failed' });
        await expect.poll(() => row.count()).toBe(0);
        await status.selectOption({ label: words });
        await expect.poll(() => row.count()).toBe(1);
      }
  }

  it('an action whose approval was turned down reads “Turned down”, not “Failed”, in the table, the detail and the Status filter (1280 and 420 px, light and dark, 0 axe)', async () => {
    const approvalId = await askFirst('Add: water the ferns', 'Water the ferns');
    // Turned down, the run goes on: told why, the model answers.
    gemini.script(textReply('Left it.'));
    const rejected = await apiOf(host)(`/api/actions/${approvalId}/reject`, {
      method: 'POST',
      body: JSON.stringify({ reason: 'They are plastic' }),
    });
    expect(rejected.status).toBe(200);
    await expectNotDone(
      'ferns',
      'Turned down',
      'turned-down',
      'You turned this down; it was not done. Your reason: They are plastic.',
    );
  });

  it('an action whose approval expired unanswered reads “Expired”, as does the run that ended for it, not “Failed” (1280 and 420 px, light and dark, 0 axe)', async () => {
    const approvalId = await askFirst('Add: water the cactus', 'Water the cactus');
    await expireApproval(host, approvalId);
    await expectNotDone(
      'cactus',
      'Expired',
      'expired',
      'The approval waited too long and expired, so Deputy did not do it.',
    );

    const page = await newPage();
    await page.goto(`${host.url}/#/audit&token=${host.token}`);
    await page.getByTestId('audit-search').fill('cactus');
    const run = page.locator('[data-testid="audit-row"][data-tool="agent_decision"]');
    await expect.poll(() => run.locator('.audit-status').innerText()).toBe('Expired');
    expect(await run.locator('.audit-status').getAttribute('class')).toContain('audit-status--neutral');
    // The run's own output says when the approval expired as the person reads times, not as stored.
    await run.getByRole('button').click();
    const output = detail(page).getByTestId('audit-detail-output');
    await expect.poll(() => output.innerText()).toContain('expired at');
    expect(await output.innerText()).toContain('The approval for “Add a task: Water the cactus”');
    expect(await output.innerText()).not.toMatch(/\d{4}-\d\d-\d\dT/);
    if (SHOTS)
      for (const width of [1280, 420])
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.setViewportSize({ width, height: 800 });
          await page.emulateMedia({ colorScheme });
          await output.scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${SHOTS}/audit-expired-run-output-${width}-${colorScheme}.png` });
        }
  });

  it('an action held back to ask a question reads “Not done”, and Failed does not list it; the Status filter offers every status the table shows (1280 and 420 px, light and dark, 0 axe)', async () => {
    gemini.script(
      callReply('add_task', { description: 'Repot the orchid', intent: 'Add it', confidence: 0.3 }),
    );
    await askOver(host, 'Add: repot the orchid');
    await expectNotDone(
      'orchid',
      'Not done',
      'not-done',
      'Deputy was only 30% sure what you wanted, so it asked you instead of doing this.',
    );

    const page = await newPage();
    await page.goto(`${host.url}/#/audit&token=${host.token}`);
    await rows(page).first().waitFor();
    expect(await page.getByTestId('audit-filter-status').locator('option').allInnerTexts()).toEqual([
      'Any status',
      'Done',
      'Pending',
      'Failed',
      'Not done',
      'Turned down',
      'Expired',
      'Stopped',
      'Undone',
    ]);
  });

  it('an action’s detail says the risk it was judged at, as the Risk filter does; its run’s detail says none (1280 and 420 px, light and dark, 0 axe)', async () => {
    gemini.script(
      callReply('add_task', { description: 'Water the basil', intent: 'Add it', confidence: 0.9 }),
      textReply('Added it.'),
    );
    await askOver(host, 'Add: water the basil');
    for (const width of [1280, 420])
      for (const colorScheme of ['light', 'dark'] as const) {
        const page = await searchedAt(width, colorScheme, 'basil');
        const action = page.locator('[data-testid="audit-row"][data-tool="add_task"]');
        await expect.poll(() => action.count()).toBe(1);
        await action.getByRole('button').click();
        const risk = detail(page).getByTestId('audit-detail-risk');
        await expect.poll(() => risk.count()).toBe(1);
        expect(await risk.innerText()).toBe('Low');
        expect(
          await detail(page)
            .locator('dt', { hasText: /^Risk$/ })
            .count(),
        ).toBe(1);
        expect(JSON.stringify(await axeViolations(page))).toBe('[]');
        if (SHOTS) {
          await risk.scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${SHOTS}/audit-risk-${width}-${colorScheme}.png` });
        }
        // A run is not judged for risk: its detail has no Risk row, not a dash. The action's detail stays until the
        // run's has come: read once its title is the run's.
        const title = detail(page).locator('#audit-detail-title');
        const actionTitle = await title.innerText();
        await page
          .locator('[data-testid="audit-row"][data-tool="agent_decision"]')
          .getByRole('button')
          .click();
        await expect.poll(() => title.innerText()).not.toBe(actionTitle);
        await expect.poll(() => detail(page).getByTestId('audit-detail-status').count()).toBe(1);
        await expect
          .poll(() =>
            detail(page)
              .locator('dt', { hasText: /^Decision$/ })
              .count(),
          )
          .toBe(1);
        expect(
          await detail(page)
            .locator('dt', { hasText: /^Risk$/ })
            .count(),
        ).toBe(0);
      }
  });

  it('has no axe violations with the table and no entry open, at a narrow width, light and dark; the list reaches the window’s foot', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await newPage();
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width: 420, height: 900 });
      // The route and the token in one address, as a new window opened on the viewer gets them.
      await page.goto(`${host.url}/#/audit&token=${host.token}`);
      await rows(page).first().waitFor();
      // The list takes the window's height, not a box of half of it over an empty foot of the page.
      const list = await page.getByTestId('audit-rows').evaluate((rows) => ({
        bottom: Math.round(rows.getBoundingClientRect().bottom),
        page: document.documentElement.scrollHeight,
      }));
      expect(list).toEqual({ bottom: 900, page: 900 });
      expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    }
  });
});
