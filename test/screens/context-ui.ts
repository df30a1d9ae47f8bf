import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditListOutput, RunResponse } from '../../shared/contract';
import { putSettings } from '../e2e/support/api';
import { launchBrowser } from '../e2e/support/browser';
import { startHost } from '../e2e/support/host';
import { startFakeGemini } from '../fakes/gemini/server';
import { statedIntentThenTask } from '../support/intent-turn';

/**
 * Screenshots of the run's intent in the audit detail, and of Settings → Data's recent-mail opt-in, at 1280 and
 * 420 px, light and dark: `tsx test/screens/context-ui.ts <folder>` (the renderer must be built).
 */
const folder = process.argv[2] ?? 'screens';
mkdirSync(folder, { recursive: true });

const gemini = await startFakeGemini();
const host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key' });
const browser = await launchBrowser();
const headers = { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' };

try {
  await putSettings(host, { trustLevel: 'autonomous' });
  gemini.script(...statedIntentThenTask());
  const run = (await (
    await fetch(`${host.url}/api/agent/run`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ prompt: 'Remind me to renew my passport by Friday' }),
    })
  ).json()) as RunResponse;
  const { entries } = (await (
    await fetch(`${host.url}/api/audit?runId=${run.runId}`, { headers })
  ).json()) as AuditListOutput;
  const decision = entries.find((entry) => entry.kind === 'decision');
  if (!decision) throw new Error('no decision entry');

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 420]) {
      const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
      await page.goto(`${host.url}/#/audit/${decision.id}&token=${host.token}`);
      const intent = page.getByTestId('audit-intent');
      await intent.waitFor();
      await intent.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(folder, `intent-${colorScheme}-${width}.png`) });
      await page.goto(`${host.url}/#token=${host.token}`);
      await page.getByTestId('open-settings').click();
      await page.getByRole('tab', { name: 'Data' }).click();
      const optIn = page.getByTestId('embed-recent-mail');
      await optIn.waitFor();
      await optIn.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(folder, `data-${colorScheme}-${width}.png`) });
      await page.close();
    }
  }
} finally {
  await browser.close();
  await host.stop();
  await gemini.close();
}
