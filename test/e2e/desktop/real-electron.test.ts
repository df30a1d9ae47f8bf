import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electronBinary } from '../../../scripts/electron-binary.mjs';
import { startFakeGemini } from '../../fakes/gemini/server';
import { textReply } from '../../fakes/gemini/script';
import type { FakeGemini } from '../../fakes/gemini/types';
import { assertBuilt, REPO_ROOT } from '../../harness/launch';
import { assistantText, composerOf, type } from './desktop-fixture';

/**
 * The desktop suite's core scenarios against real Electron, through Playwright's `_electron`, where its
 * binary is installed. The other files here run the same built bundles with the stand-in `electron`.
 */
const binary = electronBinary();
const SKIP_REASON =
  'Electron’s binary is not installed on this machine (node_modules/electron has no path.txt: the install ' +
  'skipped its download), so the real-Electron run is skipped. The same scenarios ran against the built ' +
  'bundles with the stand-in electron (test/harness). Install it with "npx install-electron --no" to run this.';
if (!binary) console.warn(`[real-electron] SKIPPED: ${SKIP_REASON}`);

let gemini: FakeGemini | undefined;
const folders: string[] = [];
beforeAll(async () => {
  if (binary) gemini = await startFakeGemini();
});
afterAll(async () => {
  await gemini?.close();
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

async function launch(dataDir: string): Promise<{ app: ElectronApplication; page: Page }> {
  assertBuilt();
  if (!binary || !gemini) throw new Error('no Electron binary');
  const app = await _electron.launch({
    executablePath: binary,
    args: [REPO_ROOT, `--user-data-dir=${dataDir}`, '--no-sandbox'],
    env: { ...process.env, GEMINI_API_KEY: 'fake-key', DEPUTY_GEMINI_BASE_URL: gemini.url },
  });
  const page = await app.firstWindow();
  return { app, page };
}

describe.skipIf(!binary)(
  `the built app in real Electron${binary ? '' : ` (skipped: ${SKIP_REASON})`}`,
  () => {
    it('starts on the chat, streams an answer, keeps it across a restart; no page has Node or Electron', async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'deputy-electron-'));
      folders.push(dataDir);
      const first = await launch(dataDir);
      expect(first.page.url()).toBe('app://deputy/index.html');
      gemini?.script(textReply('The answer is **42**.', { chunks: 4, gapMs: 40 }));
      await type(first.page, 'What is the answer?');
      await expect.poll(() => assistantText(first.page)).toContain('The answer is 42.');
      // Electron 45 no longer lets the main process read a window's webPreferences back, so what they grant is
      // checked from inside the page: only window.deputy, no Node, no Electron, an isolated world.
      for (const page of first.app.windows()) {
        expect(
          await page.evaluate(() => ({
            require: typeof (window as { require?: unknown }).require,
            process: typeof (window as { process?: unknown }).process,
            deputy: typeof (window as { deputy?: unknown }).deputy,
          })),
        ).toEqual({ require: 'undefined', process: 'undefined', deputy: 'object' });
      }
      await first.app.close();

      const second = await launch(dataDir);
      await composerOf(second.page).waitFor();
      await second.page.getByTestId('thread-item').first().click();
      await expect.poll(() => assistantText(second.page)).toContain('The answer is 42.');
      await second.app.close();
    });
  },
);
