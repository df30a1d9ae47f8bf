import { describe, expect, it } from 'vitest';
import { textReply } from '../fakes/gemini/script';
import { askOver } from './support/api';
import { useHostedGemini } from './support/hosted';
import { usePages } from './support/pages';

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
});
