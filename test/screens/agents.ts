import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser';
import { startHost } from '../e2e/support/host';
import { openFromHeader } from '../e2e/support/pages';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply } from '../fakes/gemini/script';
import { dataDirWithAgents } from '../support/agent-kit';

/**
 * Screenshots of Settings → Agents (an agent file naming a tool Deputy lacks) and of a chat whose child agent was
 * stopped, at 1280 and 420 px: `tsx test/screens/agents.ts <folder>` (the renderer must be built).
 */
const folder = process.argv[2] ?? 'screens';
mkdirSync(folder, { recursive: true });

const gemini = await startFakeGemini();
const dataDir = dataDirWithAgents(
  { name: 'lead', tools: ['helper', 'list_tasks'] },
  { name: 'helper', displayName: 'Task helper', tools: ['list_tasks', 'add_task'] },
  { name: 'sloppy', tools: ['list_taskz', 'list_tasks', 'slack_sendd'] },
);
const host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key', dataDir });
const browser = await launchBrowser();

async function open(width: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 1000 } });
  await page.goto(`${host.url}/#token=${host.token}`);
  await page.getByLabel('Message Deputy').waitFor();
  return page;
}

try {
  for (const width of [1280, 420]) {
    const page = await open(width);
    await openFromHeader(page, 'open-settings');
    await page.getByTestId('settings-tab-agents').click();
    const card = page.getByTestId('agent-sloppy');
    await card.waitFor();
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(folder, `agents-settings-${width}.png`) });
    await card.screenshot({ path: join(folder, `agents-settings-card-${width}.png`) });
    await page.close();
  }
  for (const width of [1280, 420]) {
    gemini.script(
      callReply('delegate_to_agent', { agent: 'helper', task: 'add a task to buy milk' }),
      callReply('add_task', { description: 'Buy milk', confidence: 0.95, intent: 'add task' }),
    );
    const page = await open(width);
    await page.getByLabel('Message Deputy').fill('Have the helper add a task to buy milk');
    await page.getByLabel('Message Deputy').press('Enter');
    await page.getByTestId('child-run').getByTestId('approval-card').waitFor();
    await page.getByTestId('composer-stop').click();
    await page.locator('[data-testid="run-stopped"]:not([data-testid="child-run"] *)').waitFor();
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(folder, `agents-stopped-${width}.png`) });
    await page.getByTestId('child-run').locator('summary').first().click();
    await page.screenshot({ path: join(folder, `agents-stopped-open-${width}.png`) });
    await page.close();
  }
} finally {
  await browser.close();
  await host.stop();
  await gemini.close();
}
