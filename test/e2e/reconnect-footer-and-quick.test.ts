import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callReply, textReply } from '../fakes/gemini/script';
import { axeViolations } from './support/axe';
import { useHostedGemini } from './support/hosted';
import { assistantMessages, composer, focusedTestId, send, usePages } from './support/pages';
import { cuttableSocket, type SocketCut } from './support/socket-cut';
import { watchText } from './support/text-history';

const { newPage } = usePages();
const SHOTS = process.env.DEPUTY_SHOTS;

/** Words the fake streams one at a time, slowly enough that several of them are said while the socket is cut. */
const COUNTING = 'One two three four five six seven eight nine ten eleven twelve thirteen fourteen.';
const WORD_GAP_MS = 150;

const connectionStatus = (page: Page) => page.getByTestId('connection-status');
const footer = (page: Page) => page.getByTestId('run-usage');
const timesIn = (text: string, part: string) => text.split(part).length - 1;

describe('a window that reconnects mid-run: a run’s footer, and the quick prompt', () => {
  const hosted = useHostedGemini();

  /** A page whose socket to the host the test can cut, at `path` (the workspace's `/`, or `/quick`). */
  async function openPage(path: string): Promise<{ page: Page; socket: SocketCut }> {
    const page = await newPage();
    const socket = await cuttableSocket(page);
    await page.goto(`${hosted.host().url}/#${path}&token=${hosted.host().token}`);
    await composer(page).waitFor();
    return { page, socket };
  }

  it('keeps saying the tokens a run under way has used while its conversation is read again', async () => {
    // A first turn that reads the tasks (its tokens make the footer), then an answer said slowly.
    hosted
      .gemini()
      .script(callReply('list_tasks', {}), textReply(COUNTING, { chunks: 14, gapMs: WORD_GAP_MS }));
    const { page, socket } = await openPage('/');
    await send(page, 'Look at my tasks and count slowly');
    await assistantMessages(page).getByText('two', { exact: false }).waitFor();
    await footer(page).waitFor();
    const footers = await watchText(page, '[data-testid="run-usage"]');
    const before = await footer(page).innerText();
    expect(before).toMatch(/tokens in/);

    socket.cut();
    await expect.poll(() => connectionStatus(page).innerText()).toContain('Reconnecting…');
    await page.waitForTimeout(WORD_GAP_MS * 4);
    socket.restore();
    await expect.poll(() => connectionStatus(page).innerText()).toBe('');
    await page.getByTestId('composer-send').waitFor();

    // Never gone meanwhile: it said what it knew until the run's replay said more.
    const seen = await footers();
    expect(seen[0]).toBe(before);
    expect(seen, seen.join(' | ')).not.toContain(null);
    expect(await footer(page).count()).toBe(1);
  });

  it('in the quick prompt, says it is reconnecting, and then shows an answer that ended meanwhile whole and once, the run over', async () => {
    hosted.gemini().script(textReply(COUNTING, { chunks: 14, gapMs: 20 }));
    const { page, socket } = await openPage('/quick');
    await send(page, 'Count to fourteen quickly');
    await assistantMessages(page).getByText('One', { exact: false }).waitFor();
    await page.getByTestId('composer-stop').focus();

    socket.cut();
    await expect.poll(() => connectionStatus(page).innerText()).toContain('Reconnecting…');
    await expect.poll(() => hosted.gemini().inFlight()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    if (SHOTS)
      for (const width of [560, 420])
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.setViewportSize({ width, height: 440 });
          await page.emulateMedia({ colorScheme });
          await page.screenshot({ path: `${SHOTS}/quick-reconnecting-${width}-${colorScheme}.png` });
        }
    socket.restore();
    await expect.poll(() => connectionStatus(page).innerText()).toBe('');
    await page.getByTestId('composer-send').waitFor();
    await page.getByTestId('run-usage').waitFor();

    const words = (await assistantMessages(page).allInnerTexts()).join('\n');
    expect(timesIn(words, COUNTING), words).toBe(1);
    expect(await assistantMessages(page).count()).toBe(1);
    // Stop went with the run's end: typing can go on.
    expect(await focusedTestId(page)).toBe('composer-input');
  });
});
