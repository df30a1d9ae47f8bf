import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AuditListOutput, RunResponse, Settings } from '../../shared/contract';
import { statedIntentThenTask } from '../support/intent-turn';
import { axeViolations } from './support/axe';
import { useHostedGemini } from './support/hosted';
import { usePages } from './support/pages';

const { newPage } = usePages();

describe('the intent in the audit viewer, and the recent-mail opt-in in Settings → Data', () => {
  const hosted = useHostedGemini({ trustLevel: 'autonomous' });

  const api = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const host = hosted.host();
    const response = await fetch(`${host.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
    });
    return (await response.json()) as T;
  };

  async function checkBothSchemes(page: Page): Promise<void> {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    }
  }

  it('a run’s decision entry shows what Deputy understood, and the page has no axe violations', async () => {
    hosted.gemini().script(...statedIntentThenTask());
    const run = await api<RunResponse>('/api/agent/run', {
      method: 'POST',
      body: JSON.stringify({ prompt: 'Remind me to renew my passport by Friday' }),
    });
    const { entries } = await api<AuditListOutput>(`/api/audit?runId=${run.runId}`);
    const decision = entries.find((entry) => entry.kind === 'decision');
    if (!decision) throw new Error('the run has no decision entry');

    const page = await newPage();
    const host = hosted.host();
    await page.goto(`${host.url}/#/audit/${decision.id}&token=${host.token}`);
    const intent = page.getByTestId('audit-intent');
    await intent.waitFor();
    const text = await intent.innerText();
    expect(text).toContain('What Deputy understood');
    expect(text).toContain('add_task');
    expect(text).toContain('90%');
    expect(text).toContain('Date or time: Friday');
    expect(await intent.getByTestId('audit-intent-question').innerText()).toBe(
      'No: it was clear enough to act on',
    );
    await checkBothSchemes(page);
  });

  it('the recent-mail opt-in is off by default, says what it sends, and turns on from the keyboard', async () => {
    const page = await newPage();
    const host = hosted.host();
    await page.goto(`${host.url}/#token=${host.token}`);
    await page.getByTestId('open-settings').click();
    await page.getByRole('tab', { name: 'Data' }).click();
    const optIn = page.getByTestId('embed-recent-mail');
    await optIn.waitFor();
    await expect.poll(() => optIn.isEnabled()).toBe(true);
    expect(await optIn.isChecked()).toBe(false);
    expect(await page.getByTestId('data-panel').innerText()).toContain(
      'sends each subject and snippet to Gemini',
    );
    await checkBothSchemes(page);

    await optIn.focus();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await api<Settings>('/api/settings')).embedRecentMail).toBe(true);
    await expect.poll(() => optIn.isChecked()).toBe(true);
  });
});
