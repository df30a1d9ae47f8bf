import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callReply, textReply } from '../fakes/gemini/script';
import { axeViolations } from './support/axe';
import { startSlackHost, type SlackHost } from './support/slack-host';
import { send, usePages } from './support/pages';

const { newPage } = usePages();
const SHOTS = process.env.DEPUTY_SHOTS;

/**
 * Whom and where an approval and a tool card name, in the words a person knows: never the addresses the policy
 * matches (slack:#general, slack:@u0carol03) nor a Slack id alone behind a "#".
 */
describe('approvals and cards name Slack channels and people in words', () => {
  let slack: SlackHost;
  const meta = { intent: 'Do what the person asked', confidence: 0.95 };

  // Deputy acts on its own here, but asks before it first writes somewhere: the approvals below are those.
  beforeAll(async () => {
    slack = await startSlackHost({ requireApprovalForFirstContact: true });
  });
  afterAll(() => slack.stop());

  const shot = async (page: Page, name: string) => {
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  };

  /** A new conversation in which Deputy posts with `args`; answers the page with its approval on screen. */
  async function asked(
    args: Record<string, unknown>,
    size: { width: number; height: number },
    isDark: boolean,
  ) {
    slack.gemini.script(callReply('slack_send', { ...args, ...meta }), textReply('Posted.'));
    const page = await newPage();
    await page.setViewportSize(size);
    await page.emulateMedia({ colorScheme: isDark ? 'dark' : 'light' });
    await page.goto(`${slack.host.url}/#token=${slack.host.token}`);
    await send(page, 'Please post it');
    const card = page.getByTestId('timeline').getByTestId('approval-card');
    await card.and(page.locator('[data-status="pending"]')).waitFor();
    return { page, card };
  }

  /** The approval window for the card's approval, at 420 px in the dark, with its card on screen. */
  async function inWindow(card: Locator) {
    const approvalId = await card.getAttribute('data-approval-id');
    const popup = await newPage();
    await popup.setViewportSize({ width: 420, height: 700 });
    await popup.emulateMedia({ colorScheme: 'dark' });
    await popup.goto(`${slack.host.url}/#/approval/${approvalId}&token=${slack.host.token}`);
    const windowCard = popup.getByTestId('approval-window').getByTestId('approval-card');
    await windowCard.waitFor();
    return { popup, windowCard };
  }

  /** The card's title, its reason and its always-allow, as the person reads them. */
  const words = async (card: Locator) => ({
    title: await card.getByRole('heading').innerText(),
    reason: await card.getByTestId('approval-reason').innerText(),
    alwaysAllow: await card.getByTestId('approval-always-allow').innerText(),
  });

  /** What the preview's field labelled `label` says. */
  const field = (card: Locator, label: string) =>
    card
      .getByTestId('approval-preview')
      .locator('dl > div')
      .filter({ hasText: label })
      .locator('dd')
      .innerText();

  it('a thread reply: the reason, who it reaches and the thread, in the chat and the approval window', async () => {
    const { page, card } = await asked(
      { channel: '#general', text: 'I can review it.', thread_ts: '1767229200.000200' },
      { width: 1280, height: 800 },
      false,
    );
    const reason =
      'You have never written to #general in Slack, carol.c (Slack user U0CAROL03) before (this reaches: ' +
      'channel, in the thread, notified).';
    expect(await card.getByTestId('approval-reason').innerText()).toBe(reason);
    expect(await card.getByTestId('approval-reach').locator('li').allInnerTexts()).toEqual([
      '#general in Slack · channel',
      'carol.c · in the thread, notified',
    ]);
    expect(await field(card, 'In thread')).toMatch(
      /^A reply to the post of 1 Jan 2026, \d\d:00 \([^;]+; its id in Slack: 1767229200\.000200\)$/,
    );
    expect(await card.innerText()).not.toMatch(/slack:/);
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    await shot(page, 'approval-words-thread-1280-light');

    // The separate approval window shows the same card, in the same words.
    const { popup, windowCard } = await inWindow(card);
    expect(await windowCard.getByTestId('approval-reason').innerText()).toBe(reason);
    expect(await windowCard.innerText()).not.toMatch(/slack:/);
    expect(JSON.stringify(await axeViolations(popup))).toBe('[]');
    await shot(popup, 'approval-words-thread-window-420-dark');
    await windowCard.getByTestId('approval-approve').click();
    const reply = page.locator('[data-testid="tool-call"][data-tool="slack_send"]');
    await reply.and(page.locator('[data-state="completed"]')).waitFor();
    expect(await reply.getByTestId('tool-call-summary').innerText()).toBe('Replied in a thread in #general');
  });

  it('a channel given by Slack’s id: the card names it as Slack does, in the chat and the approval window', async () => {
    const { page, card } = await asked(
      { channel: 'C0RANDOM01', text: 'Hello all.' },
      { width: 1280, height: 800 },
      false,
    );
    const postedBefore = slack.slack.state.posted.length;
    expect(await words(card)).toEqual({
      title: 'Post to #random in Slack',
      reason: 'You have never written to #random in Slack (Slack channel C0RANDOM01) before.',
      alwaysAllow: 'Approve and always allow posting to #random',
    });
    expect(await field(card, 'Channel')).toBe('#random');
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    await shot(page, 'approval-words-channel-id-1280-light');

    const { popup, windowCard } = await inWindow(card);
    expect(await windowCard.getByRole('heading').innerText()).toBe('Post to #random in Slack');
    expect(JSON.stringify(await axeViolations(popup))).toBe('[]');
    await shot(popup, 'approval-words-channel-id-window-420-dark');
    // A screen reader hears what waits in the same words.
    expect(await page.getByTestId('approval-announcement').innerText()).toBe(
      'Deputy needs your approval: Post to #random in Slack.',
    );
    // Nothing is posted: the person is not in #random, and the test has what it came for.
    await card.getByTestId('approval-reject').click();
    await card.getByTestId('approval-reject-confirm').click();
    await card.and(page.locator('[data-status="rejected"]')).waitFor();
    expect(slack.slack.state.posted).toHaveLength(postedBefore);
    // The call's card, above its approval, names the channel as the approval did: live, and read again.
    const post = page.locator('[data-testid="tool-call"][data-tool="slack_send"]');
    await post.and(page.locator('[data-state="rejected"]')).waitFor();
    expect(await post.getByTestId('tool-call-summary').innerText()).toBe('Post in #random');
    await shot(page, 'approval-words-channel-id-rejected-1280-light');
    await page.reload();
    await post.and(page.locator('[data-state="rejected"]')).waitFor();
    expect(await post.getByTestId('tool-call-summary').innerText()).toBe('Post in #random');
    await page.setViewportSize({ width: 420, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    await shot(page, 'approval-words-channel-id-rejected-reloaded-420-dark');
  });

  it('a direct message given by Slack’s id: the card, the Approvals list and the done card say what it is', async () => {
    const { page, card } = await asked(
      { channel: 'D0CAROL001', text: 'Sent it.' },
      { width: 420, height: 800 },
      true,
    );
    // Slack names the DM by the person at its other end; the reason keeps its id beside that.
    expect(await words(card)).toEqual({
      title: 'Post to Slack DM with carol.c',
      reason: 'You have never written to Slack DM with carol.c (Slack DM D0CAROL001) before.',
      alwaysAllow: 'Approve and always allow posting to Slack DM with carol.c',
    });
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    await shot(page, 'approval-words-dm-420-dark');
    await page.getByTestId('open-approvals').click();
    const listed = page.getByTestId('approvals-panel').getByTestId('pending-approval');
    expect((await listed.innerText()).split('\n')[0]).toBe('Post to Slack DM with carol.c');
    await shot(page, 'approval-words-dm-list-420-dark');
    await listed.getByRole('button', { name: 'Approve' }).click();
    await page.keyboard.press('Escape');

    const post = page.locator('[data-testid="tool-call"][data-tool="slack_send"]');
    await post.and(page.locator('[data-state="completed"]')).waitFor();
    // Named as Slack names it, as the approval did (never "#D0CAROL001"): live, and once read again.
    expect(await post.getByTestId('tool-call-summary').innerText()).toBe('Posted in Slack DM with carol.c');
    await shot(page, 'approval-words-dm-done-420-dark');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.reload();
    await post.and(page.locator('[data-state="completed"]')).waitFor();
    expect(await post.getByTestId('tool-call-summary').innerText()).toBe('Posted in Slack DM with carol.c');
    expect(JSON.stringify(await axeViolations(page))).toBe('[]');
    await shot(page, 'approval-words-dm-done-1280-light');
    // Its undo asks in the same words, from the post's result (nothing is deleted: the question is left open).
    await post.getByTestId('tool-call-undo').click();
    await expect
      .poll(() => post.getByTestId('tool-call-undo-confirm').innerText())
      .toMatch(/^Delete this post from Slack DM with carol\.c\? /);
    await shot(page, 'approval-words-dm-undo-1280-light');
  });
});
