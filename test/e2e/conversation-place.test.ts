import { describe, expect, it } from 'vitest';
import { callReply, textReply } from '../fakes/gemini/script';
import { apiOf } from './support/api';
import { useHostedGemini } from './support/hosted';
import { usePages } from './support/pages';

const { newPage } = usePages();
const hosted = useHostedGemini();

/** An answer many times taller than the list's guess for a row it has not measured yet. */
const tallAnswer = (turn: number) =>
  Array.from(
    { length: 10 },
    (_, paragraph) =>
      `Answer ${turn}, part ${paragraph}: ${'the week ahead looks busy but manageable, '.repeat(5)}`,
  ).join('\n\n');

describe('where the conversation puts its rows, in the browser', () => {
  it('opens a long conversation of tall answers at its waiting approval, the card’s title in view, wide and narrow', async () => {
    const host = hosted.host();
    const ask = async (prompt: string, threadId?: string) => {
      const response = await apiOf(host)('/api/agent/run', {
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

    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 420, height: 700 },
    ]) {
      const page = await newPage();
      await page.setViewportSize(viewport);
      await page.goto(`${host.url}/#token=${host.token}`);
      await page.getByTestId('open-approvals').click();
      await page.getByTestId('approvals-panel').getByTestId('pending-open').click();
      const card = page.getByTestId('timeline').getByTestId('approval-card');
      await card.waitFor();
      /** The card's title against the conversation's viewport. */
      const title = () =>
        page.getByTestId('conversation').evaluate((section) => {
          const view = section.getBoundingClientRect();
          const heading = section.querySelector('[data-testid="approval-card"] h3')?.getBoundingClientRect();
          return heading ? { top: heading.top - view.top, bottom: view.bottom - heading.bottom } : null;
        });
      const isShown = (place: { top: number; bottom: number } | null) =>
        place !== null && place.top >= 0 && place.bottom >= 0;
      await expect.poll(async () => isShown(await title()), { message: `${viewport.width} px` }).toBe(true);
      // Still there once every row near it has been measured at its real height.
      await page.waitForTimeout(600);
      const settled = await title();
      expect(isShown(settled), `${viewport.width} px: ${JSON.stringify(settled)}`).toBe(true);
    }
  });
});
