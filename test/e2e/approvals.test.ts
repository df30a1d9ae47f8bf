import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply, textReply } from '../fakes/gemini/script';
import type { FakeGemini, GeminiPart } from '../fakes/gemini/types';
import {
  addTaskCard,
  assistantMessages,
  composer,
  focusRing,
  focusedTestId,
  focusedText,
  isDangerRed,
  send,
  usePages,
} from './support/pages';
import { axeViolations } from './support/axe';
import { startHost, type RunningHost } from './support/host';
import { MILK_CALL } from './support/milk';
import { expireApproval } from './support/api';

const SHOTS = process.env.DEPUTY_SHOTS;

const { newPage } = usePages();

const approvalCard = (page: Page) => page.getByTestId('timeline').getByTestId('approval-card');
const pendingCount = (page: Page) => page.getByTestId('pending-approvals-count');
const withStatus = (locator: Locator, status: string) =>
  locator.and(locator.page().locator(`[data-status="${status}"]`));
const withState = (locator: Locator, state: string) =>
  locator.and(locator.page().locator(`[data-state="${state}"]`));

/** How each disclosure's summary in `scope` looks: whether it shows its marker and reads as a control. */
const disclosures = (scope: Locator) =>
  scope.locator('summary').evaluateAll((summaries) =>
    summaries.map((summary) => {
      const style = getComputedStyle(summary);
      const probe = summary.appendChild(document.createElement('span'));
      probe.style.color = 'var(--fg-muted)';
      const grey = getComputedStyle(probe).color;
      probe.remove();
      return {
        text: summary.textContent,
        hasMarker: style.display === 'list-item' && style.listStyleType !== 'none',
        hasPointer: style.cursor === 'pointer',
        isGrey: style.color === grey,
      };
    }),
  );

/** Every functionResponse part the model was sent in one request. */
function functionResponses(gemini: FakeGemini, index: number): NonNullable<GeminiPart['functionResponse']>[] {
  const request = gemini.requests.at(index);
  return (request?.body.contents ?? [])
    .flatMap((content) => content.parts ?? [])
    .flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
}

describe('approvals against the headless host and a fake Gemini', () => {
  let gemini: FakeGemini;
  let host: RunningHost;

  beforeAll(async () => {
    gemini = await startFakeGemini();
    host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key' });
  });

  afterAll(async () => {
    await host?.stop();
    await gemini?.close();
  });

  async function openPage(hash = ''): Promise<Page> {
    const page = await newPage();
    await page.goto(`${host.url}/#${hash ? `${hash}&` : ''}token=${host.token}`);
    return page;
  }

  /** A fresh conversation whose run pauses on add_task; resolves once its approval card is on screen. */
  async function askForMilk(page: Page, answer: string): Promise<Locator> {
    gemini.script(callReply('add_task', MILK_CALL), textReply(answer, { chunks: 3, gapMs: 20 }));
    await page.getByTestId('new-conversation').click();
    await send(page, 'Add a task to buy milk');
    const card = withStatus(approvalCard(page), 'pending');
    await card.waitFor();
    return card;
  }

  it('pauses on a supervised add_task with a card, and approving runs it and streams the answer', async () => {
    const page = await openPage();
    await composer(page).waitFor();
    await expect.poll(() => pendingCount(page).innerText()).toBe('0');

    const card = await askForMilk(page, 'Added it.');
    await withState(addTaskCard(page), 'awaiting_confirmation').waitFor();
    // What it would do is the card's title (its name), not said again in the preview below it.
    expect(await card.getByRole('heading').innerText()).toBe('Add a task: Buy milk');
    expect(await card.getByTestId('approval-reason').innerText()).not.toBe('');
    // Whole minutes (rounded up) as in the Approvals panel and the quick prompt: seconds only under a minute.
    expect(await card.getByTestId('approval-expiry').innerText()).toBe('Expires in 30 min');
    // Why and Details read as controls: their ▶ marker shows, not in the grey of a side note.
    expect(await disclosures(addTaskCard(page))).toEqual([
      { text: 'Why', hasMarker: true, hasPointer: true, isGrey: false },
      { text: 'Details', hasMarker: true, hasPointer: true, isGrey: false },
    ]);
    await card.getByText('Why').click();
    const why = await card.getByTestId('approval-why').innerText();
    expect(why).toContain('user asked');
    expect(why).toContain('95%');
    await expect.poll(() => pendingCount(page).innerText()).toBe('1');
    // The run is paused, not running: the composer is usable.
    await expect.poll(() => composer(page).isEnabled()).toBe(true);

    await card.getByTestId('approval-approve').click();
    await withStatus(approvalCard(page), 'approved').waitFor();
    await withState(addTaskCard(page), 'completed').waitFor();
    await expect.poll(() => assistantMessages(page).last().innerText()).toContain('Added it.');
    await expect.poll(() => pendingCount(page).innerText()).toBe('0');
    expect(gemini.pending()).toBe(0);
    const order = await page
      .getByTestId('timeline')
      .locator(':scope > li')
      .evaluateAll((items) =>
        items.map(
          (item) => item.getAttribute('data-testid') ?? item.firstElementChild?.getAttribute('data-testid'),
        ),
      );
    // One card per call: the approval lives inside its tool card.
    // The run's footer (tokens and cost) closes it.
    expect(order).toEqual(['message', 'tool-call', 'message', 'run-usage']);
    expect(await addTaskCard(page).getByTestId('approval-card').count()).toBe(1);
  });

  it('an approval card’s risk and status badges sit together on one line, beside the title at 1280 px and under it at 420 px, in the chat and its own window', async () => {
    const page = await openPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    const card = await askForMilk(page, 'Added it.');
    /** Where the title and each badge sit: their tops and the badges' left edges. */
    const places = (scope: Locator) =>
      scope.evaluate((element) => {
        const box = (selector: string) => element.querySelector(selector)?.getBoundingClientRect();
        const [title, risk, status] = [box('h3'), box('.risk-badge'), box('[data-testid="approval-status"]')];
        return {
          title: { top: Math.round(title?.top ?? -1), bottom: Math.round(title?.bottom ?? -1) },
          risk: { top: Math.round(risk?.top ?? -1), left: Math.round(risk?.left ?? -1) },
          status: { top: Math.round(status?.top ?? -1), left: Math.round(status?.left ?? -1) },
          left: Math.round(element.querySelector('header')?.getBoundingClientRect().left ?? -1),
        };
      });
    const expectTogether = async (scope: Locator, isUnderTitle: boolean, where: string) => {
      const at = await places(scope);
      expect(Math.abs(at.risk.top - at.status.top), `${where}: ${JSON.stringify(at)}`).toBeLessThanOrEqual(2);
      expect(at.status.left, `${where}: the status after the risk`).toBeGreaterThan(at.risk.left);
      if (isUnderTitle) {
        expect(at.risk.top, `${where}: under the title`).toBeGreaterThanOrEqual(at.title.bottom - 2);
        expect(at.risk.left, `${where}: at the left`).toBe(at.left);
      } else expect(at.risk.top, `${where}: beside the title`).toBeLessThan(at.title.bottom);
    };
    await expectTogether(card, false, 'chat, 1280 px');
    await page.setViewportSize({ width: 420, height: 800 });
    await card.scrollIntoViewIfNeeded();
    await expectTogether(card, true, 'chat, 420 px');
    if (SHOTS) await card.screenshot({ path: `${SHOTS}/approval-badges-420.png` });

    const approvalId = await card.getAttribute('data-approval-id');
    const window = await openPage(`/approval/${approvalId}`);
    await window.setViewportSize({ width: 420, height: 600 });
    const own = window.getByTestId('approval-card');
    await own.waitFor();
    await expectTogether(own, true, 'approval window, 420 px');
    await card.getByTestId('approval-approve').click();
    await withStatus(approvalCard(page), 'approved').waitFor();
  });

  it('the conversation list stops saying “needs approval” once the approval is decided, while the run goes on', async () => {
    const page = await openPage();
    await composer(page).waitFor();
    // Approved on its card, or turned down in the Approvals panel.
    for (const decision of ['approve', 'reject'] as const) {
      // After the decision the model is asked again and holds the request: the run is still under way.
      gemini.script(callReply('add_task', MILK_CALL), { kind: 'hang' });
      await page.getByTestId('new-conversation').click();
      await send(page, 'Add a task to buy milk');
      const card = withStatus(approvalCard(page), 'pending');
      await card.waitFor();
      const row = page.locator('[data-testid="thread-item"][aria-current="page"]');
      await expect.poll(() => row.innerText()).toContain('needs approval');
      if (decision === 'approve') await card.getByTestId('approval-approve').click();
      else {
        await page.getByTestId('open-approvals').click();
        await page.getByTestId('approvals-panel').getByTestId('pending-reject').click();
        await page.getByTestId('approvals-empty').waitFor();
        await page.keyboard.press('Escape');
      }
      await expect.poll(() => gemini.pending(), { timeout: 5_000 }).toBe(0);
      await expect.poll(() => row.innerText(), { timeout: 1_000 }).not.toContain('needs approval');
      await page.getByTestId('composer-stop').click();
      await page.getByTestId('run-stopped').waitFor();
    }
  });

  it('a call the rules did not let happen says “Not done” and why, in the policy’s words, quietly, live and reloaded', async () => {
    const page = await openPage();
    gemini.script(
      callReply('add_task', { description: 'Repot the orchid', intent: 'Add it', confidence: 0.3 }),
    );
    await page.getByTestId('new-conversation').click();
    await send(page, 'Add: repot the orchid');
    const card = page.getByTestId('tool-call').filter({ hasText: 'Repot the orchid' });
    const says = async () => {
      await expect.poll(() => card.getByTestId('tool-call-state').innerText()).toBe('Not done');
      expect(await card.getByTestId('tool-call-note').innerText()).toBe(
        'Deputy was only 30% sure what you wanted, so it asked you instead of doing this.',
      );
      expect(await card.getByTestId('tool-call-error').count()).toBe(0);
      expect(await isDangerRed(card.getByTestId('tool-call-state'), 'color')).toBe(false);
    };
    await says();
    await page.reload();
    await says();
  });

  it('rejects with a reason: the model is told, its answer streams, and the card says “Turned down” once', async () => {
    const page = await openPage();
    const card = await askForMilk(page, 'Understood, I did not add it.');
    const requestsBefore = gemini.requests.length;

    await card.getByTestId('approval-reject').click();
    await card.getByTestId('approval-reject-reason').fill('I already have milk');
    await card.getByTestId('approval-reject-confirm').click();

    await withStatus(approvalCard(page), 'rejected').waitFor();
    expect(await approvalCard(page).getByTestId('approval-note').innerText()).toContain(
      'I already have milk',
    );
    await withState(addTaskCard(page), 'rejected').waitFor();
    // Said once, by the call's card, in the audit trail's words: the approval inside does not repeat it.
    await expect.poll(() => addTaskCard(page).getByTestId('tool-call-state').innerText()).toBe('Turned down');
    expect((await addTaskCard(page).innerText()).match(/Turned down|Rejected/g)).toEqual(['Turned down']);
    // The person's own no is not a failure: said in a quiet tone, as the audit trail says it, not in red.
    expect(await isDangerRed(addTaskCard(page).getByTestId('tool-call-state'), 'color')).toBe(false);
    expect(await isDangerRed(approvalCard(page), 'borderLeftColor')).toBe(false);
    if (SHOTS)
      for (const width of [1280, 420])
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.setViewportSize({ width, height: 800 });
          await page.emulateMedia({ colorScheme });
          await page.screenshot({ path: `${SHOTS}/chat-turned-down-${width}-${colorScheme}.png` });
        }
    await expect
      .poll(() => assistantMessages(page).last().innerText())
      .toContain('Understood, I did not add it.');
    expect(gemini.requests.length).toBe(requestsBefore + 1);
    const answer = functionResponses(gemini, -1).find((response) => response.name === 'add_task');
    expect(JSON.stringify(answer?.response)).toContain('rejected');
    expect(JSON.stringify(answer?.response)).toContain('I already have milk');
  });

  it('a call whose approval expired unanswered says “Expired” once, on its card, quietly, and its conversation “approval expired” in the list, live and reloaded; the approval’s window says it as quietly (1280 and 420 px, light and dark, 0 axe)', async () => {
    const page = await openPage();
    // Only the call: an approval that expires ends its run, so no answer of the model is left queued.
    gemini.script(callReply('add_task', MILK_CALL));
    await page.getByTestId('new-conversation').click();
    await send(page, 'Add a task to buy milk');
    const approvalId =
      (await withStatus(approvalCard(page), 'pending').getAttribute('data-approval-id')) ?? '';
    await expireApproval(host, approvalId);
    const expired = async (shown: Page) => {
      await withStatus(approvalCard(shown), 'expired').waitFor();
      await expect.poll(() => addTaskCard(shown).getByTestId('tool-call-state').innerText()).toBe('Expired');
      expect(await addTaskCard(shown).innerText()).not.toContain('Rejected');
      // Said once, by the call's card: the approval inside does not repeat it.
      expect((await addTaskCard(shown).innerText()).match(/Expired/g)).toEqual(['Expired']);
      // Not a failure: the call's state and the approval's edge are said in a quiet tone, not in red.
      expect(await isDangerRed(addTaskCard(shown).getByTestId('tool-call-state'), 'color')).toBe(false);
      expect(await isDangerRed(approvalCard(shown), 'borderLeftColor')).toBe(false);
      // The run that ended for it says why as quietly as a stopped run, with Ask again, not in a red alert.
      await expect
        .poll(() => shown.getByTestId('run-expired').innerText())
        .toContain('The approval waited too long and expired, so Deputy stopped.');
      expect(await shown.getByTestId('run-expired').getByTestId('run-ask-again').count()).toBe(1);
      expect(await shown.getByTestId('run-error').count()).toBe(0);
    };
    // The conversation list says what happened to its last run, not "failed".
    const listSays = async () => {
      const row = page.locator('[data-testid="thread-item"][aria-current="page"]');
      await expect.poll(() => row.innerText()).toContain(' · approval expired');
      expect(await row.innerText()).not.toContain('failed');
    };
    await expired(page);
    await listSays();
    await page.reload();
    await expired(page);
    await listSays();
    // The approval's own window, with no call's card around it, says "Expired" in the same quiet tone.
    const popup = await openPage(`/approval/${approvalId}`);
    const windowStatus = popup.getByTestId('approval-window').getByTestId('approval-status');
    await expect.poll(() => windowStatus.innerText()).toBe('Expired');
    expect(await isDangerRed(windowStatus, 'color')).toBe(false);
    for (const width of [1280, 420])
      for (const colorScheme of ['light', 'dark'] as const) {
        await popup.setViewportSize({ width, height: 700 });
        await popup.emulateMedia({ colorScheme });
        if (SHOTS) await popup.screenshot({ path: `${SHOTS}/window-expired-${width}-${colorScheme}.png` });
      }
    expect(await axeViolations(popup)).toEqual([]);
    for (const width of [1280, 420])
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 800 });
        await page.emulateMedia({ colorScheme });
        await expired(page);
        expect(await axeViolations(page)).toEqual([]);
        if (SHOTS) {
          await addTaskCard(page).scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${SHOTS}/chat-expired-${width}-${colorScheme}.png` });
        }
      }
  });

  it('edits and approves: the host’s invalid_input shows in the editor, then the edited call runs', async () => {
    const page = await openPage();
    const card = await askForMilk(page, 'Added oat milk.');

    // Escape closes the editor as Cancel does, and the keyboard is back on Edit…; the approval still waits.
    await card.getByTestId('approval-edit').click();
    await card.getByTestId('approval-field-description').press('Escape');
    await expect.poll(() => card.getByTestId('approval-editor').count()).toBe(0);
    expect(await focusedTestId(page)).toBe('approval-edit');
    expect(await card.getAttribute('data-status')).toBe('pending');

    await card.getByTestId('approval-edit').click();
    const description = card.getByTestId('approval-field-description');
    await description.fill('');
    await card.getByTestId('approval-save').click();
    const editError = card.getByTestId('approval-edit-error');
    await editError.waitFor();
    expect(await editError.innerText()).toContain('description');
    expect(await card.getAttribute('data-status')).toBe('pending');

    await description.fill('Buy oat milk');
    await card.getByTestId('approval-save').click();
    await withStatus(approvalCard(page), 'edited').waitFor();
    const tool = withState(addTaskCard(page), 'completed');
    await tool.waitFor();
    expect(await tool.textContent()).toContain('Buy oat milk');
    await expect.poll(() => assistantMessages(page).last().innerText()).toContain('Added oat milk.');
    const result = functionResponses(gemini, -1).find((response) => response.name === 'add_task');
    expect(JSON.stringify(result?.response)).toContain('Buy oat milk');
  });

  it('rejects with a reason from the approvals panel, by keyboard: the model is told the reason', async () => {
    const page = await openPage();
    await askForMilk(page, 'Fine, no milk then.');
    const panel = page.getByTestId('approvals-panel');
    await page.getByTestId('open-approvals').click();
    const item = panel.getByTestId('pending-approval');
    await item.waitFor();
    // From the heading, Tab reaches "Reject with a reason…" after Approve and Reject.
    for (let tab = 0; tab < 3; tab += 1) await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('pending-reject-with-reason');
    expect(await item.getByTestId('pending-reject-with-reason').innerText()).toBe('Reject with a reason…');

    // Escape closes the reason form, not the panel, and gives focus back to the button that opened it.
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page)).toBe('approval-reject-reason');
    await page.keyboard.press('Escape');
    await expect.poll(() => focusedTestId(page)).toBe('pending-reject-with-reason');
    expect(await panel.isVisible()).toBe(true);

    // Enter on Cancel cancels: a reason typed and then thought better of is not sent as a rejection.
    await page.keyboard.press('Enter');
    await page.keyboard.type('Not sure yet');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Cancel');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page)).toBe('pending-reject-with-reason');
    expect(await panel.getByTestId('pending-approval').count()).toBe(1);
    expect(await pendingCount(page).innerText()).toBe('1');

    const requestsBefore = gemini.requests.length;
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page)).toBe('approval-reject-reason');
    await page.keyboard.type('I already have milk');
    await page.keyboard.press('Enter');
    await expect.poll(() => panel.getByTestId('pending-approval').count()).toBe(0);
    // The decided approval left the list with its form: the keyboard stays in the panel, on its heading.
    await expect.poll(() => focusedText(page)).toBe('Waiting for your approval');
    // From the heading, before every control, Shift+Tab goes round to the last (Close), not to the page behind;
    // Tab from there comes back round, to the panel's only control.
    await page.keyboard.press('Shift+Tab');
    expect(await focusedText(page)).toBe('Close');
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Close');

    await page.keyboard.press('Escape');
    await withStatus(approvalCard(page), 'rejected').waitFor();
    expect(await approvalCard(page).getByTestId('approval-note').innerText()).toContain(
      'I already have milk',
    );
    await expect.poll(() => assistantMessages(page).last().innerText()).toContain('Fine, no milk then.');
    expect(gemini.requests.length).toBe(requestsBefore + 1);
    const answer = functionResponses(gemini, -1).find((response) => response.name === 'add_task');
    expect(JSON.stringify(answer?.response)).toContain('I already have milk');
  });

  it('edits and approves from the approvals panel, by keyboard, with the card’s editor: the host’s invalid_input shows in it, then the edited call runs', async () => {
    const page = await openPage();
    await askForMilk(page, 'Added oat milk from the panel.');
    const panel = page.getByTestId('approvals-panel');
    await page.getByTestId('open-approvals').click();
    const item = panel.getByTestId('pending-approval');
    await item.waitFor();
    // From the heading, Tab reaches Edit… after Approve, Reject and "Reject with a reason…", as on the card.
    for (let tab = 0; tab < 4; tab += 1) await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('pending-edit');
    expect(await item.getByTestId('pending-edit').innerText()).toBe('Edit…');

    // The card's editor, opened with the cursor in its first field; Escape closes it, not the panel, and the
    // keyboard is back on Edit…
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page)).toBe('approval-field-description');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(page)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.keyboard.press('Escape');
    await expect.poll(() => item.getByTestId('approval-editor').count()).toBe(0);
    await expect.poll(() => focusedTestId(page)).toBe('pending-edit');
    expect(await panel.isVisible()).toBe(true);
    expect(await pendingCount(page).innerText()).toBe('1');

    // Checked by the host as the card's edit is: an empty description is refused, and the editor says why.
    await page.keyboard.press('Enter');
    const description = item.getByTestId('approval-field-description');
    await description.fill('');
    await item.getByTestId('approval-save').click();
    const editError = item.getByTestId('approval-edit-error');
    await editError.waitFor();
    expect(await editError.innerText()).toContain('description');
    expect(await panel.getByTestId('pending-approval').count()).toBe(1);

    await description.fill('Buy oat milk');
    await description.press('Enter');
    await expect.poll(() => panel.getByTestId('pending-approval').count()).toBe(0);
    await expect.poll(() => focusedText(page)).toBe('Waiting for your approval');
    await page.keyboard.press('Escape');
    await withStatus(approvalCard(page), 'edited').waitFor();
    const tool = withState(addTaskCard(page), 'completed');
    await tool.waitFor();
    expect(await tool.textContent()).toContain('Buy oat milk');
    await expect
      .poll(() => assistantMessages(page).last().innerText())
      .toContain('Added oat milk from the panel.');
    const result = functionResponses(gemini, -1).find((response) => response.name === 'add_task');
    expect(JSON.stringify(result?.response)).toContain('Buy oat milk');
  });

  it('shows a new approval card from its title in the small quick prompt, and follows again once it is answered', async () => {
    const page = await openPage('/quick');
    await page.setViewportSize({ width: 640, height: 360 });
    await composer(page).waitFor();
    const conversation = page.getByTestId('conversation');
    const long = 'Your afternoon is mostly free apart from the dentist at 15:30. '.repeat(8);
    gemini.script(textReply(long, { chunks: 4, gapMs: 20 }));
    await send(page, 'What is on this afternoon?');
    await expect.poll(() => assistantMessages(page).last().innerText()).toContain('15:30');

    gemini.script(
      callReply('add_task', MILK_CALL),
      textReply(`Added it. ${'Milk is on your list for the shop on the way home. '.repeat(6)}`, {
        chunks: 6,
        gapMs: 40,
      }),
    );
    await send(page, 'Add a task to buy milk');
    const card = withStatus(approvalCard(page), 'pending');
    await card.waitFor();
    await expect.poll(() => focusedTestId(page)).toBe('approval-card');
    expect(await card.getByTestId('approval-expiry').innerText()).toBe('Expires in 30 min');
    /** The card's title, relative to the conversation's viewport: [top, bottom] and the room below the end. */
    const place = () =>
      conversation.evaluate((section) => {
        const view = section.getBoundingClientRect();
        const title = section.querySelector('[data-testid="approval-card"] h3')?.getBoundingClientRect();
        return {
          isTitleShown: !!title && title.top >= view.top && title.bottom <= view.bottom,
          fromEnd: section.scrollHeight - section.scrollTop - section.clientHeight,
        };
      });
    await expect.poll(place).toMatchObject({ isTitleShown: true });
    // It stays there once the rows have been measured: the conversation no longer follows the end.
    await page.waitForTimeout(500);
    expect((await place()).isTitleShown).toBe(true);
    expect((await place()).fromEnd).toBeGreaterThan(0);

    // Approving: the run goes on, and the conversation follows its answer to the end again.
    await card.getByTestId('approval-approve').click();
    await withStatus(approvalCard(page), 'approved').waitFor();
    await expect.poll(() => assistantMessages(page).last().innerText()).toContain('on the way home');
    await expect.poll(async () => (await place()).fromEnd, { timeout: 5_000 }).toBeLessThan(2);
    // Asking something else follows the new answer too.
    gemini.script(textReply(long, { chunks: 6, gapMs: 40 }));
    await send(page, 'And tomorrow?');
    await expect.poll(() => assistantMessages(page).count()).toBe(3);
    await expect.poll(async () => (await place()).fromEnd, { timeout: 5_000 }).toBeLessThan(2);
  });

  it('in the quick prompt, shows a new approval card from its title while the keyboard is elsewhere, and leaves it there', async () => {
    const page = await openPage('/quick');
    await page.setViewportSize({ width: 640, height: 360 });
    await composer(page).waitFor();
    const long = 'Your afternoon is mostly free apart from the dentist at 15:30. '.repeat(8);
    gemini.script(textReply(long, { chunks: 4, gapMs: 20 }));
    await send(page, 'What is on this afternoon?');
    await expect.poll(() => assistantMessages(page).last().innerText()).toContain('15:30');

    gemini.script({ kind: 'delay', ms: 600, step: callReply('add_task', MILK_CALL) }, textReply('Added it.'));
    await send(page, 'Add a task to buy milk');
    // While Deputy works, the person moves to the header's New (to start over once this is done).
    await page.getByTestId('quick-new').focus();
    const card = withStatus(approvalCard(page), 'pending');
    await card.waitFor();
    const isTitleShown = () =>
      page.getByTestId('conversation').evaluate((section) => {
        const view = section.getBoundingClientRect();
        const title = section.querySelector('[data-testid="approval-card"] h3')?.getBoundingClientRect();
        return !!title && title.top >= view.top && title.bottom <= view.bottom;
      });
    await expect.poll(isTitleShown).toBe(true);
    await page.waitForTimeout(500);
    expect(await isTitleShown()).toBe(true);
    // The card did not take the keyboard from where the person put it.
    expect(await focusedTestId(page)).toBe('quick-new');
    await card.getByTestId('approval-approve').click();
    await expect.poll(() => assistantMessages(page).last().innerText()).toContain('Added it.');
  });

  it('lists pending approvals, opens one where its run paused after a reload, and decides in the approval window', async () => {
    const page = await openPage();
    const card = await askForMilk(page, 'Added it from the window.');
    const approvalId = await card.getAttribute('data-approval-id');
    expect(approvalId).toBeTruthy();

    await page.reload();
    await page.getByTestId('new-conversation').click();
    await expect.poll(() => pendingCount(page).innerText()).toBe('1');
    await page.getByTestId('open-approvals').focus();
    await page.keyboard.press('Enter');
    const item = page.getByTestId('approvals-panel').getByTestId('pending-approval');
    await item.waitFor();
    // Opened, the panel's focus is on its heading: a key pressed too soon approves nothing.
    expect(await focusedText(page)).toBe('Waiting for your approval');
    // A heading, not a box to type in: no ring round it, opened by the keyboard as here.
    expect(await focusRing(page)).toBe('no ring');
    // The action said once, in words: not also by the tool's internal name ("add task").
    const said = await item.innerText();
    expect(said.split('\n')[0]).toBe('Add a task: Buy milk');
    expect(said).not.toContain('add task');
    // Its time left in the card's words, mid-line: whole minutes, not "29 min 58 s".
    expect(await item.locator('.pending-item__meta').innerText()).toMatch(
      / · asked just now · expires in 30 min$/,
    );
    await item.getByTestId('pending-open').click();
    // The stored thread's waiting action is matched to its approval, and the card takes focus.
    const reopened = withStatus(approvalCard(page), 'pending');
    await reopened.waitFor();
    expect(await reopened.getAttribute('data-approval-id')).toBe(approvalId);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-approval-id')))
      .toBe(approvalId);

    const popup = await openPage(`/approval/${approvalId}`);
    const windowCard = popup.getByTestId('approval-window').getByTestId('approval-card');
    await windowCard.waitFor();
    expect(await windowCard.getByTestId('approval-expiry').innerText()).toBe('Expires in 30 min');
    // Apart from its conversation, the window says which conversation asked.
    await expect
      .poll(() => popup.getByTestId('approval-window-context').textContent())
      .toBe('From the conversation “Add a task to buy milk”');
    expect(await axeViolations(popup)).toEqual([]);
    // Renamed in the main window while the approval is open: back in the window, it says the new name.
    // The conversation open in the main window is the one that asked (others in this file share its title).
    const threadId = await page
      .getByTestId('thread-row')
      .filter({ has: page.locator('[aria-current="page"]') })
      .getAttribute('data-thread-id');
    const row = page.locator(`[data-testid="thread-row"][data-thread-id="${threadId}"]`);
    await row.getByTestId('thread-rename').click();
    await row.getByTestId('thread-rename-input').fill('Groceries');
    await row.getByTestId('thread-rename-input').press('Enter');
    await page.getByTestId('thread-item').filter({ hasText: 'Groceries' }).waitFor();
    await popup.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect
      .poll(() => popup.getByTestId('approval-window-context').textContent())
      .toBe('From the conversation “Groceries”');
    expect(popup.url()).toContain(`#/approval/${approvalId}`);
    expect(popup.url()).not.toContain('token=');
    await windowCard.getByTestId('approval-approve').click();
    await withStatus(windowCard, 'approved').waitFor();
    await popup.getByTestId('approval-window-close').waitFor();

    // The main window hears of the decision and follows the continued run.
    await withStatus(approvalCard(page), 'approved').waitFor();
    await expect
      .poll(() => assistantMessages(page).last().innerText())
      .toContain('Added it from the window.');
    await expect.poll(() => pendingCount(page).innerText()).toBe('0');
  });

  it('keeps the action’s own line on its card while its approval is looked up', async () => {
    const page = await openPage();
    await askForMilk(page, 'Added it.');
    // The conversation open, once the list has its row: the list's read may come after the card.
    const threadId = await page
      .locator('[data-testid="thread-item"][aria-current="page"]')
      .getAttribute('data-thread-id');

    // Another window whose host does not answer yet: no pending list, no approval.list.
    const slow = await newPage();
    const held: string[] = [];
    await slow.routeWebSocket(/./, (socket) => {
      const server = socket.connectToServer();
      const approvalsFeeds = new Set<string>();
      socket.onMessage((message) => {
        const frame = JSON.parse(String(message)) as { kind: string; id: string; channel?: string };
        if (frame.channel === 'approvals.changed') approvalsFeeds.add(frame.id);
        if (frame.channel === 'approval.list') held.push(frame.id);
        else server.send(message);
      });
      server.onMessage((message) => {
        const frame = JSON.parse(String(message)) as { kind: string; id: string };
        if (!(frame.kind === 'event' && approvalsFeeds.has(frame.id))) socket.send(message);
      });
    });
    await slow.goto(`${host.url}/#/thread/${threadId}&token=${host.token}`);
    const card = addTaskCard(slow);
    await card.getByTestId('approval-missing').getByText('Looking up the approval…').waitFor();
    expect(held.length).toBeGreaterThan(0);
    expect(await card.getByTestId('tool-call-summary').allInnerTexts()).toEqual(['Add task “Buy milk”']);
    expect(await card.getByTestId('tool-call-state').innerText()).not.toBe('');
    expect(await axeViolations(slow)).toEqual([]);

    // Leaves nothing waiting for the tests after it.
    const pending = withStatus(approvalCard(page), 'pending');
    await pending.getByTestId('approval-reject').click();
    await pending.getByTestId('approval-reject-confirm').click();
    await expect.poll(() => pendingCount(page).innerText()).toBe('0');
  });

  it('applies a trust level set in Settings to the next run: autonomous adds the task without asking', async () => {
    const page = await openPage();
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-tab-permissions').click();
    await page.getByTestId('trust-autonomous').check();
    await page.getByTestId('permissions-save').click();
    await page.getByTestId('permissions-saved').waitFor();
    await page.getByTestId('settings-close').click();

    gemini.script(callReply('add_task', MILK_CALL), textReply('Added it on my own.'));
    await page.getByTestId('new-conversation').click();
    await send(page, 'Add a task to buy milk');
    await withState(addTaskCard(page), 'completed').waitFor();
    await expect.poll(() => assistantMessages(page).last().innerText()).toContain('Added it on my own.');
    expect(await approvalCard(page).count()).toBe(0);
    expect(await pendingCount(page).innerText()).toBe('0');
  });
});
