import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/gemini/server';
import { streamHold, type StreamHold } from '../fakes/gemini/hold';
import { callReply, heldBefore, textReply } from '../fakes/gemini/script';
import type { FakeGemini, FakeStep } from '../fakes/gemini/types';
import { dataDirWithAgents } from '../support/agent-kit';
import { putSettings, runStatusOf } from './support/api';
import { startHost, type RunningHost } from './support/host';
import { MILK_CALL } from './support/milk';
import { addTaskCard, assistantMessages, composer, focusedTestId, send, usePages } from './support/pages';
import { firstShrink, watchShown, type Shown } from './support/shown-history';
import { cuttableSocket, type SocketCut } from './support/socket-cut';

const { newPage } = usePages();

/** Words the fake streams a few letters at a time (14 chunks: 'One tw', 'o thre', 'e four', …, 'en.'). */
const COUNTING = 'One two three four five six seven eight nine ten eleven twelve thirteen fourteen.';
const WORD_GAP_MS = 150;

/**
 * Where a streaming answer waits for the test, so that each step happens where the test says and not where a
 * loaded machine's timing puts it: `cut` holds the stream until the window has seen its socket cut, `restore`
 * (placed a few chunks later) until the window has connected again.
 */
interface CutHolds {
  cut: StreamHold;
  restore: StreamHold;
}
const cutHolds = (): CutHolds => ({ cut: streamHold(), restore: streamHold() });

const connectionStatus = (page: Page) => page.getByTestId('connection-status');
const timesIn = (text: string, part: string) => text.split(part).length - 1;

/**
 * Starts noting the conversation's rows from the top, each by what it is (and a tool card by its tool), after every
 * change to the page; resolves to a function that reads each order seen so far.
 */
async function watchOrder(page: Page): Promise<() => Promise<string[][]>> {
  type Noted = { orderNotes?: string[][][] };
  const slot = await page.evaluate(() => {
    const orders: string[][] = [];
    const take = () =>
      [...document.querySelectorAll('[data-testid="timeline"] > li')].map((row) => {
        const inner = row.querySelector('[data-testid]');
        const what = row.getAttribute('data-testid') ?? inner?.getAttribute('data-testid');
        const role =
          row.getAttribute('data-role') ??
          inner?.getAttribute('data-role') ??
          inner?.getAttribute('data-tool');
        return `${what}${role ? `:${role}` : ''}`;
      });
    const note = () => {
      const now = take();
      if (JSON.stringify(orders.at(-1)) !== JSON.stringify(now)) orders.push(now);
    };
    note();
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true });
    // Each watcher its own notes: a later one (timelineOrder) does not replace an earlier one's.
    return ((window as Noted).orderNotes ??= []).push(orders) - 1;
  });
  return () => page.evaluate((at) => (window as Noted).orderNotes?.[at] ?? [], slot);
}

/** The conversation's rows from the top, each by what it is (and a tool card by its tool). */
const timelineOrder = async (page: Page): Promise<string[]> =>
  (await (await watchOrder(page))()).at(-1) ?? [];

describe('a window that loses its connection to the host mid-run', () => {
  let gemini: FakeGemini;
  let host: RunningHost;
  let dataDir: string;

  beforeAll(async () => {
    gemini = await startFakeGemini();
    dataDir = dataDirWithAgents(
      { name: 'lead', tools: ['helper'] },
      { name: 'helper', displayName: 'Task helper', tools: ['list_tasks'] },
    );
    host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key', dataDir });
  });

  afterAll(async () => {
    await host?.stop();
    await gemini?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function openPage(
    trustLevel: 'supervised' | 'autonomous',
  ): Promise<{ page: Page; socket: SocketCut }> {
    await putSettings(host, { trustLevel });
    const page = await newPage();
    const socket = await cuttableSocket(page);
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    return { page, socket };
  }

  /**
   * Cuts the socket, says so while it is cut (focus staying where it was), lets the answer go on unheard up to
   * its `restore` hold (or waits a while, with nothing streaming), and reconnects; resolves once the window says
   * it is connected again, and only then lets the answer go on.
   */
  async function cutAndReconnect(
    page: Page,
    socket: SocketCut,
    { focused = 'composer-stop', holds }: { focused?: string; holds?: CutHolds } = {},
  ): Promise<void> {
    await page.getByTestId(focused).focus();
    socket.cut();
    await expect.poll(() => connectionStatus(page).innerText()).toContain('Reconnecting…');
    if (holds) {
      holds.cut.release();
      await holds.restore.reached;
    } else await page.waitForTimeout(WORD_GAP_MS * 4);
    expect(await focusedTestId(page)).toBe(focused);
    socket.restore();
    await expect.poll(() => connectionStatus(page).innerText()).toBe('');
    expect(await focusedTestId(page)).toBe(focused);
    holds?.restore.release();
  }

  /** The run has ended: its footer is shown and the composer sends again. */
  async function runEnded(page: Page): Promise<void> {
    await page.getByTestId('composer-send').waitFor();
    await page.getByTestId('run-usage').last().waitFor();
  }

  /** Reloaded and opened again, the conversation shows what it showed live. */
  async function afterReload(page: Page, prompt: string): Promise<Shown> {
    await page.reload();
    // The window reopens on the conversation it had open.
    await page.locator('[data-testid="message"][data-role="user"]', { hasText: prompt }).waitFor();
    await page.getByTestId('run-usage').last().waitFor();
    const notes = await (await watchShown(page))();
    const last = notes.at(-1);
    if (!last) throw new Error('nothing was shown');
    return last;
  }

  const lastShown = async (read: () => Promise<Shown[]>): Promise<Shown> => {
    const notes = await read();
    const last = notes.at(-1);
    if (!last) throw new Error('nothing was shown');
    return last;
  };

  it('an answer streaming in shows whole and once, and never shorter meanwhile', async () => {
    const holds = cutHolds();
    // 'two' is whole after the second chunk; 'three … six se' goes by while the socket is cut.
    const answer = textReply(COUNTING, { chunks: 14, gapMs: WORD_GAP_MS });
    gemini.script(heldBefore(6, holds.restore, heldBefore(2, holds.cut, answer)));
    const { page, socket } = await openPage('supervised');
    const prompt = 'Count to fourteen slowly';
    await send(page, prompt);
    await assistantMessages(page).getByText('two', { exact: false }).waitFor();
    const shown = await watchShown(page);

    await cutAndReconnect(page, socket, { holds });
    await runEnded(page);
    expect(socket.connections()).toBe(2);

    const notes = await shown();
    expect(firstShrink(notes)).toBeNull();
    const last = await lastShown(shown);
    expect(timesIn(last.words, COUNTING), last.words).toBe(1);
    expect(timesIn(last.words, 'One'), last.words).toBe(1);
    expect(await assistantMessages(page).count()).toBe(1);
    expect((await afterReload(page, prompt)).words).toBe(last.words);
  });

  it('an answer that ends while the socket is cut shows whole and once, and the composer takes focus back', async () => {
    // After 'One tw' the answer waits for the socket to be cut, then ends while it is.
    const cut = streamHold();
    gemini.script(heldBefore(1, cut, textReply(COUNTING, { chunks: 14, gapMs: 20 })));
    const { page, socket } = await openPage('supervised');
    const prompt = 'Count to fourteen quickly';
    await send(page, prompt);
    await assistantMessages(page).getByText('One', { exact: false }).waitFor();
    await page.getByTestId('composer-stop').focus();
    const shown = await watchShown(page);
    socket.cut();
    await expect.poll(() => connectionStatus(page).innerText()).toContain('Reconnecting…');
    cut.release();
    await expect.poll(() => gemini.inFlight()).toBe(0);
    await expect.poll(() => runStatusOf(host, prompt)).toBe('completed');
    expect(await focusedTestId(page)).toBe('composer-stop');
    socket.restore();
    await expect.poll(() => connectionStatus(page).innerText()).toBe('');
    await runEnded(page);

    expect(firstShrink(await shown())).toBeNull();
    const last = await lastShown(shown);
    expect(timesIn(last.words, COUNTING), last.words).toBe(1);
    // Stop went with the run's end: typing can go on.
    expect(await focusedTestId(page)).toBe('composer-input');
    expect((await afterReload(page, prompt)).words).toBe(last.words);
  });

  it('a tool call made while the socket is cut shows its card once, and the answer after it whole', async () => {
    const before = 'Let me add that for you now.';
    // 'Let me' is shown; from 'add' on, the call and the answer's first three chunks go by while the socket is cut.
    const holds = cutHolds();
    gemini.script(
      heldBefore(2, holds.cut, {
        kind: 'reply',
        gapMs: WORD_GAP_MS,
        chunks: [
          ...before.split(' ').map((word) => ({ text: `${word} ` })),
          { calls: [{ name: 'add_task', args: MILK_CALL }], finishReason: 'STOP' },
        ],
      }),
      heldBefore(3, holds.restore, textReply(COUNTING, { chunks: 14, gapMs: WORD_GAP_MS })),
    );
    const { page, socket } = await openPage('autonomous');
    const prompt = 'Add a task to buy milk and count';
    await send(page, prompt);
    await assistantMessages(page).getByText('Let me', { exact: false }).waitFor();
    const shown = await watchShown(page);

    await cutAndReconnect(page, socket, { holds });
    await runEnded(page);

    expect(firstShrink(await shown())).toBeNull();
    const last = await lastShown(shown);
    expect(last.toolCards).toBe(1);
    expect(await addTaskCard(page).getAttribute('data-state')).toBe('completed');
    expect(timesIn(last.words, COUNTING), last.words).toBe(1);
    expect(timesIn(last.words, 'Let me add'), last.words).toBe(1);
    const reloaded = await afterReload(page, prompt);
    expect(reloaded.toolCards).toBe(1);
    expect(timesIn(reloaded.words, COUNTING)).toBe(1);
  });

  it('an agent working for the run shows its words once, nested, and the run ends', async () => {
    // The helper says 'One two', then 'three' to 'six' while the socket is cut, and the rest once it is back.
    const holds = cutHolds();
    const helperWords: FakeStep = {
      kind: 'reply',
      gapMs: WORD_GAP_MS,
      chunks: [
        ...COUNTING.split(' ').map((word) => ({ text: `${word} ` })),
        {
          calls: [{ name: 'complete_task', args: { result: { note: 'Counted.' } } }],
          finishReason: 'STOP',
        },
      ],
    };
    gemini.script(
      callReply('helper', { task: 'count the open tasks' }),
      heldBefore(6, holds.restore, heldBefore(2, holds.cut, helperWords)),
      callReply('complete_task', { result: { note: 'The helper counted.' } }),
    );
    const { page, socket } = await openPage('supervised');
    await page.getByTestId('composer-agents').click();
    await page.getByTestId('pick-lead').click();
    await page.getByTestId('agent-input-task').fill('Count with the helper');
    await page.getByTestId('agent-run').click();
    const child = page.locator('[data-testid="child-run"][data-role="helper"]');
    await child.getByText('two', { exact: false }).waitFor();
    const shown = await watchShown(page);
    const orders = await watchOrder(page);

    await cutAndReconnect(page, socket, { holds });
    await expect
      .poll(async () => (await assistantMessages(page).allInnerTexts()).join('\n'))
      .toContain('Note: The helper counted.');
    await runEnded(page);
    // What the agents made is read once the run has ended: the order a reload must show is taken with it there.
    await page.getByTestId('run-artifacts').waitFor();

    expect(firstShrink(await shown())).toBeNull();
    const last = await lastShown(shown);
    expect(last.childRuns).toBe(1);
    expect(timesIn(last.words, 'One two three'), last.words).toBe(1);
    expect(timesIn(last.words, 'fourteen.'), last.words).toBe(1);
    expect(timesIn(last.words, 'Note: The helper counted.'), last.words).toBe(1);
    // The agent's words sit inside its own block, under the run that delegated to it, in the order a reload shows.
    expect(await child.textContent()).toContain('One two three');
    const order = await timelineOrder(page);
    expect(order.slice(1, 4)).toEqual(['tool-call', 'child-run:helper', 'message:assistant']);
    // And so it read all along: the agent's block never stood anywhere but under the call that started it, before
    // and after the reconnect, while both runs were replayed.
    // (A run's footers follow its last row wherever that is.)
    const entries = (rows: string[]) => rows.filter((row) => row !== 'run-usage' && row !== 'run-artifacts');
    for (const seen of await orders())
      expect(entries(order).slice(0, entries(seen).length)).toEqual(entries(seen));
    await afterReload(page, 'Count with the helper');
    // A reloaded conversation comes with the run's lineage: the agent's block is there from its first drawing.
    await child.waitFor();
    expect(await timelineOrder(page)).toEqual(order);
  });

  it('Stop pressed while the socket is cut reads Stopping… and stops the run once the window reconnects', async () => {
    // The answer says 'One tw' and waits: it is still going when Stop reaches the host, however late that is.
    const stopped = streamHold();
    gemini.script(heldBefore(1, stopped, textReply(COUNTING, { chunks: 14, gapMs: 400 })));
    const { page, socket } = await openPage('supervised');
    await send(page, 'Count to fourteen very slowly');
    await assistantMessages(page).getByText('One', { exact: false }).waitFor();
    const stop = page.getByTestId('composer-stop');
    socket.cut();
    await expect.poll(() => connectionStatus(page).innerText()).toContain('Reconnecting…');
    await stop.click();
    // Pressed again, and by Escape: still the one Stop, waiting for the socket.
    await page.keyboard.press('Escape');
    await stop.click();
    expect(await stop.innerText()).toBe('Stopping…');
    expect(await page.getByTestId('run-status').innerText()).toBe('Stopping…');
    expect(await page.getByTestId('run-stopped').count()).toBe(0);
    expect(await page.getByTestId('run-error').count()).toBe(0);

    socket.restore();
    await expect.poll(() => connectionStatus(page).innerText()).toBe('');
    await page.getByTestId('run-stopped').waitFor();
    await page.getByTestId('composer-send').waitFor();
    expect(await page.getByTestId('run-stopped').count()).toBe(1);
    expect(await page.getByTestId('run-error').count()).toBe(0);
    const words = (await assistantMessages(page).allInnerTexts()).join(' ');
    expect(words).not.toContain('fourteen.');
    stopped.release();
  });

  it('an approval waiting while the socket is cut shows once, and still answers', async () => {
    gemini.script(callReply('add_task', MILK_CALL), textReply('Added it.', { chunks: 3, gapMs: 20 }));
    const { page, socket } = await openPage('supervised');
    const prompt = 'Add a task to buy milk, asking me first';
    await send(page, prompt);
    const card = page.getByTestId('timeline').getByTestId('approval-card');
    await card.and(page.locator('[data-status="pending"]')).waitFor();
    const shown = await watchShown(page);
    // Paused for the person, the run leaves the composer free: what they were typing stays, and so does focus.
    await composer(page).fill('A draft');

    await cutAndReconnect(page, socket, { focused: 'composer-input' });
    expect(await composer(page).inputValue()).toBe('A draft');
    await expect.poll(() => card.count()).toBe(1);
    await card.getByTestId('approval-approve').click();
    await card.and(page.locator('[data-status="approved"]')).waitFor();
    await expect.poll(() => assistantMessages(page).last().innerText()).toContain('Added it.');
    await runEnded(page);

    expect(firstShrink(await shown())).toBeNull();
    const last = await lastShown(shown);
    expect(last.approvalCards).toBe(1);
    expect(last.toolCards).toBe(1);
    expect(timesIn(last.words, 'Added it.')).toBe(1);
    // Reloaded, the answered approval is its tool card's state (a stored thread keeps only waiting ones as cards).
    const reloaded = await afterReload(page, prompt);
    expect(reloaded.toolCards).toBe(1);
    expect(await addTaskCard(page).getAttribute('data-state')).toBe('completed');
    expect(timesIn(reloaded.words, 'Added it.')).toBe(1);
  });
});
