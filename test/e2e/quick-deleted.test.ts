import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { textReply } from '../fakes/gemini/script';
import { apiOf, askOver } from './support/api';
import { axeViolations } from './support/axe';
import { useHostedGemini } from './support/hosted';
import { listReads } from './support/list-reads';
import { assistantMessages, composer, send, usePages } from './support/pages';
import type { RunningHost } from './support/host';

const { newPage } = usePages();

/** The conversations the host lists, newest first, as their titles. */
async function listedTitles(host: RunningHost): Promise<string[]> {
  const response = await apiOf(host)('/api/threads');
  return ((await response.json()) as { threads: { title: string }[] }).threads.map((thread) => thread.title);
}

/**
 * The page at the desktop app's quick prompt width and a narrow one (or `widths`), light and dark, `check` run at
 * each; saved as `<name>-<width>-<scheme>.png` with DEPUTY_SHOTS.
 */
async function atSizes(
  page: Page,
  name: string,
  check: () => Promise<void>,
  widths = [560, 420],
  height = 480,
): Promise<void> {
  for (const width of widths)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await check();
      const shots = process.env.DEPUTY_SHOTS;
      if (shots) await page.screenshot({ path: `${shots}/${name}-${width}-${colorScheme}.png` });
    }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('the quick prompt’s conversation, deleted in the main window', () => {
  const hosted = useHostedGemini();

  /**
   * The quick prompt, with a question asked and answered in a conversation of its own; answers its id once the
   * run is over in the window and the list read its end asks for has come back, so that nothing the window does on
   * its own notices a deletion the case makes next.
   */
  async function quickWithConversation(
    question: string,
    route = '/quick',
  ): Promise<{ page: Page; threadId: string }> {
    const page = await newPage();
    const reads = listReads(page);
    await page.goto(`${hosted.host().url}/#${route}&token=${hosted.host().token}`);
    await composer(page).waitFor();
    hosted.gemini().script(textReply('The first answer.'));
    await send(page, question);
    await expect
      .poll(async () => (await assistantMessages(page).allInnerTexts()).join())
      .toContain('first answer');
    await page.getByTestId('composer-stop').waitFor({ state: 'detached' });
    await expect.poll(() => reads.unanswered()).toBe(0);
    const response = await apiOf(hosted.host())('/api/threads');
    const { threads } = (await response.json()) as { threads: { id: string; title: string }[] };
    const threadId = threads.find((thread) => thread.title === question)?.id;
    if (!threadId) throw new Error(`No conversation is titled ${question}.`);
    return { page, threadId };
  }

  const deleteOver = async (threadId: string) =>
    expect((await apiOf(hosted.host())(`/api/threads/${threadId}`, { method: 'DELETE' })).ok).toBe(true);

  /** The quick prompt says the conversation was deleted in `words`, with a new one open and `typed` in its box. */
  async function saysDeleted(page: Page, words: string, typed: string, shots: string): Promise<void> {
    const note = page.getByTestId('quick-deleted-note');
    await expect.poll(() => note.innerText()).toBe(words);
    expect(await page.getByTestId('quick-thread-title').allInnerTexts()).toEqual(['New conversation']);
    expect(await assistantMessages(page).count()).toBe(0);
    expect(await composer(page).inputValue()).toBe(typed);
    // No error code or the host's own words: the note says what happened.
    expect(await page.getByTestId('quick-prompt').innerText()).not.toMatch(
      /not_found|no conversation with the id/i,
    );
    await atSizes(page, shots, async () => {
      expect(await note.isVisible()).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  /** Enter sends what is in the box, to a conversation of its own that the header then names. */
  async function sendsToNewConversation(page: Page, typed: string): Promise<void> {
    hosted.gemini().script(textReply(`Done: ${typed}.`));
    await composer(page).press('Enter');
    await expect
      .poll(async () => (await assistantMessages(page).allInnerTexts()).join())
      .toContain(`Done: ${typed}.`);
    await expect.poll(() => page.getByTestId('quick-thread-title').allInnerTexts()).toEqual([typed]);
    expect(await page.getByTestId('quick-deleted-note').innerText()).toBe('');
    expect(await composer(page).inputValue()).toBe('');
    expect(await listedTitles(hosted.host())).toContain(typed);
  }

  /**
   * The main window's note (shot as `shots` at 1280 and 420 px, light and dark, axe clean) goes once Enter sends
   * `typed` from the box to a new conversation, which the list then shows.
   */
  async function mainSendsToNewConversation(page: Page, shots: string, typed: string): Promise<void> {
    const note = page.getByTestId('deleted-note');
    await atSizes(
      page,
      shots,
      async () => {
        expect(await note.isVisible()).toBe(true);
        expect(await axeViolations(page)).toEqual([]);
      },
      [1280, 420],
      720,
    );
    await page.setViewportSize({ width: 1280, height: 720 });

    hosted.gemini().script(textReply(`Done: ${typed}.`));
    await composer(page).press('Enter');
    await expect
      .poll(async () => (await assistantMessages(page).allInnerTexts()).join())
      .toContain(`Done: ${typed}.`);
    expect(await note.count()).toBe(0);
    await expect.poll(() => page.getByTestId('thread-row').filter({ hasText: typed }).count()).toBe(1);
  }

  it('is let go when the person comes back: the header says so, and what was typed goes to a new conversation', async () => {
    const { page, threadId } = await quickWithConversation('Plan the team offsite');
    await expect
      .poll(() => page.getByTestId('quick-thread-title').allInnerTexts())
      .toEqual(['Plan the team offsite']);
    await composer(page).fill('Book the venue for Friday');
    await deleteOver(threadId);

    // The person comes back to the quick prompt (the shortcut shows and focuses its window; in a browser, its tab).
    await page.evaluate(() => window.dispatchEvent(new FocusEvent('focus')));
    await saysDeleted(
      page,
      '“Plan the team offsite” was deleted. What you send now starts a new conversation.',
      'Book the venue for Friday',
      'quick-deleted',
    );
    await sendsToNewConversation(page, 'Book the venue for Friday');
    expect(await listedTitles(hosted.host())).not.toContain('Plan the team offsite');
  });

  it('keeps a message sent to it before it was noticed, says it was not sent, and sends it to a new conversation', async () => {
    const { page, threadId } = await quickWithConversation('Draft the quarterly report');
    await expect
      .poll(() => page.getByTestId('quick-thread-title').allInnerTexts())
      .toEqual(['Draft the quarterly report']);
    await deleteOver(threadId);

    await send(page, 'Add the sales figures');
    await saysDeleted(
      page,
      '“Draft the quarterly report” was deleted, so your message wasn’t sent. It’s still in the box: send it to start a new conversation.',
      'Add the sales figures',
      'quick-deleted-race',
    );
    await sendsToNewConversation(page, 'Add the sales figures');
  });

  it('in the main window too: a message sent to it there is kept, said not sent, and its row leaves the list', async () => {
    const { page, threadId } = await quickWithConversation('Sort the inbox', '/');
    const rows = page.getByTestId('thread-row');
    await expect.poll(() => rows.filter({ hasText: 'Sort the inbox' }).count()).toBe(1);
    await deleteOver(threadId);

    await send(page, 'Archive the newsletters');
    const note = page.getByTestId('deleted-note');
    await expect
      .poll(() => note.innerText())
      .toBe(
        '“Sort the inbox” was deleted, so your message wasn’t sent. It’s still in the box: send it to start a new conversation.',
      );
    expect(await composer(page).inputValue()).toBe('Archive the newsletters');
    expect(await rows.filter({ hasText: 'Sort the inbox' }).count()).toBe(0);
    expect(await page.getByTestId('run-error').count()).toBe(0);
    await mainSendsToNewConversation(page, 'main-deleted-race', 'Archive the newsletters');
  });

  it('in the main window, when it comes back: the deleted rows leave the list, and the open one is let go', async () => {
    const { page, threadId } = await quickWithConversation('Tidy the calendar', '/');
    hosted.gemini().script(textReply('Passport renewed.'));
    const other = await askOver(hosted.host(), 'Renew the passport');
    const rows = page.getByTestId('thread-row');
    await expect.poll(() => rows.filter({ hasText: 'Renew the passport' }).count()).toBe(1);
    await composer(page).fill('Move the dentist to Monday');
    await deleteOver(other);
    await deleteOver(threadId);

    // The person comes back to the main window (another window, or a script, deleted them meanwhile).
    await page.evaluate(() => window.dispatchEvent(new FocusEvent('focus')));
    const note = page.getByTestId('deleted-note');
    await expect
      .poll(() => note.innerText())
      .toBe('“Tidy the calendar” was deleted. What you send now starts a new conversation.');
    expect(await rows.filter({ hasText: 'Renew the passport' }).count()).toBe(0);
    expect(await rows.filter({ hasText: 'Tidy the calendar' }).count()).toBe(0);
    expect(await assistantMessages(page).count()).toBe(0);
    expect(await composer(page).inputValue()).toBe('Move the dentist to Monday');
    await mainSendsToNewConversation(page, 'main-deleted-focus', 'Move the dentist to Monday');
  });
});
