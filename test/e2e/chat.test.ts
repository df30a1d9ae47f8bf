import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply, statusReply, textReply } from '../fakes/gemini/script';
import type { FakeGemini } from '../fakes/gemini/types';
import { putSettings } from './support/api';
import {
  addTaskCard,
  assistantMessages,
  composer,
  focusRing,
  focusedTestId,
  send,
  usePages,
} from './support/pages';
import { startHost, type RunningHost } from './support/host';

const { newPage } = usePages();

const SHOTS = process.env.DEPUTY_SHOTS;
const PROMPT = 'Add a task to buy milk tomorrow';
const ANSWER = 'Added **Buy milk** for tomorrow.';

async function openPage(host: RunningHost, withToken = true): Promise<Page> {
  const page = await newPage();
  await page.goto(withToken ? `${host.url}/#token=${host.token}` : `${host.url}/`);
  return page;
}

describe('chat against the headless host and a fake Gemini', () => {
  let gemini: FakeGemini;
  let host: RunningHost;

  beforeAll(async () => {
    gemini = await startFakeGemini();
    host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key' });
    // These tests are about chat, not approvals: let add_task (autonomy "auto") run without asking.
    await putSettings(host, { trustLevel: 'autonomous' });
  });

  afterAll(async () => {
    await host?.stop();
    await gemini?.close();
  });

  it('streams a markdown answer with a tool-call card, and shows the thread again after a reload', async () => {
    gemini.script(
      // A side effect with no stated confidence waits for approval at every trust level.
      callReply('add_task', { description: 'Buy milk', due: '2026-11-22', confidence: 0.95 }),
      textReply(ANSWER, { chunks: 4, gapMs: 30 }),
    );
    const page = await openPage(host);
    await composer(page).waitFor();
    // The token leaves the address bar as soon as the page has read it.
    expect(page.url()).not.toContain('token=');

    await send(page, PROMPT);
    await assistantMessages(page).locator('strong', { hasText: 'Buy milk' }).waitFor();
    await expect
      .poll(() => assistantMessages(page).last().innerText())
      .toContain('Added Buy milk for tomorrow.');
    await addTaskCard(page).and(page.locator('[data-state="completed"]')).waitFor();
    await expect.poll(() => composer(page).isEnabled()).toBe(true);
    expect(gemini.pending()).toBe(0);

    await page.reload();
    const thread = page.getByTestId('thread-item').first();
    await thread.waitFor();
    await thread.click();
    await page.locator('[data-testid="message"][data-role="user"]', { hasText: PROMPT }).waitFor();
    await addTaskCard(page).and(page.locator('[data-state="completed"]')).waitFor();
    await assistantMessages(page).locator('strong', { hasText: 'Buy milk' }).waitFor();
    const order = await page
      .getByTestId('timeline')
      .locator(':scope > li')
      .evaluateAll((items) =>
        items.map((item) => item.getAttribute('data-testid') + ':' + item.getAttribute('data-role')),
      );
    // A stored run keeps its footer: its tokens and their cost, under its answer.
    expect(order).toEqual(['message:user', 'tool-call:null', 'message:assistant', 'run-usage:null']);
  });

  it('shows a model failure in place and leaves the composer usable', async () => {
    gemini.script(statusReply(500, { message: 'The fake model fell over.' }));
    const page = await openPage(host);
    await page.getByTestId('new-conversation').click();

    await send(page, 'Say something');
    const error = page.getByTestId('run-error');
    await error.waitFor();
    expect(await error.innerText()).not.toBe('');
    await expect.poll(() => composer(page).isEnabled()).toBe(true);
    await composer(page).fill('Still here?');
    expect(await page.getByTestId('composer-send').isEnabled()).toBe(true);
  });

  it('says a call whose arguments the tool refused in words, without the tool’s name, live and reopened', async () => {
    gemini.script(callReply('search_memory', { query: '' }), textReply('I could not search your memories.'));
    const page = await openPage(host);
    await send(page, 'What do I remember about milk?');
    const card = page.locator('[data-testid="tool-call"][data-tool="search_memory"]');
    const words = async () => {
      await expect
        .poll(() => card.getByTestId('tool-call-error').innerText())
        .toBe('Deputy did not run this. Its query must not be empty.');
      expect(await card.getByTestId('tool-call-summary').innerText()).toBe('Search your memories');
    };
    await words();
    await page.reload();
    await page.getByTestId('thread-item').first().click();
    await words();
  });

  it('keeps what was typed and not sent with its own conversation, over a switch and a reload', async () => {
    gemini.script(textReply('First answer.'), textReply('Second answer.'));
    const page = await openPage(host);
    await page.getByTestId('new-conversation').click();
    await send(page, 'Conversation one');
    await assistantMessages(page).filter({ hasText: 'First answer.' }).waitFor();
    await page.getByTestId('new-conversation').click();
    await send(page, 'Conversation two');
    await assistantMessages(page).filter({ hasText: 'Second answer.' }).waitFor();
    const row = (title: string) => page.getByTestId('thread-item').filter({ hasText: title });

    await composer(page).fill('A reply I have not finished');
    await row('Conversation one').click();
    await assistantMessages(page).filter({ hasText: 'First answer.' }).waitFor();
    // It does not follow the person into a conversation it was not written for.
    expect(await composer(page).inputValue()).toBe('');
    await composer(page).fill('Another half');
    await page.getByTestId('new-conversation').click();
    expect(await composer(page).inputValue()).toBe('');

    await row('Conversation two').click();
    await assistantMessages(page).filter({ hasText: 'Second answer.' }).waitFor();
    await expect.poll(() => composer(page).inputValue()).toBe('A reply I have not finished');
    await page.reload();
    await row('Conversation one').click();
    await assistantMessages(page).filter({ hasText: 'First answer.' }).waitFor();
    await expect.poll(() => composer(page).inputValue()).toBe('Another half');
    // Sent, it is gone from the shelf: the conversation opens with an empty box again.
    gemini.script(textReply('Third answer.'));
    await page.getByTestId('composer-send').click();
    await assistantMessages(page).filter({ hasText: 'Third answer.' }).waitFor();
    await page.reload();
    await row('Conversation one').click();
    await assistantMessages(page).filter({ hasText: 'Third answer.' }).waitFor();
    expect(await composer(page).inputValue()).toBe('');
  });

  it('in a browser, #/quick from the workspace starts a new question, says which conversation it asks in, and the workspace keeps its own', async () => {
    const answers = async (page: Page) => (await assistantMessages(page).allInnerTexts()).join('\n');
    gemini.script(textReply('The workspace answer.'));
    const page = await openPage(host);
    await page.getByTestId('new-conversation').click();
    await send(page, 'Asked in the workspace');
    await expect.poll(() => answers(page)).toContain('The workspace answer.');

    // What is typed here does not go on with the workspace's conversation, unseen.
    await page.goto(`${host.url}/#/quick`);
    await page.locator('.quick__empty').waitFor();
    expect(await assistantMessages(page).count()).toBe(0);
    expect(await page.getByTestId('quick-thread-title').count()).toBe(0);
    gemini.script(textReply('The quick answer.'));
    await send(page, 'Asked in the quick prompt');
    await expect.poll(() => answers(page)).toContain('The quick answer.');
    expect(await answers(page)).not.toContain('The workspace answer.');
    // Once it has a title, the header says which conversation typing goes into.
    await expect
      .poll(() => page.getByTestId('quick-thread-title').innerText())
      .toBe('Asked in the quick prompt');
    if (SHOTS)
      for (const [width, colorScheme] of [
        [1280, 'light'],
        [420, 'light'],
        [1280, 'dark'],
        [420, 'dark'],
      ] as const) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width, height: 600 });
        await page.screenshot({ path: `${SHOTS}/quick-title-${width}-${colorScheme}.png` });
      }

    // Back in the workspace, its own conversation is open again; the quick one is in the list.
    await page.goBack();
    await expect.poll(() => answers(page)).toContain('The workspace answer.');
    expect(await answers(page)).not.toContain('The quick answer.');
    await page
      .getByTestId('thread-item')
      .filter({ hasText: 'Asked in the quick prompt' })
      .waitFor({ state: 'attached' });
  });

  it('stops a run that hangs with the Stop button', async () => {
    gemini.script({ kind: 'hang' });
    const page = await openPage(host);
    await page.getByTestId('new-conversation').click();

    await send(page, 'Take your time');
    // Stop once the model holds the request, so that no hang is left in the script for the next test.
    await expect.poll(() => gemini.pending()).toBe(0);
    await page.getByTestId('composer-stop').click();
    await expect.poll(() => composer(page).isEnabled()).toBe(true);
    await page.getByTestId('composer-send').waitFor();
  });

  it('asks for the token when the address does not carry one, and says when a token is refused', async () => {
    const page = await openPage(host, false);
    await page.getByTestId('token-screen').waitFor();
    const tokenInput = page.getByLabel('Deputy API token', { exact: true });
    const connect = page.getByRole('button', { name: 'Connect' });
    await tokenInput.fill('wrong-token');
    await connect.click();
    const problem = page.getByTestId('token-screen').getByRole('alert');
    await problem.waitFor();
    // The host is there: the words say the token is wrong, not that the host may be down.
    expect(await problem.innerText()).toContain('That token is not Deputy’s');

    await tokenInput.fill(host.token);
    await connect.click();
    await composer(page).waitFor();
    await page.reload();
    await composer(page).waitFor();
  });
});

describe('a host with no Gemini key', () => {
  let host: RunningHost;

  beforeAll(async () => {
    host = await startHost();
  });

  afterAll(async () => {
    await host?.stop();
  });

  it('shows Open Settings → Connections without scrolling, down to the desktop app’s smallest window (720 x 480)', async () => {
    for (const [width, height] of [
      [720, 480],
      [420, 800],
      [1280, 800],
    ] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const page = await newPage();
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme });
        await page.goto(`${host.url}/#token=${host.token}`);
        const button = page.getByTestId('gemini-key-hint').getByTestId('open-connections');
        await button.waitFor();
        // Wholly inside the welcome as it first shows (not scrolled), its focus ring too, and not under anything.
        const place = await button.evaluate((found) => {
          const pane = found.closest('[data-testid="empty-state"]');
          const box = found.getBoundingClientRect();
          const view = pane?.getBoundingClientRect();
          const drawn = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return {
            scrollTop: pane?.scrollTop,
            isInside: !!view && box.top >= view.top && box.bottom <= view.bottom,
            isOnTop: drawn !== null && found.contains(drawn),
          };
        });
        expect({ width, height, colorScheme, ...place }).toEqual({
          width,
          height,
          colorScheme,
          scrollTop: 0,
          isInside: true,
          isOnTop: true,
        });
        // Focused, its ring is whole: the welcome did not have to scroll to show it.
        await button.focus();
        expect(await focusRing(page)).toBe('whole');
        expect(await page.getByTestId('empty-state').evaluate((pane) => pane.scrollTop)).toBe(0);
        await page.close();
      }
    }
  });

  it('in a browser, the quick prompt’s note and a failed run lead to Settings → Connections, as the main window’s do', async () => {
    const page = await openPage(host);
    await composer(page).waitFor();
    await page.goto(`${host.url}/#/quick`);
    const note = page.getByTestId('quick-key-hint');
    await note.waitFor();
    // The way to the key is the stop back from the message box, as in the desktop app.
    await expect.poll(() => focusedTestId(page)).toBe('composer-input');
    await page.keyboard.press('Shift+Tab');
    expect(await focusedTestId(page)).toBe('quick-open-connections');
    await page.keyboard.press('Enter');
    // This tab becomes the main window, Settings open at the key's field; the address is the workspace's again.
    await page.getByRole('dialog', { name: 'Settings' }).waitFor();
    await expect.poll(() => focusedTestId(page)).toBe('gemini-api-key');
    await expect.poll(() => new URL(page.url()).hash).toBe('#/');
    // Back goes back to the quick prompt, where a run that fails for want of a key offers the same way.
    await page.goBack();
    await note.waitFor();
    await send(page, 'What is on today?');
    await page.getByTestId('run-error').getByTestId('run-error-open-connections').click();
    await page.getByRole('dialog', { name: 'Settings' }).waitFor();
    await expect.poll(() => focusedTestId(page)).toBe('gemini-api-key');
  });

  it('in a browser, the quick prompt’s hint does not offer Esc to hide it: only the desktop app’s window hides', async () => {
    const page = await openPage(host);
    await composer(page).waitFor();
    await page.goto(`${host.url}/#/quick`);
    await page.getByTestId('quick-prompt').waitFor();
    expect(await page.locator('.quick__hint').innerText()).toBe('Enter send');
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('quick-prompt').isVisible()).toBe(true);
  });

  it('explains how to configure GEMINI_API_KEY', async () => {
    const page = await openPage(host);
    const hint = page.getByTestId('gemini-key-hint');
    await hint.waitFor();
    expect(await hint.innerText()).toContain('GEMINI_API_KEY');
    expect(await page.getByTestId('empty-state').innerText()).toContain('add a task to buy milk tomorrow');
    // The hint's button opens Settings where the key goes, not at the tab it was last left on.
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-tab-general').click();
    await page.getByTestId('settings-close').click();
    await hint.getByRole('button', { name: 'Open Settings → Connections' }).click();
    await expect
      .poll(() => page.getByTestId('settings-tab-connections').getAttribute('aria-selected'))
      .toBe('true');
    // …with the key field, the one step Deputy cannot work without, in view and focused, at any width.
    await expect.poll(() => focusedTestId(page)).toBe('gemini-api-key');
    const inView = () =>
      page.getByTestId('gemini-api-key').evaluate((input) => {
        const box = input.getBoundingClientRect();
        const dialog = input.closest('dialog')?.getBoundingClientRect();
        return (
          box.top >= (dialog?.top ?? 0) && box.bottom <= Math.min(innerHeight, dialog?.bottom ?? innerHeight)
        );
      });
    expect(await inView()).toBe(true);
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 420, height: 800 });
    await hint.getByRole('button', { name: 'Open Settings → Connections' }).click();
    await expect.poll(() => focusedTestId(page)).toBe('gemini-api-key');
    expect(await inView()).toBe(true);
  });

  it('points to the same place in the chat, the empty state and the API: add a key in Settings → Connections', async () => {
    const page = await openPage(host);
    const hint = await page.getByTestId('gemini-key-hint').innerText();
    // The welcome's steps are instructions: where the key comes from, where it goes, by either way of adding it.
    expect(hint).toContain(
      'Paste it in Settings → Connections (or set GEMINI_API_KEY before starting Deputy).',
    );
    const studio = page.getByTestId('gemini-key-hint').getByRole('link', { name: 'aistudio.google.com' });
    expect(await studio.getAttribute('href')).toBe('https://aistudio.google.com/apikey');
    expect(await studio.getAttribute('target')).toBe('_blank');
    await send(page, 'Hello');
    const error = page.getByTestId('run-error').locator('.run-error__text');
    await error.waitFor();
    const said = await error.innerText();
    expect(said).toContain('Settings → Connections');
    expect(said).toContain('GEMINI_API_KEY');
    // The failure explains; the welcome did not say the failure's sentence before anything failed.
    expect(hint).not.toContain(said);

    const response = await fetch(`${host.url}/api/agent/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Hello' }),
    });
    expect(response.status).toBe(503);
    const body = (await response.json()) as { ok: boolean; error: { code: string; message: string } };
    expect(body).toEqual({ ok: false, error: { code: 'model_not_configured', message: said } });
  });
});

describe('a host given a Gemini key while a failure for want of one is shown', () => {
  let host: RunningHost;

  beforeAll(async () => {
    host = await startHost();
  });

  afterAll(async () => {
    await host?.stop();
  });

  it('hears of a key saved through the API, with Settings never opened, and offers Retry', async () => {
    const page = await openPage(host);
    await send(page, 'Hello');
    const failure = page.getByTestId('run-error');
    await failure.getByTestId('run-error-open-connections').waitFor();
    expect(await failure.getByTestId('run-error-retry').count()).toBe(0);

    // A script saves the key (Gemini cannot be reached from here: it is saved unchecked).
    const saved = await fetch(`${host.url}/api/connections/gemini`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'AIzaSyExampleExampleExampleExample12345' }),
    });
    expect(saved.status).toBe(200);
    await failure.getByTestId('run-error-retry').waitFor();
    expect(await failure.getByTestId('run-error-open-connections').count()).toBe(0);
    expect(await failure.getByRole('alert').innerText()).toBe(
      'Deputy had no Gemini API key then. One is saved now: Retry asks again.',
    );
  });
});
