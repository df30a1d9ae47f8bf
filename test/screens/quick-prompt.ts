import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser } from '../e2e/support/browser';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply, textReply } from '../fakes/gemini/script';
import { launchDeputy } from '../harness/launch';

/**
 * Screenshots of the quick prompt, run as the built app in the harness: `npm run build`, then
 * `tsx test/screens/quick-prompt.ts <folder>`. For each of light and dark: the window at its real size
 * (560×440) empty, answering, and asking for approval; then the same page at 1280 and 420 px wide.
 */
const folder = process.argv[2] ?? 'screens';
mkdirSync(folder, { recursive: true });

const browser = await launchBrowser();
const gemini = await startFakeGemini();
for (const colorScheme of ['light', 'dark'] as const) {
  const dataDir = await mkdtemp(join(tmpdir(), 'deputy-screens-'));
  const app = await launchDeputy({
    browser,
    dataDir,
    colorScheme,
    env: { GEMINI_API_KEY: 'fake-key', DEPUTY_GEMINI_BASE_URL: gemini.url },
  });
  await app.mainWindow();
  app.globalShortcut.press('Alt+Space');
  const quick = await app.waitForWindow((url) => url.endsWith('#/quick'), 'the quick prompt');
  const page = await quick.page();
  const composer = page.getByLabel('Message Deputy');
  await composer.waitFor();
  await page.screenshot({ path: join(folder, `quick-${colorScheme}-560-empty.png`) });

  gemini.script(textReply('Your next meeting is **Design review** at 14:00 with Ana and Joe, in Room 4.'));
  await composer.fill('When is my next meeting?');
  await composer.press('Enter');
  await page.locator('[data-testid="message"][data-role="assistant"] strong').waitFor();
  await page.screenshot({ path: join(folder, `quick-${colorScheme}-560-answer.png`) });

  gemini.script(
    callReply('add_task', {
      description: 'Send Ana the review notes',
      due: '2026-11-24',
      confidence: 0.95,
      intent: 'add task',
      reasoning: 'asked',
      assumptions: [],
    }),
  );
  await composer.fill('Remind me to send Ana the review notes tomorrow');
  await composer.press('Enter');
  await page.getByTestId('approval-approve').waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(folder, `quick-${colorScheme}-560-approval.png`) });
  for (const width of [1280, 420]) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 700 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(folder, `quick-${colorScheme}-${width}-approval.png`) });
  }
  await app.quit();
  await rm(dataDir, { recursive: true, force: true });
}
await gemini.close();
await browser.close();
console.log(`Screenshots in ${folder}/`);
