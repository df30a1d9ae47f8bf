import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser';
import { startHost } from '../e2e/support/host';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply } from '../fakes/gemini/script';

/**
 * Screenshots of a plan tree waiting for approval in the chat, at 1280 and 420 px, light and dark, then cancelled:
 * `tsx test/screens/plan-tree.ts <folder>` (the renderer must be built).
 */
const folder = process.argv[2] ?? 'screens';
mkdirSync(folder, { recursive: true });

const gemini = await startFakeGemini();
const host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key' });
const browser = await launchBrowser();

/** The conversation just made: from the list, which a narrow window keeps in a drawer. */
async function openLatest(page: Page): Promise<void> {
  const toggle = page.getByTestId('drawer-toggle');
  await page.getByLabel('Message Deputy').waitFor();
  if (await toggle.isVisible()) await toggle.click();
  await page.getByTestId('thread-item').first().click();
  // The drawer slides away before the picture is taken.
  await page.waitForTimeout(400);
}

try {
  gemini.script(
    callReply('propose_plan', {
      goal: 'Tidy my tasks and add milk',
      steps: [
        { id: 'list', title: 'Look at my tasks', tool: 'list_tasks', args: {} },
        { id: 'think', title: 'Decide what is missing', dependsOn: ['list'] },
        {
          id: 'add',
          title: 'Add “Buy milk”',
          tool: 'add_task',
          args: { description: 'Buy milk' },
          dependsOn: ['list'],
        },
      ],
    }),
    callReply('list_tasks', {}),
    callReply('add_task', { description: 'Buy milk', confidence: 0.95, intent: 'add task' }),
  );
  for (const [width, scheme] of [
    [1280, 'light'],
    [1280, 'dark'],
    [420, 'light'],
    [420, 'dark'],
  ] as const) {
    const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
    await page.goto(`${host.url}/#token=${host.token}`);
    if (width === 1280 && scheme === 'light') {
      await page.getByLabel('Message Deputy').fill('Look at my tasks and add one to buy milk');
      await page.keyboard.press('Enter');
    } else {
      await openLatest(page);
    }
    await page.locator('[data-testid="plan-step"][data-status="awaiting_approval"]').waitFor();
    await page.getByTestId('plan-tree').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(folder, `plan-tree-${width}-${scheme}.png`) });
    await page.close();
  }
  // The same plan once cancelled while its step waited: the step reads cancelled, with why.
  for (const width of [1280, 420]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${host.url}/#token=${host.token}`);
    await openLatest(page);
    const tree = page.getByTestId('plan-tree');
    await tree.waitFor();
    if (width === 1280) await tree.getByTestId('plan-cancel').click();
    await page.locator('[data-testid="plan-tree"][data-status="cancelled"]').waitFor();
    await tree.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(folder, `plan-tree-cancelled-${width}.png`) });
    await page.close();
  }
} finally {
  await browser.close();
  await host.stop();
  await gemini.close();
}
