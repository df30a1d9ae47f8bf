import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callReply, textReply } from '../fakes/gemini/script';
import { apiOf } from './support/api';
import { useHostedGemini } from './support/hosted';
import { usePages } from './support/pages';

const { newPage } = usePages();
const hosted = useHostedGemini();

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 420, height: 700 },
];
const MATCH = 'The spare key is under the blue flowerpot by the shed.';

/** An answer taller than the window, many times the list's guess for a row it has not measured yet. */
const tallAnswer = (turn: number) =>
  Array.from(
    { length: 16 },
    (_, part) =>
      `${turn === 5 && part === 0 ? MATCH : `Answer ${turn}, part ${part}:`} ${'the week ahead looks busy but manageable, '.repeat(6)}`,
  ).join('\n\n');

/** Where an element is against the conversation's viewport: room above it and below it (negative: cut off). */
const placeIn = (page: Page, selector: string) =>
  page.getByTestId('conversation').evaluate((section, target) => {
    const view = section.getBoundingClientRect();
    const box = section.querySelector(target)?.getBoundingClientRect();
    return box ? { above: box.top - view.top, below: view.bottom - box.bottom } : null;
  }, selector);
const isWhole = (place: { above: number; below: number } | null) =>
  place !== null && place.above >= 0 && place.below >= 0;

/** Polls until the element is wholly in view, then checks it stays there once the rows near it are measured. */
async function expectStaysInView(page: Page, selector: string, label: string) {
  await expect.poll(async () => isWhole(await placeIn(page, selector)), { message: label }).toBe(true);
  await page.waitForTimeout(600);
  const settled = await placeIn(page, selector);
  expect(isWhole(settled), `${label}: ${JSON.stringify(settled)}`).toBe(true);
}

describe('where the conversation puts its rows, in the browser', () => {
  // One conversation of 16 tall answers, then a run waiting for approval: made once, over the host's API.
  let made: Promise<string> | undefined;
  const tallConversation = () => (made ??= makeTallConversation());
  async function makeTallConversation(): Promise<string> {
    const ask = async (prompt: string, threadId?: string) => {
      const response = await apiOf(hosted.host())('/api/agent/run', {
        method: 'POST',
        body: JSON.stringify({ prompt, ...(threadId !== undefined && { threadId }) }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { threadId: string }).threadId;
    };
    hosted.gemini().script(textReply(tallAnswer(0)));
    const threadId = await ask('Question 0');
    for (let turn = 1; turn < 16; turn += 1) {
      hosted.gemini().script(textReply(tallAnswer(turn)));
      await ask(`Question ${turn}`, threadId);
    }
    const milk = {
      description: 'Buy milk',
      confidence: 0.95,
      intent: 'add task',
      reasoning: 'asked',
      assumptions: [],
    };
    hosted.gemini().script(callReply('add_task', milk), textReply('Added it.'));
    await ask('Add a task to buy milk', threadId);
    return threadId;
  }

  async function openPage(viewport: { width: number; height: number }): Promise<Page> {
    await tallConversation();
    const page = await newPage();
    await page.setViewportSize(viewport);
    const host = hosted.host();
    await page.goto(`${host.url}/#token=${host.token}`);
    return page;
  }

  it('opens a long conversation of tall answers at its waiting approval, the card’s title in view', async () => {
    for (const viewport of VIEWPORTS) {
      const page = await openPage(viewport);
      await page.getByTestId('open-approvals').click();
      await page.getByTestId('approvals-panel').getByTestId('pending-open').click();
      await page.getByTestId('timeline').getByTestId('approval-card').waitFor();
      await expectStaysInView(page, '[data-testid="approval-card"] h3', `${viewport.width} px`);
    }
  });

  it('opens it at a search hit in an answer taller than the window from the answer’s top, where the match is', async () => {
    for (const viewport of VIEWPORTS) {
      const page = await openPage(viewport);
      if (viewport.width < 600) await page.getByTestId('drawer-toggle').click();
      await page.getByTestId('thread-search').fill('flowerpot');
      await page.getByTestId('search-hit').getByRole('button').click();
      const found = page.locator('[data-testid="message"][data-found="true"]');
      await found.waitFor();
      expect(await found.innerText()).toContain(MATCH);
      await expectStaysInView(page, '[data-found="true"] p:first-of-type', `${viewport.width} px`);
      // Taller than the window, it is shown from its top, not centred with its start cut off.
      expect((await placeIn(page, '[data-found="true"]'))?.above).toBeGreaterThanOrEqual(0);
    }
  });
});
