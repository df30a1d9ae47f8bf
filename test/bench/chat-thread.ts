import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser';
import { startHost } from '../e2e/support/host';
import { seedLongThread } from '../e2e/support/seed-thread';
import { startFakeGemini } from '../fakes/gemini/server';
import { textReply } from '../fakes/gemini/script';
import { summarize } from './stats';

/**
 * `npm run bench:chat` (after `npm run build`): the chat in Chromium against the headless host and the fake
 * Gemini. Opens a thread of `messages` messages several times (from asking for it to the last answer
 * painted) and streams a long answer into it, recording the time between animation frames.
 */
export async function benchChatThread(messages: number, opens = 5) {
  const gemini = await startFakeGemini();
  const dataDir = await mkdtemp(join(tmpdir(), 'deputy-bench-chat-'));
  const first = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key', dataDir });
  await first.stop();
  const threadId = seedLongThread(dataDir, messages);
  const host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key', dataDir });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${host.url}/#token=${host.token}`);
    await page.getByLabel('Message Deputy').waitFor();
    const lastText = `Answer number ${messages - 1}.`;
    const openTimes: number[] = [];
    for (let i = 0; i < opens; i += 1) {
      await page.evaluate(LEAVE_SCRIPT);
      await page.getByTestId('new-conversation').click();
      await page.getByTestId('empty-state').waitFor();
      openTimes.push(await timeOpen(page, threadId, lastText));
    }

    const chunks = 400;
    // An answer as long answers are: paragraphs, a list, a table, each a few hundred characters.
    const paragraph = 'A streamed answer with **bold** words and a [link](https://example.com). '.repeat(4);
    const block = `${paragraph}\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n`;
    gemini.script(textReply(block.repeat(12), { chunks, gapMs: 8 }));
    const frames = await framesWhileStreaming(page);
    const intervals = frames.slice(1).map((at, index) => at - (frames[index] ?? at));
    return {
      open: summarize(openTimes),
      frames: summarize(intervals),
      chunks,
      count: intervals.length,
      intervals,
    };
  } finally {
    await browser.close();
    await host.stop();
    await gemini.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

// The page-side scripts are strings: tsx would wrap named functions in a helper the page does not have.
const OPEN_SCRIPT = `(({ threadId, lastText }) => new Promise((resolve) => {
  const start = performance.now();
  const observer = new MutationObserver(() => {
    if (document.querySelector('[data-testid="timeline"]')?.textContent?.includes(lastText)) {
      observer.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - start));
    }
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  location.hash = '#/thread/' + threadId;
}))`;

/** Leaves the thread's address, so asking for it again is a change the window follows. */
const LEAVE_SCRIPT = `location.hash = '#/'`;

const FRAMES_START = `(() => {
  window.benchFrames = [];
  const tick = (at) => {
    window.benchFrames.push(at);
    if (!window.benchStop) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

const FRAMES_STOP = `(() => { window.benchStop = true; return window.benchFrames; })()`;

/** From asking for the thread to the frame after its last answer is in the page. */
async function timeOpen(page: Page, threadId: string, lastText: string): Promise<number> {
  const open = await page.evaluateHandle(OPEN_SCRIPT);
  return (await open.evaluate((run, input) => (run as (input: unknown) => Promise<number>)(input), {
    threadId,
    lastText,
  })) as number;
}

/** Sends a message and records every animation frame until the streamed answer is complete. */
async function framesWhileStreaming(page: Page): Promise<number[]> {
  await page.evaluate(FRAMES_START);
  await page.getByLabel('Message Deputy').fill('Tell me a long story');
  await page.getByLabel('Message Deputy').press('Enter');
  await page.locator('[data-streaming="true"]').waitFor();
  await page.locator('[data-streaming="true"]').waitFor({ state: 'detached', timeout: 120_000 });
  return (await page.evaluate(FRAMES_STOP)) as number[];
}
