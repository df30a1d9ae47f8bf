import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/gemini/server';
import { textReply } from '../fakes/gemini/script';
import type { FakeGemini } from '../fakes/gemini/types';
import type { Locator, Page } from 'playwright-core';
import { axeViolations } from './support/axe';
import { focusedTestId, focusedText, usePages } from './support/pages';
import { startHost, type RunningHost } from './support/host';

/**
 * A file picker that keeps what is written, write by write, as the real one would write to disk; the test says
 * whether the person picks a file or cancels, and whether the disk takes the writes.
 */
const installPicker = (opened: Page) =>
  opened.addInitScript(() => {
    const target = window as unknown as {
      exported: string[];
      picker: 'save' | 'cancel' | 'full' | 'hold';
      release: () => void;
      showSaveFilePicker: unknown;
    };
    target.exported = [];
    target.picker = 'save';
    target.showSaveFilePicker = async (options: unknown) => {
      target.exported.push(`<picked ${JSON.stringify(options)}>`);
      if (target.picker === 'cancel') throw new DOMException('The user aborted a request.', 'AbortError');
      return {
        createWritable: async () => ({
          write: async (data: string) => {
            if (target.picker === 'full') throw new DOMException('The disk is full.', 'QuotaExceededError');
            if (target.picker === 'hold')
              await new Promise<void>((resolve) => {
                target.release = resolve;
              });
            target.exported.push(data);
          },
          close: async () => void target.exported.push('<closed>'),
          abort: async () => void target.exported.push('<aborted>'),
        }),
      };
    };
  });

/** What the picker installed by `installPicker` was given, what it answers next, and what the person sees. */
function pickerOf(page: Page) {
  return {
    exported: () => page.evaluate(() => (window as unknown as { exported: string[] }).exported),
    /** Whether the element is in view and on top where it is drawn (not under another, nor scrolled away). */
    isSeen: (testId: string) =>
      page.evaluate((id) => {
        const element = document.querySelector(`[data-testid="${id}"]`);
        if (!element) return false;
        const box = element.getBoundingClientRect();
        const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return top !== null && element.contains(top);
      }, testId),
    setPicker: (answer: 'save' | 'cancel' | 'full' | 'hold') =>
      page.evaluate((value) => {
        (window as unknown as { exported: string[]; picker: string }).exported = [];
        (window as unknown as { picker: string }).picker = value;
      }, answer),
    colourOf: (testId: string) =>
      page.evaluate(
        (id) => getComputedStyle(document.querySelector(`[data-testid="${id}"]`) as Element).color,
        testId,
      ),
  };
}

/**
 * With the keyboard on an export's button: cancelling the picker says nothing and leaves the keyboard there; a disk
 * that refuses the file makes the export say it stopped and why, and nothing is left that looks whole.
 */
async function cancelThenFullDisk(page: Page, panel: Locator, buttonTestId: string): Promise<void> {
  const { exported, setPicker } = pickerOf(page);
  const outcome = panel.getByTestId('data-outcome');
  await setPicker('cancel');
  await page.keyboard.press('Enter');
  await expect.poll(() => outcome.innerText()).toBe('');
  expect(await exported()).toHaveLength(1);
  expect(await panel.getByTestId('data-error').count()).toBe(0);
  expect(await focusedTestId(page)).toBe(buttonTestId);

  await setPicker('full');
  await page.keyboard.press('Enter');
  await expect
    .poll(() => panel.getByTestId('data-error').innerText())
    .toBe('The export stopped, so the file was not saved. The disk is full.');
  expect((await exported()).at(-1)).toBe('<aborted>');
  expect(await focusedTestId(page)).toBe(buttonTestId);
}

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
  const openDataPanel = async (beforeLoad?: (page: Page) => Promise<unknown>) => {
    const page = await newPage();
    await beforeLoad?.(page);
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
    // The four counts stand two by two, not three and one, and the last says what it counts.
    const tops = await panel
      .getByTestId('data-counts')
      .locator(':scope > div')
      .evaluateAll((boxes) => boxes.map((box) => Math.round(box.getBoundingClientRect().top)));
    expect(tops[0]).toBe(tops[1]);
    expect(tops[2]).toBe(tops[3]);
    expect(tops[2]).toBeGreaterThan(tops[0] ?? 0);
    expect(await panel.getByTestId('data-counts').innerText()).toContain('Run log entries');

    await panel.getByLabel('Delete conversations with no activity for more than').fill('1');
    await panel.getByTestId('prune-check').click();
    await panel
      .getByTestId('prune-confirm')
      .getByText('No conversation has been inactive for more than 1 day.')
      .waitFor();

    await panel.getByRole('button', { name: 'Compact database' }).click();
    const outcome = panel.getByTestId('data-outcome');
    await outcome.getByText(/^Compacted/).waitFor();
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

  it('exports every conversation by keyboard at 720 x 480: the format, the file picked, and what it saved, in view', async () => {
    gemini.script(textReply('Rotated.'));
    const SECRET = 'xoxp-2718281828-3141592653-5772156649-fe0a1b2c3d4e5f60718293a4b5c6d7e8';
    await ask(`Rotate this token: ${SECRET}`);
    const { page, panel } = await openDataPanel(installPicker);
    // The desktop app's smallest window: the tab scrolls, and the status line is far below the export.
    await page.setViewportSize({ width: 720, height: 480 });
    const { exported, isSeen, setPicker, colourOf } = pickerOf(page);
    const outcome = panel.getByTestId('data-outcome');
    const section = panel.getByRole('region', { name: 'Export conversations' });
    expect(await section.getByRole('radio', { name: /^JSON lines/ }).isChecked()).toBe(true);

    // Markdown by the arrow key, then Tab to the button and Enter.
    await section.getByRole('radio', { name: /^JSON lines/ }).focus();
    await page.keyboard.press('ArrowDown');
    expect(await section.getByRole('radio', { name: /^Markdown/ }).isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('export-start');
    // Scrolled so that the button is at the tab's bottom edge, where the status line comes.
    await panel.getByTestId('export-start').evaluate((button) => button.scrollIntoView({ block: 'end' }));
    await page.keyboard.press('Enter');
    await outcome.getByText(/^Saved 2 conversations \(\d+(\.\d)? (bytes|KB)\)\.$/).waitFor();
    expect(await focusedTestId(page)).toBe('export-start');
    // What it saved is seen from where the button is, and the button is not under it.
    expect(await isSeen('data-outcome')).toBe(true);
    expect(await isSeen('export-start')).toBe(true);
    const written = await exported();
    expect(written[0]).toBe(
      '<picked {"suggestedName":"deputy-conversations.md","types":[{"description":"Markdown","accept":{"text/markdown":[".md"]}}]}>',
    );
    expect(written.at(-1)).toBe('<closed>');
    const file = written.slice(1, -1).join('');
    // What was saved is the host's export, as a script gets it over HTTP (but for the minute it was made).
    const streamed = await (await api('/api/threads/export?format=md')).text();
    const withoutWhen = (text: string) => text.replace(/^Exported .*$/m, '');
    expect(withoutWhen(file)).toBe(withoutWhen(streamed));
    expect(file).toContain('**You:**\n\nWhat colour is the sky?\n\n**Deputy:**\n\nBlue.\n');
    expect(file).not.toContain(SECRET);
    expect(await axeViolations(page)).toEqual([]);

    // While the file is written, the status line says how far the export has come: news, not yet a success.
    await setPicker('hold');
    await page.keyboard.press('Enter');
    await outcome.getByText('Exporting… 2 conversations').waitFor();
    expect(await panel.getByTestId('export-start').innerText()).toBe('Exporting…');
    expect(await colourOf('data-outcome')).toBe(await colourOf('data-panel'));
    await page.evaluate(() => (window as unknown as { release: () => void }).release());
    await outcome.getByText(/^Saved 2 conversations/).waitFor();
    expect(await colourOf('data-outcome')).not.toBe(await colourOf('data-panel'));

    await cancelThenFullDisk(page, panel, 'export-start');

    // Before deleting old conversations, the question says how to keep a copy, and takes the keyboard there.
    const db = new Database(join(host.dataDir, 'deputy.db'));
    try {
      db.prepare("UPDATE threads SET updated_at = '2024-01-01T00:00:00.000Z' WHERE title = ?").run(
        'What colour is the sky?',
      );
    } finally {
      db.close();
    }
    await panel.getByLabel('Delete conversations with no activity for more than').fill('30');
    await panel.getByTestId('prune-check').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page)).toBe('prune-confirm-delete');
    expect(
      await page.evaluate(() =>
        (document.activeElement?.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent)
          .join(' '),
      ),
    ).toBe(
      '1 conversation has had no activity for more than 30 days. Delete it for good? This cannot be undone. ' +
        'To keep a copy, export your conversations first.',
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Shift+Tab');
    expect(await focusedTestId(page)).toBe('prune-export-first');
    await page.keyboard.press('Enter');
    await panel.getByTestId('prune-confirm').waitFor({ state: 'detached' });
    expect(await focusedTestId(page)).toBe('export-start');
    expect((await (await api('/api/data')).json()) as { counts: { threads: number } }).toMatchObject({
      counts: { threads: 2 },
    });
  });

  it('exports tasks and memories by keyboard at 720 x 480: the file picked, what it saved, and how far it has come', async () => {
    const SECRET = 'xoxp-1414213562-3731073325-2360679774-0a1b2c3d4e5f60718293a4b5c6d7e8f9';
    // Written straight into the store, as if kept before the redactor knew the key: the export takes it out.
    const db = new Database(join(host.dataDir, 'deputy.db'));
    try {
      const at = '2026-02-01T09:00:00.000Z';
      const task = db.prepare(
        "INSERT INTO tasks (id, description, due, notes, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'open', ?, ?)",
      );
      const memory = db.prepare(
        "INSERT INTO memories (id, text, origin, confirmed_at, created_at, updated_at) VALUES (?, ?, 'person', ?, ?, ?)",
      );
      db.transaction(() => {
        for (let i = 0; i < 12; i += 1)
          task.run(`task-${i}`, `Task ${i}`, i === 0 ? '2026-02-10' : null, i === 0 ? SECRET : null, at, at);
        for (let i = 0; i < 40; i += 1) memory.run(`memory-${i}`, `Memory ${i}`, at, at, at);
      })();
    } finally {
      db.close();
    }
    const { page, panel } = await openDataPanel(installPicker);
    await page.setViewportSize({ width: 720, height: 480 });
    const { exported, isSeen, setPicker, colourOf } = pickerOf(page);
    const outcome = panel.getByTestId('data-outcome');

    // From the conversations' export, Tab reaches it; Enter starts it, and the keyboard stays on it.
    await panel.getByTestId('export-start').focus();
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('export-tasks-start');
    expect(await focusedText(page)).toBe('Export tasks and memories…');
    await panel
      .getByTestId('export-tasks-start')
      .evaluate((button) => button.scrollIntoView({ block: 'end' }));
    await page.keyboard.press('Enter');
    await outcome.getByText(/^Saved 12 tasks and 40 memories \(\d+(\.\d)? KB\)\.$/).waitFor();
    expect(await focusedTestId(page)).toBe('export-tasks-start');
    expect(await isSeen('data-outcome')).toBe(true);
    expect(await isSeen('export-tasks-start')).toBe(true);
    const written = await exported();
    expect(written[0]).toBe(
      '<picked {"suggestedName":"deputy-tasks-and-memories.jsonl","types":[{"description":"JSON lines","accept":{"application/x-ndjson":[".jsonl"]}}]}>',
    );
    expect(written.at(-1)).toBe('<closed>');
    const file = written.slice(1, -1).join('');
    expect(file).toBe(await (await api('/api/tasks-and-memories/export')).text());
    const lines = file
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; id: string; notes?: string });
    expect(lines.filter((line) => line.kind === 'task')).toHaveLength(12);
    expect(lines.filter((line) => line.kind === 'memory')).toHaveLength(40);
    expect(lines[0]).toMatchObject({ kind: 'task', id: 'task-0', due: '2026-02-10', notes: '[redacted]' });
    expect(file).not.toContain(SECRET);
    expect(await axeViolations(page)).toEqual([]);

    // While the file is written, the status line says how far it has come: news, not yet a success.
    await setPicker('hold');
    await page.keyboard.press('Enter');
    await outcome.getByText('Exporting… 12 tasks and 40 memories').waitFor();
    expect(await panel.getByTestId('export-tasks-start').innerText()).toBe('Exporting…');
    expect(await colourOf('data-outcome')).toBe(await colourOf('data-panel'));
    await page.evaluate(() => (window as unknown as { release: () => void }).release());
    await outcome.getByText(/^Saved 12 tasks and 40 memories/).waitFor();

    await cancelThenFullDisk(page, panel, 'export-tasks-start');
    expect(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axeViolations(page)).toEqual([]);
  });
});
