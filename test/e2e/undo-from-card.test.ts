import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callReply, textReply } from '../fakes/gemini/script';
import type { FakeGemini } from '../fakes/gemini/types';
import type { FakeSlack } from '../fakes/slack/server';
import { apiOf, putSettings } from './support/api';
import { axeViolations } from './support/axe';
import type { RunningHost } from './support/host';
import { startSlackHost } from './support/slack-host';
import { focusedTestId, send, usePages } from './support/pages';

const { newPage } = usePages();
const SHOTS = process.env.DEPUTY_SHOTS;

/** Undo where the person sees what Deputy did: on the action's card in the conversation. */
describe('undoing an action from its card in the chat', () => {
  let gemini: FakeGemini;
  let slack: FakeSlack;
  let host: RunningHost;
  let stop = async () => {};
  const meta = { intent: 'Do what the person asked', confidence: 0.95 };

  beforeAll(async () => {
    // Every test acts and undoes: more actions in a minute than the default limit lets through.
    // Google too, for a sent email (which cannot be undone).
    ({ gemini, slack, host, stop } = await startSlackHost(
      { rateLimits: { actionsPerMinute: 100, externalCallsPerHour: 500, modelTokensPerHour: 1_000_000 } },
      { withGoogle: true },
    ));
  });

  afterAll(() => stop());

  const card = (page: Page, tool: string) => page.locator(`[data-testid="tool-call"][data-tool="${tool}"]`);
  const stateOf = (page: Page, tool: string) => card(page, tool).getByTestId('tool-call-state').innerText();
  const noticeOf = (page: Page, tool: string) =>
    card(page, tool).getByTestId('tool-call-undo-notice').innerText();
  const deletes = () => slack.requests.filter((request) => request.path === '/api/chat.delete').length;
  const isPosted = (text: string) =>
    slack.state.channels
      .find((channel) => channel.name === 'general')
      ?.messages.some((message) => message.text === text) ?? false;
  const tasks = async () =>
    (
      (await (await apiOf(host)('/api/tasks?status=all')).json()) as {
        tasks: { id: string; description: string }[];
      }
    ).tasks;
  /** Undoes, from the audit trail, the add_task whose entry `q` finds: the host's answer. */
  const undoFromAudit = async (q: string) => {
    const { entries } = (await (await apiOf(host)(`/api/audit?tool=add_task&q=${q}`)).json()) as {
      entries: { id: string; kind: string }[];
    };
    const entry = entries.find((one) => one.kind === 'tool_call');
    return apiOf(host)(`/api/audit/${entry?.id}/undo`, { method: 'POST', body: '{}' });
  };
  /** Runs `steps` under supervised trust (undos wait for approval), then goes back to the file's autonomous trust. */
  const whileSupervised = async (steps: () => Promise<void>) => {
    await putSettings(host, { trustLevel: 'supervised' });
    try {
      await steps();
    } finally {
      await putSettings(host, { trustLevel: 'autonomous' });
    }
  };
  const shot = async (page: Page, name: string) => {
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  };

  /** A new conversation in which Deputy does `tool` once; answers the page with its card done. */
  async function acted(tool: string, args: Record<string, unknown>, size = { width: 1280, height: 800 }) {
    gemini.script(callReply(tool, { ...args, ...meta }), textReply('Done.'));
    const page = await newPage();
    await page.setViewportSize(size);
    await page.goto(`${host.url}/#token=${host.token}`);
    await send(page, `Please ${tool}`);
    await card(page, tool).and(page.locator('[data-state="completed"]')).waitFor();
    return page;
  }

  it('a task: Undo is on the card (not in Details), by keyboard it undoes at once, and the card stays Undone after reopening', async () => {
    const page = await acted('add_task', { description: 'Renew passport' });
    const undo = card(page, 'add_task').getByTestId('tool-call-undo');
    await expect.poll(() => undo.innerText()).toBe('Undo');
    expect(await undo.isVisible()).toBe(true);
    // Reached by Tab: it comes right before the card's Details.
    await card(page, 'add_task').locator('summary').focus();
    await page.keyboard.press('Shift+Tab');
    expect(await focusedTestId(page)).toBe('tool-call-undo');
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    await shot(page, 'card-undo-task-1280-light');

    await page.keyboard.press('Enter');
    await expect.poll(() => stateOf(page, 'add_task')).toBe('Undone');
    // The card reads Undone as the host says so, which may be before it answers the press that says how.
    await expect.poll(() => noticeOf(page, 'add_task')).toBe('Undone: Added task “Renew passport”.');
    // No second press: the button is gone, and focus is on what came of it, not lost.
    expect(await undo.count()).toBe(0);
    await expect.poll(() => focusedTestId(page)).toBe('tool-call-undo-notice');
    expect(await tasks()).toEqual([]);
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    await shot(page, 'card-undo-task-done-1280-light');

    await page.reload();
    await card(page, 'add_task').and(page.locator('[data-undone="true"]')).waitFor();
    expect(await stateOf(page, 'add_task')).toBe('Undone');
    expect(await undo.count()).toBe(0);
  });

  it('a sent email: the card has no Undo and says why at once, in the same words as after a reload', async () => {
    const page = await acted('gmail_send', { to: ['ana@example.com'], subject: 'Lunch', body: 'Noon?' });
    const mail = card(page, 'gmail_send');
    const note = mail.getByTestId('tool-call-undo-note');
    expect(await mail.getByTestId('tool-call-undo').count()).toBe(0);
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    await mail.locator('summary').click();
    expect(await note.innerText()).toBe('No undo: A sent email cannot be unsent.');
    await shot(page, 'card-no-undo-mail-1280-light');

    await page.reload();
    await mail.locator('summary').click();
    expect(await note.innerText()).toBe('No undo: A sent email cannot be unsent.');
    expect(await mail.getByTestId('tool-call-undo').count()).toBe(0);
  });

  it('a Slack post: the viewer’s question comes first (Escape keeps it), yes deletes it once; at 420 px in dark', async () => {
    const page = await acted(
      'slack_send',
      { channel: '#general', text: 'Standup is cancelled.' },
      { width: 420, height: 800 },
    );
    await page.emulateMedia({ colorScheme: 'dark' });
    const post = card(page, 'slack_send');
    const undo = post.getByTestId('tool-call-undo');
    await expect.poll(() => undo.innerText()).toBe('Undo…');
    await undo.click();
    const question = post.getByTestId('tool-call-undo-confirm');
    await expect
      .poll(() => question.innerText())
      .toBe(
        'Delete this post from #general? People there may have read it already, and a deleted post cannot be brought back.',
      );
    // Focus is on the question, not on its yes: a second Enter deletes nothing.
    await expect.poll(() => focusedTestId(page)).toBe('tool-call-undo-confirm');
    await page.keyboard.press('Enter');
    expect(deletes()).toBe(0);
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    await shot(page, 'card-undo-slack-question-420-dark');
    await page.keyboard.press('Escape');
    await expect.poll(() => question.count()).toBe(0);
    await expect.poll(() => focusedTestId(page)).toBe('tool-call-undo');
    expect(deletes()).toBe(0);
    expect(isPosted('Standup is cancelled.')).toBe(true);

    await undo.click();
    await post.getByRole('button', { name: 'Delete the post' }).click();
    await expect.poll(() => stateOf(page, 'slack_send')).toBe('Undone');
    // The card reads Undone as the host says so, which may be before it answers the press that says how.
    await expect.poll(() => noticeOf(page, 'slack_send')).toBe('Undone: Posted in #general.');
    expect(isPosted('Standup is cancelled.')).toBe(false);
    expect(deletes()).toBe(1);
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    await shot(page, 'card-undo-slack-done-420-dark');

    await page.reload();
    await post.and(page.locator('[data-undone="true"]')).waitFor();
    expect(await undo.count()).toBe(0);
    expect(deletes()).toBe(1);
  });

  it('undone from the audit trail while the conversation is open: its card says Undone at once, with no Undo', async () => {
    const page = await acted('add_task', { description: 'Water the plants' });
    await page.emulateMedia({ colorScheme: 'dark' });
    const task = card(page, 'add_task');
    await task.getByTestId('tool-call-undo').waitFor();
    expect((await undoFromAudit('plants')).status).toBe(200);
    await task.and(page.locator('[data-undone="true"]')).waitFor();
    expect(await stateOf(page, 'add_task')).toBe('Undone');
    expect(await task.getByTestId('tool-call-undo').count()).toBe(0);
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    await shot(page, 'card-undone-elsewhere-1280-dark');
    // And again after reopening; asked once more, the host refuses and nothing changes.
    await page.reload();
    await task.and(page.locator('[data-undone="true"]')).waitFor();
    expect(await task.getByTestId('tool-call-undo').count()).toBe(0);
    expect((await undoFromAudit('plants')).status).toBe(409);
  });

  it('held for approval: the card says it waits and the approval is in Approvals; after a reload it is answered from the card', async () => {
    const page = await acted('add_task', { description: 'Call the bank' }, { width: 420, height: 800 });
    await whileSupervised(async () => {
      const task = card(page, 'add_task');
      await task.getByTestId('tool-call-undo').click();
      const waiting = task.getByTestId('tool-call-undo-waiting');
      await expect.poll(() => waiting.innerText()).toMatch(/^This undo waits for your approval\. Supervised/);
      await expect.poll(() => page.getByTestId('pending-approvals-count').innerText()).toBe('1');
      expect(await tasks()).toContainEqual(expect.objectContaining({ description: 'Call the bank' }));
      expect(JSON.stringify(await axeViolations(page))).toBe('[]');
      await shot(page, 'card-undo-waiting-420-light');

      await page.reload();
      await expect
        .poll(() => task.getByTestId('tool-call-undo-pending').innerText())
        .toBe('An undo of this waits for your approval.');
      expect(JSON.stringify(await axeViolations(page))).toBe('[]');
      await shot(page, 'card-undo-pending-reloaded-420-light');
      await task.getByRole('button', { name: 'Answer the undo…' }).click();
      await task.getByTestId('tool-call-undo-approve').click();
      await expect.poll(() => stateOf(page, 'add_task')).toBe('Undone');
      expect(await task.getByTestId('tool-call-undo').count()).toBe(0);
      await expect.poll(() => page.getByTestId('pending-approvals-count').innerText()).toBe('0');
      expect(await tasks()).not.toContainEqual(expect.objectContaining({ description: 'Call the bank' }));
    });
  });

  it('asked for from the audit trail and held for approval while the conversation is open: the card says it waits at once', async () => {
    const page = await acted('add_task', { description: 'Pay the plumber' }, { width: 420, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    const task = card(page, 'add_task');
    await task.getByTestId('tool-call-undo').waitFor();
    await whileSupervised(async () => {
      expect((await undoFromAudit('plumber')).status).toBe(200);
      // No reload: the card learns it from the conversation's stream.
      await expect
        .poll(() => task.getByTestId('tool-call-undo-pending').innerText())
        .toBe('An undo of this waits for your approval.');
      expect(await task.getByTestId('tool-call-undo').innerText()).toBe('Answer the undo…');
      expect(JSON.stringify(await axeViolations(page))).toBe('[]');
      await shot(page, 'card-undo-pending-elsewhere-420-dark');
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.emulateMedia({ colorScheme: 'light' });
      await shot(page, 'card-undo-pending-elsewhere-1280-light');

      // Answered from the card, it is the same approval, and the undo is done.
      await task.getByTestId('tool-call-undo').click();
      await task.getByTestId('tool-call-undo-approve').click();
      await expect.poll(() => stateOf(page, 'add_task')).toBe('Undone');
      expect(await tasks()).not.toContainEqual(expect.objectContaining({ description: 'Pay the plumber' }));
      await expect.poll(() => page.getByTestId('pending-approvals-count').innerText()).toBe('0');
    });
  });

  it('held for approval and approved on the card by keyboard: the focus goes to what came of it, not the page', async () => {
    const page = await acted('add_task', { description: 'Return the books' });
    await whileSupervised(async () => {
      const task = card(page, 'add_task');
      await task.getByTestId('tool-call-undo').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => focusedTestId(page)).toBe('tool-call-undo-waiting');
      await page.keyboard.press('Tab');
      expect(await focusedTestId(page)).toBe('tool-call-undo-approve');
      await page.keyboard.press('Enter');
      await expect.poll(() => stateOf(page, 'add_task')).toBe('Undone');
      await expect.poll(() => focusedTestId(page)).toBe('tool-call-undo-notice');
      // The host may say it was undone before the undo's own answer comes with its words: the focus is on their
      // place (a live region) meanwhile, and they follow.
      await expect.poll(() => noticeOf(page, 'add_task')).toBe('Undone: Added task “Return the books”.');
    });
  });

  it('approved in Approvals after a reload, and the delete fails: the card offers Undo again at once and says why', async () => {
    const page = await acted(
      'slack_send',
      { channel: '#general', text: 'Lunch moves to one.' },
      { width: 420, height: 800 },
    );
    await page.emulateMedia({ colorScheme: 'dark' });
    const post = card(page, 'slack_send');
    await whileSupervised(async () => {
      await post.getByTestId('tool-call-undo').click();
      await post.getByRole('button', { name: 'Delete the post' }).click();
      await post.getByTestId('tool-call-undo-waiting').waitFor();
      // Reopened while it waits, the card knows of the waiting undo only from the stored conversation.
      await page.reload();
      await post.getByTestId('tool-call-undo-pending').waitFor();
      slack.inject({
        match: /chat\.delete/,
        response: { status: 200, json: { ok: false, error: 'cant_delete_message' } },
      });
      await page.getByTestId('open-approvals').click();
      await page.getByTestId('pending-approve').click();
      await page.keyboard.press('Escape');
      const undo = post.getByTestId('tool-call-undo');
      await expect.poll(() => undo.innerText()).toBe('Undo…');
      expect(await post.getByTestId('tool-call-undo-pending').count()).toBe(0);
      await expect
        .poll(() => noticeOf(page, 'slack_send'))
        .toBe('It could not be undone: Slack refused deleting the post in #general (cant_delete_message).');
      expect(await post.getByTestId('tool-call-undo-notice').getAttribute('class')).toContain('form-error');
      expect(await stateOf(page, 'slack_send')).toBe('Done');
      expect(isPosted('Lunch moves to one.')).toBe(true);
      expect(JSON.stringify(await axeViolations(page))).toBe('[]');
      await shot(page, 'card-undo-approved-failed-420-dark');

      // The retry it offers asks its question first, as the first press did.
      await undo.click();
      await post.getByTestId('tool-call-undo-confirm').waitFor();
    });
  });

  it('approved in Approvals instead: the card’s question goes and it says Undone', async () => {
    const page = await acted('add_task', { description: 'Renew the lease' });
    await whileSupervised(async () => {
      const task = card(page, 'add_task');
      await task.getByTestId('tool-call-undo').click();
      await task.getByTestId('tool-call-undo-waiting').waitFor();
      await page.getByTestId('open-approvals').click();
      await page.getByTestId('pending-approve').click();
      await expect.poll(() => stateOf(page, 'add_task')).toBe('Undone');
      expect(await task.getByTestId('tool-call-undo-waiting').count()).toBe(0);
    });
  });
  it('changed since Deputy’s action: the same question as the viewer, and Undo anyway waits for approval, given on the card', async () => {
    const page = await acted('add_task', { description: 'Book the dentist' });
    const task = card(page, 'add_task');
    const id = (await tasks()).find((one) => one.description === 'Book the dentist');
    const changed = await apiOf(host)(`/api/tasks/${id?.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ description: 'Book the dentist for Tuesday' }),
    });
    expect(changed.status).toBe(200);
    await task.getByTestId('tool-call-undo').click();
    const question = task.getByTestId('tool-call-undo-changed');
    await expect.poll(() => question.innerText()).toMatch(/changed after Deputy's action \(description\)/);
    await expect.poll(() => focusedTestId(page)).toBe('tool-call-undo-changed');
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    await task.getByRole('button', { name: 'Undo anyway' }).click();
    await expect
      .poll(() => task.getByTestId('tool-call-undo-waiting').innerText())
      .toMatch(/^This undo waits for your approval: /);
    await task.getByTestId('tool-call-undo-approve').click();
    await expect.poll(() => stateOf(page, 'add_task')).toBe('Undone');
    expect(await tasks()).not.toContainEqual(expect.objectContaining({ id: id?.id }));
  });

  it('pressed in a second window while the post’s delete is under way: it says so before asking anything', async () => {
    const page = await acted('slack_send', { channel: '#general', text: 'Cake in the kitchen.' });
    const post = card(page, 'slack_send');
    let letDeleteGo = () => {};
    slack.inject({ match: /chat\.delete/, until: new Promise<void>((resolve) => (letDeleteGo = resolve)) });
    const before = deletes();
    await post.getByTestId('tool-call-undo').click();
    await post.getByRole('button', { name: 'Delete the post' }).click();
    // The delete has reached Slack, which holds its answer: the undo is under way.
    await expect.poll(deletes).toBe(before + 1);

    // The same conversation in a second window.
    const threadId = await page.evaluate(() => localStorage.getItem('deputy.lastThreadId'));
    const other = await newPage();
    await other.goto(`${host.url}/#/thread/${threadId}&token=${host.token}`);
    const same = card(other, 'slack_send');
    await same.and(other.locator('[data-state="completed"]')).waitFor();
    await same.getByTestId('tool-call-undo').click();
    await expect.poll(() => noticeOf(other, 'slack_send')).toBe('This undo is already under way.');
    expect(await same.getByTestId('tool-call-undo-confirm').count()).toBe(0);
    expect(await same.getByTestId('tool-call-undo-notice').getAttribute('class')).not.toContain('form-error');
    if (SHOTS)
      for (const width of [1280, 420])
        for (const colorScheme of ['light', 'dark'] as const) {
          await other.setViewportSize({ width, height: 800 });
          await other.emulateMedia({ colorScheme });
          await same.scrollIntoViewIfNeeded();
          await shot(other, `card-undo-under-way-${width}-${colorScheme}`);
        }

    letDeleteGo();
    await expect.poll(() => stateOf(page, 'slack_send')).toBe('Undone');
    await expect.poll(() => stateOf(other, 'slack_send')).toBe('Undone');
    expect(isPosted('Cake in the kitchen.')).toBe(false);
    expect(deletes() - before).toBe(1);
  });

  it('a failure is said in plain words and Undo comes back; the next press deletes the post once', async () => {
    const page = await acted('slack_send', { channel: '#general', text: 'Pizza at noon.' });
    const post = card(page, 'slack_send');
    slack.inject({
      match: /chat\.delete/,
      response: { status: 200, json: { ok: false, error: 'cant_delete_message' } },
    });
    const before = deletes();
    await post.getByTestId('tool-call-undo').click();
    await post.getByRole('button', { name: 'Delete the post' }).click();
    const notice = post.getByTestId('tool-call-undo-notice');
    await expect.poll(() => notice.innerText()).toMatch(/^It could not be undone: /);
    expect(await notice.getAttribute('class')).toContain('form-error');
    expect(await stateOf(page, 'slack_send')).toBe('Done');
    expect(isPosted('Pizza at noon.')).toBe(true);
    await shot(page, 'card-undo-failed-1280-light');

    await post.getByTestId('tool-call-undo').click();
    await post.getByRole('button', { name: 'Delete the post' }).click();
    await expect.poll(() => stateOf(page, 'slack_send')).toBe('Undone');
    expect(isPosted('Pizza at noon.')).toBe(false);
    expect(deletes() - before).toBe(2);
  });
});
