import { describe, expect, it } from 'vitest';
import { textReply } from '../fakes/gemini/script';
import { apiOf, askOver } from './support/api';
import { useHostedGemini } from './support/hosted';
import { isInConversationView, usePages } from './support/pages';
import { cuttableSocket } from './support/socket-cut';

const { newPage } = usePages();
const hosted = useHostedGemini();

describe('searching conversations by what was said in them, in the browser', () => {
  it('finds a word only in an answer, marks it, and opens the conversation from the keyboard', async () => {
    const host = hosted.host();
    hosted
      .gemini()
      .script(textReply('The ferry to Tangier leaves at 07:15 from the old port.'), textReply('Blue.'));
    const ferry = await askOver(host, 'When does the boat leave?');
    await askOver(host, 'What colour is the sky?');
    const page = await newPage();
    await page.goto(`${host.url}/#token=${host.token}`);
    await page.getByTestId('thread-item').nth(1).waitFor();

    await page.getByTestId('thread-search').fill('tang');
    const hit = page.getByTestId('search-hit');
    await expect.poll(() => hit.count()).toBe(1);
    expect(await hit.getAttribute('data-thread-id')).toBe(ferry);
    expect(await hit.locator('mark').allInnerTexts()).toEqual(['Tangier']);
    expect(await hit.innerText()).toContain('The ferry to Tangier leaves at 07:15');

    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page
      .locator('[data-testid="message"][data-role="user"]', { hasText: 'When does the boat leave?' })
      .waitFor();

    // Words that look like search syntax are only words.
    await page.getByTestId('thread-search').fill('"AND( *');
    await page.getByText('No conversation mentions “"AND( *”.').waitFor();
    await page.getByTestId('thread-search').fill('');
    await expect.poll(() => page.getByTestId('thread-item').count()).toBe(2);
  });

  it('opens a long conversation at the message that matched, marked and focused, not at its end', async () => {
    const host = hosted.host();
    const answers = Array.from({ length: 24 }, (_, turn) =>
      turn === 2
        ? 'The spare key is under the blue flowerpot by the shed.'
        : `Answer ${turn}: ${'nothing to see here, '.repeat(12)}`,
    );
    hosted.gemini().script(...answers.map((answer) => textReply(answer)));
    const threadId = await askOver(host, 'Question 0');
    for (let turn = 1; turn < answers.length; turn += 1) {
      const response = await apiOf(host)('/api/agent/run', {
        method: 'POST',
        body: JSON.stringify({ prompt: `Question ${turn}`, threadId }),
      });
      expect(response.status).toBe(200);
    }
    const page = await newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${host.url}/#token=${host.token}`);
    await page.getByTestId('thread-item').first().waitFor();

    await page.getByTestId('thread-search').fill('flowerpot');
    await expect.poll(() => page.getByTestId('search-hit').count()).toBe(1);
    await page.getByTestId('search-hit').getByRole('button').click();

    const found = page.locator('[data-testid="message"][data-found="true"]');
    await found.waitFor();
    expect(await found.innerText()).toContain('blue flowerpot');
    // In view, with focus on it, and the conversation not scrolled to its end.
    await expect.poll(() => found.evaluate((element) => document.activeElement === element)).toBe(true);
    // The virtual list corrects its scroll over a few frames as it measures rows: asked until it settles.
    await expect.poll(() => isInConversationView(found)).toBe(true);
    await expect
      .poll(() => page.locator('[data-testid="message"]', { hasText: 'Answer 23' }).count())
      .toBe(0);
  });

  it('a search hit opened while the connection is down, or kept open through a drop, stays marked and focused', async () => {
    const host = hosted.host();
    hosted.gemini().script(textReply('The locksmith comes on Thursday at nine.'), textReply('Noted.'));
    const threadId = await askOver(host, 'When is the locksmith due?');
    const response = await apiOf(host)('/api/agent/run', {
      method: 'POST',
      body: JSON.stringify({ prompt: 'Thanks', threadId }),
    });
    expect(response.status).toBe(200);
    const page = await newPage();
    const socket = await cuttableSocket(page);
    await page.goto(`${host.url}/#token=${host.token}`);
    await page.getByTestId('thread-item').first().waitFor();
    await page.getByTestId('thread-search').fill('locksmith thursday');
    await expect.poll(() => page.getByTestId('search-hit').count()).toBe(1);
    const found = page.locator('[data-testid="message"][data-found="true"]');
    const isFocused = () => found.evaluate((element) => document.activeElement === element);
    const dropAndReconnect = async (whileDown: () => Promise<void> = async () => undefined) => {
      socket.cut();
      await expect.poll(() => page.getByTestId('connection-status').innerText()).toContain('Reconnecting…');
      await whileDown();
      socket.restore();
      await expect.poll(() => page.getByTestId('connection-status').innerText()).toBe('');
    };

    // Opened while the window reconnects: the conversation is read once the socket is back, and read again
    // as after any reconnect; the second reading does not drop the message the hit asked for.
    await dropAndReconnect(() => page.getByTestId('search-hit').getByRole('button').click());
    await expect.poll(isFocused).toBe(true);
    expect(await found.innerText()).toContain('locksmith comes on Thursday');

    // Kept open through a drop: read again, it stays marked and keeps the focus.
    let reads = 0;
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        if (typeof payload === 'string' && payload.includes('locksmith comes')) reads += 1;
      }),
    );
    await dropAndReconnect();
    await expect.poll(() => reads).toBeGreaterThan(0);
    await page.waitForTimeout(300);
    expect(await found.innerText()).toContain('locksmith comes on Thursday');
    expect(await isFocused()).toBe(true);
  });
});
