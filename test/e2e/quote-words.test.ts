import { describe, expect, it } from 'vitest';
import type { TaskItem } from '../../shared/contract';
import { callReply, textReply } from '../fakes/gemini/script';
import { apiOf } from './support/api';
import { useHostedGemini } from './support/hosted';
import { send, usePages } from './support/pages';

const { newPage } = usePages();
const SHOTS = process.env.DEPUTY_SHOTS;
// Autonomous trust with the default per-action settings: an add goes through, a delete asks first.
const hosted = useHostedGemini({ trustLevel: 'autonomous' });
const meta = { intent: 'Do what was asked', reasoning: 'The person asked.', confidence: 0.95 };

describe('quotes in what a person reads, in the browser', () => {
  it('an approval card, the chat’s card and the audit trail quote a task in “…”, never in straight or single quotes', async () => {
    const host = hosted.host();
    hosted
      .gemini()
      .script(callReply('add_task', { description: 'Buy milk', ...meta }), textReply('Added it.'));
    const added = await apiOf(host)('/api/agent/run', {
      method: 'POST',
      body: JSON.stringify({ prompt: 'Add a task to buy milk' }),
    });
    expect(added.ok).toBe(true);
    const [task] = ((await (await apiOf(host)('/api/tasks')).json()) as { tasks: TaskItem[] }).tasks;
    if (!task) throw new Error('expected the task to be added');

    hosted.gemini().script(callReply('delete_task', { id: task.id, ...meta }), textReply('Deleted it.'));
    const page = await newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${host.url}/#token=${host.token}`);
    await send(page, 'Delete the milk task');
    const card = page.getByTestId('timeline').getByTestId('approval-card');
    await card.and(page.locator('[data-status="pending"]')).waitFor();
    expect(await card.getByRole('heading').innerText()).toBe('Delete “Buy milk”');
    expect(await card.getByTestId('approval-reason').innerText()).toBe(
      'Your setting for “Delete a task” is “Ask me first”.',
    );
    if (SHOTS) await card.screenshot({ path: `${SHOTS}/quotes-approval-card-1280.png` });

    await card.getByTestId('approval-approve').click();
    const toolCard = page.getByTestId('tool-call').filter({ has: page.getByTestId('approval-card') });
    await toolCard.and(page.locator('[data-state="completed"]')).waitFor();
    expect(await toolCard.getByTestId('tool-call-summary').innerText()).toBe('Deleted task “Buy milk”');

    await page.goto(`${host.url}/#/audit&token=${host.token}`);
    const row = page.getByTestId('audit-row').filter({ hasText: 'Deleted task “Buy milk”' });
    await row.waitFor();
    await row.getByRole('button').click();
    const detail = page.getByTestId('audit-detail');
    await detail.getByRole('heading', { name: 'Deleted task “Buy milk”' }).waitFor();
    expect(await detail.innerText()).toContain('the task “Buy milk”');
    expect(await page.getByTestId('audit-row').first().getByRole('button').innerText()).toBe(
      'Asked “Delete the milk task”',
    );
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/quotes-audit-1280.png` });
  });
});
