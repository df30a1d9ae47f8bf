import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply, textReply } from '../fakes/gemini/script';
import type { FakeGemini } from '../fakes/gemini/types';
import { putSettings } from './support/api';
import { assistantMessages, composer, send, usePages } from './support/pages';
import { startHost, type RunningHost } from './support/host';

const { newPage } = usePages();

const GEMINI_KEY = 'AIza-e2e-pasted-key-0123456789';

const card = (page: Page, name: string) => page.getByTestId(`connection-${name}`);
const withState = (locator: Locator, state: string) =>
  locator.and(locator.page().locator(`[data-state="${state}"]`));
const memoryTexts = (page: Page) => page.getByTestId('memory-text').allInnerTexts();

async function openPage(host: RunningHost): Promise<Page> {
  const page = await newPage();
  await page.goto(`${host.url}/#token=${host.token}`);
  await composer(page).waitFor();
  return page;
}

async function openSettingsTab(page: Page, tab: 'connections' | 'memory'): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId(`settings-tab-${tab}`).click();
}

async function closeSettings(page: Page): Promise<void> {
  await page.getByTestId('settings-close').click();
}

async function connectGemini(page: Page): Promise<void> {
  await openSettingsTab(page, 'connections');
  const gemini = card(page, 'gemini');
  await withState(gemini, 'disconnected').waitFor();
  await gemini.getByLabel('API key').fill(GEMINI_KEY);
  await gemini.getByTestId('gemini-connect').click();
  await withState(gemini, 'connected').waitFor();
}

describe('Settings → Connections and Memory against the headless host', () => {
  let gemini: FakeGemini;
  let host: RunningHost;

  beforeAll(async () => {
    gemini = await startFakeGemini();
    // No GEMINI_API_KEY: the only key the host gets is the one pasted in Settings.
    host = await startHost({ geminiUrl: gemini.url });
    // save_memory is "notify": under autonomous trust it runs without waiting for an approval.
    await putSettings(host, { trustLevel: 'autonomous' });
  });

  afterAll(async () => {
    await host?.stop();
    await gemini?.close();
  });

  it('connects Gemini with a pasted key that is used but never shown, then disconnects after confirming', async () => {
    const page = await openPage(host);
    await connectGemini(page);
    const geminiCard = card(page, 'gemini');
    expect(await geminiCard.getByTestId('connection-account').innerText()).toContain(
      'API key saved in Settings',
    );
    // The field is emptied after the submit, and the key appears nowhere on the page.
    expect(await geminiCard.getByLabel('New API key').inputValue()).toBe('');
    expect(await page.content()).not.toContain(GEMINI_KEY);

    await page.reload();
    await composer(page).waitFor();
    await openSettingsTab(page, 'connections');
    await withState(card(page, 'gemini'), 'connected').waitFor();
    await closeSettings(page);

    // The stored key is the one the model is called with.
    gemini.script(textReply('Hello from the fake.'));
    await send(page, 'Hello');
    await expect.poll(() => assistantMessages(page).last().innerText()).toContain('Hello from the fake.');
    expect(gemini.requests.at(-1)?.apiKey).toBe(GEMINI_KEY);

    await openSettingsTab(page, 'connections');
    await geminiCard.getByTestId('connection-disconnect').click();
    // Nothing happens until the inline confirmation; "Keep" backs out.
    await geminiCard.getByTestId('connection-disconnect-keep').click();
    await withState(geminiCard, 'connected').waitFor();
    await geminiCard.getByTestId('connection-disconnect').click();
    await geminiCard.getByTestId('connection-disconnect-confirm').click();
    await withState(geminiCard, 'disconnected').waitFor();

    await page.reload();
    await composer(page).waitFor();
    await openSettingsTab(page, 'connections');
    await withState(card(page, 'gemini'), 'disconnected').waitFor();
  });

  it('shows what a chat remembered, newest first, and searches, edits and deletes it', async () => {
    const page = await openPage(host);
    await connectGemini(page);
    await closeSettings(page);

    gemini.script(
      callReply('save_memory', { text: 'Ada prefers tea in the afternoon', confidence: 0.95 }),
      callReply('save_memory', { text: 'Ada manages the Lisbon office', confidence: 0.95 }),
      callReply('save_memory', { text: 'Ada skips meetings on Fridays', confidence: 0.95 }),
      textReply('I will remember all three.'),
    );
    await send(page, 'Remember: tea in the afternoon, I manage Lisbon, no meetings on Fridays.');
    await expect
      .poll(() => assistantMessages(page).last().innerText())
      .toContain('I will remember all three.');

    await openSettingsTab(page, 'memory');
    await expect
      .poll(() => memoryTexts(page))
      .toEqual([
        'Ada skips meetings on Fridays',
        'Ada manages the Lisbon office',
        'Ada prefers tea in the afternoon',
      ]);

    await page.getByLabel('Search memories').fill('lisbon');
    await expect.poll(() => memoryTexts(page)).toEqual(['Ada manages the Lisbon office']);

    // Escape leaves the edit (and only the edit: the dialog stays open).
    const item = page.getByTestId('memory-item');
    await item.getByTestId('memory-edit').click();
    await item.getByTestId('memory-editor').fill('Something else');
    await item.getByTestId('memory-editor').press('Escape');
    await expect.poll(() => memoryTexts(page)).toEqual(['Ada manages the Lisbon office']);
    expect(await page.getByTestId('settings-close').isVisible()).toBe(true);
    // Focus went back to the Edit button, so Enter opens the editor again.
    await page.keyboard.press('Enter');
    await item.getByTestId('memory-editor').fill('Ada manages the Lisbon and Porto offices');
    await item.getByTestId('memory-editor').press('Enter');
    await expect.poll(() => memoryTexts(page)).toEqual(['Ada manages the Lisbon and Porto offices']);

    await page.getByLabel('Search memories').fill('tea');
    await expect.poll(() => memoryTexts(page)).toEqual(['Ada prefers tea in the afternoon']);
    await item.getByTestId('memory-delete').click();
    await item.getByTestId('memory-delete-confirm').click();
    await expect
      .poll(() => page.getByTestId('memory-empty').innerText())
      .toContain('Nothing remembered matches “tea”');

    // What changed is in the host, not just on screen.
    await page.reload();
    await composer(page).waitFor();
    await openSettingsTab(page, 'memory');
    await expect
      .poll(() => memoryTexts(page))
      .toEqual(['Ada skips meetings on Fridays', 'Ada manages the Lisbon and Porto offices']);
  });
});
