import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { putSettings } from '../e2e/support/api';
import { launchBrowser } from '../e2e/support/browser';
import { startHost } from '../e2e/support/host';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply, textReply } from '../fakes/gemini/script';

/**
 * Screenshots of the audit viewer with an entry open, at 1280 and 420 px, light and dark:
 * `tsx test/screens/audit-viewer.ts <folder>` (the renderer must be built). A few runs fill the trail first:
 * a task added (with an assumption), then changed, a read, and a refused request. Then the add's undo, refused
 * because the task changed since (`audit-undo-*`).
 */
const folder = process.argv[2] ?? 'screens';
mkdirSync(folder, { recursive: true });

const gemini = await startFakeGemini();
const host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key' });
const browser = await launchBrowser();

async function run(prompt: string): Promise<{ output?: { task?: { id: string } } }> {
  const response = await fetch(`${host.url}/api/agent/run`, {
    method: 'POST',
    headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt }),
  });
  return (await response.json()) as { output?: { task?: { id: string } } };
}

try {
  await putSettings(host, { trustLevel: 'autonomous' });
  const meta = { intent: 'Keep the passport renewal on the list', confidence: 0.93 };
  gemini.script(
    callReply('add_task', {
      description: 'Renew passport',
      due: '2026-11-27',
      notes: 'Photos from the shop on Main St.',
      reasoning: 'The person asked for a task due this Friday.',
      assumptions: [
        {
          statement: '"Friday" means Friday 27 November',
          category: 'intent',
          evidence: ['"by Friday"'],
          confidence: 0.85,
        },
        { statement: 'No reminder is wanted', category: 'preference', evidence: [] },
      ],
      ...meta,
    }),
    textReply('Added it.'),
  );
  const added = await run('Add a task to renew my passport by Friday');
  const id = added.output?.task?.id ?? '';
  gemini.script(
    callReply('update_task', { id, description: 'Renew passport and ID card', due: '2026-12-04', ...meta }),
    textReply('Changed it.'),
  );
  await run('Make it passport and ID card, next Friday');
  gemini.script(callReply('list_tasks', {}), textReply('One task.'));
  await run('What is on my list?');
  gemini.script(
    callReply('refuse', {
      reason: 'I cannot check the weather; I can help with mail, calendar, Slack and tasks.',
    }),
  );
  await run("What's the weather?");

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 420]) {
      const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
      await page.goto(`${host.url}/#/audit&token=${host.token}`);
      const row = page.locator('[data-testid="audit-row"][data-tool="update_task"]');
      await row.waitFor({ timeout: 8000 }).catch(async (error: unknown) => {
        await page.screenshot({ path: join(folder, 'debug.png') });
        throw error;
      });
      await row.getByRole('button').click();
      await page.getByTestId('audit-diff').waitFor();
      await page.screenshot({
        path: join(folder, `audit-${colorScheme}-${width}.png`),
        fullPage: width === 420,
      });
      // The task was changed after it was added: undoing the add says what changed and offers Undo anyway.
      await page.locator('[data-testid="audit-row"][data-tool="add_task"]').getByRole('button').click();
      await page.getByTestId('audit-undo').click();
      await page.getByTestId('audit-undo-changed').waitFor();
      await page.screenshot({
        path: join(folder, `audit-undo-${colorScheme}-${width}.png`),
        fullPage: width === 420,
      });
      await page.close();
    }
  }
} finally {
  await browser.close();
  await host.stop();
  await gemini.close();
}
