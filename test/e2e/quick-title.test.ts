import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply, textReply } from '../fakes/gemini/script';
import type { FakeGemini } from '../fakes/gemini/types';
import { dataDirWithAgents } from '../support/agent-kit';
import { askOver } from './support/api';
import { assistantMessages, composer, send, usePages } from './support/pages';
import { startHost, type RunningHost } from './support/host';
import { watchText } from './support/text-history';

const { newPage } = usePages();

/** The list's first page in a window (the quick prompt reads no more of it). */
const LIST_PAGE = 30;

/** Every list of conversations the page is sent (`threads.list`'s answers), as their ids. */
function listsSent(page: Page): string[][] {
  const lists: string[][] = [];
  page.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => {
      const message: unknown = JSON.parse(String(payload));
      const data = (message as { data?: { threads?: { id: string }[]; nextBefore?: unknown } }).data;
      if (data?.threads && 'nextBefore' in data) lists.push(data.threads.map((thread) => thread.id));
    }),
  );
  return lists;
}

/** Lets React commit what the page last heard. */
const settled = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));

describe('the quick prompt’s title of its conversation', () => {
  let gemini: FakeGemini;
  let host: RunningHost;
  let dataDir: string;

  beforeAll(async () => {
    gemini = await startFakeGemini();
    dataDir = dataDirWithAgents({ name: 'helper', displayName: 'Task helper', tools: ['list_tasks'] });
    host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key', dataDir });
  });

  afterAll(async () => {
    await host?.stop();
    await gemini?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function openQuick(): Promise<{ page: Page; lists: string[][] }> {
    const page = await newPage();
    const lists = listsSent(page);
    await page.goto(`${host.url}/#/quick&token=${host.token}`);
    await composer(page).waitFor();
    return { page, lists };
  }

  it('stays once more conversations than the list’s first page holds have changed since', async () => {
    const { page, lists } = await openQuick();
    gemini.script(textReply('The quick answer.'));
    await send(page, 'Asked in the quick prompt');
    await expect.poll(async () => (await assistantMessages(page).allInnerTexts()).join()).toContain('answer');
    const title = page.getByTestId('quick-thread-title');
    await expect.poll(() => title.allInnerTexts()).toEqual(['Asked in the quick prompt']);
    const titles = await watchText(page, '[data-testid="quick-thread-title"]');

    // A script asks more questions than the list's first page holds, each a conversation of its own; the quick
    // prompt reads its list again as each run ends, the last without its own conversation.
    let newest = '';
    for (let index = 0; index <= LIST_PAGE; index += 1) {
      gemini.script(textReply(`Answer ${index}.`));
      newest = await askOver(host, `Question ${index}`);
    }
    await expect.poll(() => lists.some((ids) => ids[0] === newest)).toBe(true);
    await settled(page);
    expect(lists.at(-1)).toHaveLength(LIST_PAGE);

    // The header still says which conversation typing goes into, and never stopped saying it meanwhile.
    await expect.poll(() => title.allInnerTexts()).toEqual(['Asked in the quick prompt']);
    expect(await title.getAttribute('title')).toBe('Asked in the quick prompt');
    expect(await titles()).toEqual(['Asked in the quick prompt']);
  });

  it('reads as the conversation list reads: an agent’s conversation by its name, and by the title given it since', async () => {
    const { page: quick } = await openQuick();
    gemini.script(callReply('complete_task', { result: { note: 'Nothing is open.' } }));
    await send(quick, '@helper');
    await quick.getByTestId('agent-input-task').fill('Check my tasks');
    await quick.getByTestId('agent-run').click();
    await expect
      .poll(async () => (await assistantMessages(quick).allInnerTexts()).join())
      .toContain('Note: Nothing is open.');
    const title = quick.getByTestId('quick-thread-title');

    // The workspace in another tab (the main window, in the desktop app) lists it as the quick prompt calls it.
    const workspace = await newPage();
    await workspace.goto(`${host.url}/#token=${host.token}`);
    const row = workspace.getByTestId('thread-row').first();
    await row.waitFor();
    const listed = () => row.locator('.thread-list__title').innerText();
    expect(await listed()).toBe('Task helper');
    await expect.poll(() => title.allInnerTexts()).toEqual([await listed()]);

    // Renamed there, it is called so here when the person comes back to the quick prompt (the shortcut shows and
    // focuses its window; in a browser, its tab).
    await row.getByTestId('thread-rename').click();
    await row.getByTestId('thread-rename-input').fill('Weekly tasks check');
    await row.getByTestId('thread-rename-input').press('Enter');
    await expect.poll(listed).toBe('Weekly tasks check');
    await quick.evaluate(() => window.dispatchEvent(new FocusEvent('focus')));
    await expect.poll(() => title.allInnerTexts()).toEqual(['Weekly tasks check']);
    expect(await title.getAttribute('title')).toBe('Weekly tasks check');
  });
});
