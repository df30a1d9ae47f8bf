import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeGemini } from '../../fakes/gemini/server';
import { textReply } from '../../fakes/gemini/script';
import type { FakeGemini } from '../../fakes/gemini/types';
import { launchDeputy } from '../../harness/launch';
import { launchBrowser } from '../support/browser';
import { assistantMessages, send } from '../support/pages';

let browser: Browser;
let gemini: FakeGemini;
beforeAll(async () => {
  browser = await launchBrowser();
  gemini = await startFakeGemini();
});
afterAll(async () => {
  await browser?.close();
  await gemini?.close();
});

it('smoke', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'deputy-desktop-'));
  const app = await launchDeputy({ browser, dataDir, env: { GEMINI_API_KEY: 'k', DEPUTY_GEMINI_BASE_URL: gemini.url } });
  const main = await app.mainWindow();
  const page = await main.page();
  page.on('console', (m) => console.log('[page]', m.text()));
  console.log(page.url(), app.errorBoxes);
  gemini.script(textReply('Hello **there**.', { chunks: 3, gapMs: 20 }));
  await send(page, 'Hi');
  await expect.poll(() => assistantMessages(page).last().innerText()).toContain('Hello there.');
  await app.quit();
});
