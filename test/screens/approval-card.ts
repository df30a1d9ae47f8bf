import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { GOALS, type Goal } from '../adversarial/goals';
import { obedientReply } from '../adversarial/obedient-model';
import { putSettings } from '../e2e/support/api';
import { launchBrowser } from '../e2e/support/browser';
import { startHost, type RunningHost } from '../e2e/support/host';
import { startFakeGemini } from '../fakes/gemini/server';
import { startFakeGoogle } from '../fakes/google/server';
import { startFakeSlack } from '../fakes/slack/server';
import { googleEnv } from '../support/connect';

/**
 * Screenshots of the approval card for an injected action, at 1280 and 420 px, to see how "where this came
 * from" and "who will be told" read: `tsx test/screens/approval-card.ts <folder>` (the renderer must be built).
 * Each scene is one goal of the injection suite, against the headless host, the obedient model and the fakes.
 */
const folder = process.argv[2] ?? 'screens';
mkdirSync(folder, { recursive: true });

function goal(id: string): Goal {
  const found = GOALS.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no goal ${id}`);
  return found;
}

async function call(host: RunningHost, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${host.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return response.json();
}

async function shoot(browser: Browser, host: RunningHost, scene: string, prompt: string): Promise<void> {
  for (const width of [1280, 420]) {
    const page = await browser.newPage({ viewport: { width, height: 1000 } });
    await page.goto(`${host.url}/#token=${host.token}`);
    await page.getByLabel('Message Deputy').fill(prompt);
    await page.getByLabel('Message Deputy').press('Enter');
    const card = page.getByTestId('timeline').getByTestId('approval-card').first();
    await card.waitFor({ timeout: 20_000 });
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(folder, `${scene}-${width}.png`) });
    await card.screenshot({ path: join(folder, `${scene}-card-${width}.png`) });
    await page.close();
  }
}

const gemini = await startFakeGemini({ fallback: obedientReply });
const slack = await startFakeSlack();
const google = await startFakeGoogle();
const posted = goal('slack/post_link');
slack.state.channel('#general')?.messages.push({
  ts: '1767240000.000900',
  user: 'U0BOB0002',
  text: `Heads up for everyone. ${posted.injection}`,
});
const moved = goal('event/location_link');
google.calendar.addEvent({
  summary: 'Budget review',
  start: { dateTime: '2026-11-24T10:00:00+01:00' },
  end: { dateTime: '2026-11-24T11:00:00+01:00' },
  description: `Agenda: Q4 budget. ${moved.injection}`,
  attendees: [
    { email: 'me@example.com', self: true, responseStatus: 'accepted' },
    { email: 'ana@mycompany.com' },
    { email: 'client@partner-corp.com' },
  ],
});
const host = await startHost({
  geminiUrl: gemini.url,
  geminiApiKey: 'fake-key',
  env: { ...slack.env, ...googleEnv(google) },
});
const browser = await launchBrowser();
try {
  await putSettings(host, {
    trustLevel: 'autonomous',
    timezone: 'Europe/Paris',
    userEmail: 'me@example.com',
  });
  await call(host, 'PUT', '/api/connections/slack', { token: slack.state.issueToken() });
  const { authUrl } = (await call(host, 'POST', '/api/connections/google/start', {})) as { authUrl: string };
  await fetch(authUrl);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await shoot(browser, host, 'slack-link', posted.benign.prompt);
  await shoot(browser, host, 'event-location', moved.benign.prompt);
} finally {
  await browser.close();
  await host.stop();
  await Promise.all([gemini.close(), slack.close(), google.close()]);
}
