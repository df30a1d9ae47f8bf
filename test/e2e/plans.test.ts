import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply, textReply } from '../fakes/gemini/script';
import type { FakeGemini } from '../fakes/gemini/types';
import { ODD_SERVER, stdio } from '../support/mcp-kit';
import { apiOf, expireApproval, putSettings } from './support/api';
import { axeViolations } from './support/axe';
import { startHost, type RunningHost } from './support/host';
import { composer, focusedTestId, focusedText, isInConversationView, send, usePages } from './support/pages';

const { newPage } = usePages();

const ADD = {
  description: 'Buy milk',
  confidence: 0.95,
  intent: 'add task',
  reasoning: 'asked',
  assumptions: [],
};
const planWith = (goal: string, last: Record<string, unknown>) =>
  callReply('propose_plan', {
    goal,
    steps: [
      { id: 'list', title: 'Look at my tasks', tool: 'list_tasks', args: {} },
      { ...last, dependsOn: ['list'] },
    ],
  });
const ADD_STEP = { id: 'add', title: 'Add “Buy milk”', tool: 'add_task', args: { description: 'Buy milk' } };
const ASK_STEP = { id: 'ask', title: 'Ask which list', ask: 'Which list?' };

/** The model's replies to a request to add `description`: a plan, the look it takes first, and the add it waits with. */
const addPlanReplies = (goal: string, description: string) => [
  planWith(goal, { ...ADD_STEP, title: `Add “${description}”`, args: { description } }),
  callReply('list_tasks', {}),
  callReply('add_task', { ...ADD, description }),
];

/** The odd MCP server's `hang` tool, which never answers: a call that is still running when the run ends. */
const HANG = 'odd__hang';
const HANG_ARGS = {
  what: 'nothing',
  confidence: 0.95,
  intent: 'wait',
  reasoning: 'asked',
  assumptions: [],
};

/**
 * A cancelled step says "Cancelled" once, on its own line: the call's card in it, and an approval in that card
 * turned down with the plan, keep the quiet look of a cancelled call without the word.
 */
async function expectSaidOnce(cancelledStep: Locator): Promise<void> {
  expect((await cancelledStep.innerText()).match(/\bCancelled\b/g)).toEqual(['Cancelled']);
  expect(await cancelledStep.getByTestId('tool-call').getAttribute('class')).toContain(
    'tool-card--cancelled',
  );
}

/** The approval a cancelled plan turned down: quiet, as nobody said no, and with no badge of its own. */
async function expectQuietApproval(cancelledStep: Locator): Promise<void> {
  const approval = cancelledStep.getByTestId('approval-card');
  expect(await approval.getAttribute('data-status')).toBe('cancelled');
  expect(await approval.getByTestId('approval-status').count()).toBe(0);
}

/** The run under a cancelled plan ends as its tree says it: "Cancelled", never "Stopped". */
async function expectRunCancelled(page: Page): Promise<void> {
  const ending = page.getByTestId('run-cancelled');
  await ending.waitFor();
  expect(await ending.evaluate((row) => row.firstChild?.textContent)).toBe('Cancelled');
  expect(await ending.getByTestId('run-ask-again').count()).toBe(1);
  expect(await page.getByTestId('run-stopped').count()).toBe(0);
  expect(await page.getByTestId('timeline').innerText()).not.toContain('Stopped');
  // The conversation list says it in the same word, not as a run the person stopped.
  const row = page.locator('[data-testid="thread-item"][aria-current="page"]');
  await expect.poll(() => row.innerText()).toContain('· cancelled');
  expect(await row.innerText()).not.toContain('stopped');
}

/** How many times the conversation says `words`. */
const timesSaid = async (page: Page, words: string): Promise<number> =>
  (await page.getByTestId('conversation').innerText()).split(words).length - 1;

const tree = (page: Page): Locator => page.getByTestId('plan-tree').last();
const step = (page: Page, id: string): Locator =>
  tree(page).locator(`[data-testid="plan-step"][data-step-id="${id}"]`);

/** Asks `prompt` in a new conversation and cancels its plan while its add waits for approval. */
async function cancelWhileItWaits(page: Page, prompt: string): Promise<void> {
  await page.getByTestId('new-conversation').click();
  await send(page, prompt);
  await step(page, 'add').and(page.locator('[data-status="awaiting_approval"]')).waitFor();
  await tree(page).getByTestId('plan-cancel').click();
}

describe('plan trees in the chat, against the headless host and a fake Gemini', () => {
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

  /** Checks the conversation as drawn live, then once the page is reloaded and the conversation opened again. */
  async function liveAndReopened(page: Page, check: () => Promise<void>): Promise<void> {
    await check();
    expect(await axeViolations(page)).toEqual([]);
    const reads = readsOfThread(page);
    await page.reload();
    // The window opens the conversation it had open again; the person leaves it and opens it from the list.
    await check();
    await page.getByTestId('new-conversation').click();
    reads.clear();
    await page.getByTestId('thread-item').first().click();
    await check();
    // Opened, the conversation is read once: its plans come from the chat's reading.
    expect(reads.count()).toBe(1);
  }

  /** Counts the `thread.get` commands the page sends over its WebSockets from now on. */
  function readsOfThread(page: Page): { count: () => number; clear: () => void } {
    let count = 0;
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        if (typeof payload === 'string' && payload.includes('"channel":"thread.get"')) count += 1;
      }),
    );
    return { count: () => count, clear: () => (count = 0) };
  }

  async function openPage(route = ''): Promise<Page> {
    const page = await newPage();
    await page.goto(`${host.url}/#${route ? `${route}&` : ''}token=${host.token}`);
    if (!route.startsWith('/approval')) await composer(page).waitFor();
    return page;
  }

  it('approve a plan and watch the tree advance; keyboard and axe in light and dark', async () => {
    const page = await openPage();
    gemini.script(
      planWith('Add milk to my tasks', ADD_STEP),
      callReply('list_tasks', {}),
      callReply('add_task', ADD),
      textReply('Added “Buy milk”.'),
    );
    await send(page, 'Look at my tasks and add one to buy milk');
    await step(page, 'add').and(page.locator('[data-status="awaiting_approval"]')).waitFor();
    expect(await step(page, 'list').getAttribute('data-status')).toBe('done');
    // The list call's card sits inside its step.
    expect(await step(page, 'list').getByTestId('tool-call').count()).toBe(1);
    // One call waiting: its own card's Approve is the step's only approve button (no second one above it).
    await step(page, 'add').getByTestId('approval-card').waitFor();
    expect(await step(page, 'add').getByTestId('plan-approve-step').count()).toBe(0);
    expect(await tree(page).getByTestId('plan-status').innerText()).toContain('Waiting for you');
    // Each step's line says what it does in the plan's words and where it stands, not the tool's name ("add task").
    const line = async (id: string) =>
      (await step(page, id).locator('.plan-step__line').innerText()).replace(/\s+/g, ' ').trim();
    expect(await line('list')).toBe('✓ Look at my tasks Done');
    expect(await line('add')).toBe('! Add “Buy milk” Needs your approval');

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(page)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // Keyboard: the toggle collapses and opens the steps; Approve plan is reachable and pressed by key.
    const toggle = tree(page).getByRole('button', { name: /^Plan:/ });
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await tree(page).getByTestId('plan-approve').focus();
    await page.keyboard.press('Enter');

    await tree(page).and(page.locator('[data-status="completed"]')).waitFor();
    expect(await step(page, 'add').getAttribute('data-status')).toBe('done');
    // Approve plan went away with what it did: the keyboard is on the plan's heading, not dropped on the page.
    await expect.poll(() => focusedText(page)).toContain('Plan: Add milk to my tasks');
    expect(await tree(page).getByTestId('plan-status').innerText()).toContain('you approved this plan');
  });

  it('a plan waiting on a step: its Approve says it approves that step, the plan’s the whole plan, both by keyboard; a question step whose turn has come waits for an answer', async () => {
    const page = await openPage();
    gemini.script(
      callReply('propose_plan', {
        goal: 'Add milk and sort my tasks',
        steps: [
          { id: 'list', title: 'Look at my tasks', tool: 'list_tasks', args: {} },
          { ...ADD_STEP, dependsOn: ['list'] },
          { ...ASK_STEP, dependsOn: ['list'] },
        ],
      }),
      callReply('list_tasks', {}),
      callReply('add_task', ADD),
      callReply('request_clarification', { question: 'Which list?' }),
    );
    await page.getByTestId('new-conversation').click();
    await send(page, 'Add milk and sort my tasks');
    await step(page, 'add').and(page.locator('[data-status="awaiting_approval"]')).waitFor();
    const card = step(page, 'add').getByTestId('approval-card');
    await card.waitFor();
    const line = async (id: string) =>
      (await step(page, id).locator('.plan-step__line').innerText()).replace(/\s+/g, ' ').trim();
    // Not asked yet, the question is the person's to answer: not "Ready" with a clock.
    expect(await line('ask')).toBe('? Ask which list Will need your answer');

    // Each Approve says what it approves; the step's names its action to a screen reader.
    const approveStep = card.getByTestId('approval-approve');
    expect(await approveStep.evaluate((button) => button.firstChild?.textContent)).toBe('Approve this step');
    expect(
      await card
        .getByRole('button', { name: 'Approve this step: Add a task: Buy milk', exact: true })
        .count(),
    ).toBe(1);
    expect(await tree(page).getByTestId('plan-approve').innerText()).toBe('Approve the whole plan');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(page)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // By keyboard, the step's decisions come first, then the plan's.
    await approveStep.focus();
    const reached: (string | null)[] = [];
    for (let tab = 0; tab < 8 && reached.at(-1) !== 'plan-approve'; tab += 1) {
      await page.keyboard.press('Tab');
      reached.push(await focusedTestId(page));
    }
    expect(reached.slice(0, 2)).toEqual(['approval-reject', 'approval-edit']);
    expect(reached.at(-1)).toBe('plan-approve');

    // The approval window shows the step's card above the plan: one "Approve this step", the card's.
    const pending = await apiOf(host)('/api/actions/pending');
    const [approval] = ((await pending.json()) as { approvals: { id: string }[] }).approvals;
    const window = await openPage(`/approval/${approval?.id ?? ''}`);
    await step(window, 'add').and(window.locator('[data-status="awaiting_approval"]')).waitFor();
    await window.getByTestId('approval-approve').waitFor();
    expect(await window.getByRole('button', { name: /^Approve this step/ }).count()).toBe(1);
    await window.close();

    // Approved by keyboard, the step's buttons go with the decision and the keyboard stays on its card.
    await approveStep.focus();
    await page.keyboard.press('Enter');
    await card.and(page.locator('[data-status="approved"]')).waitFor();
    await expect.poll(() => focusedTestId(page)).toBe('approval-card');
    // Asked, the question step says so and offers the box for the answer.
    await step(page, 'ask').and(page.locator('[data-status="awaiting_user"]')).waitFor();
    expect(await line('ask')).toBe('? Ask which list Needs your answer');
    await step(page, 'ask').getByLabel('Your answer').waitFor();
    // Its one step that asked first is done: the plan offers no "Approve the whole plan" that would grant nothing.
    expect(await tree(page).getByTestId('plan-approve').count()).toBe(0);
  });

  it('answer a question step; the plan goes on in a new run and completes', async () => {
    const page = await openPage();
    gemini.script(
      planWith('Sort my tasks', ASK_STEP),
      callReply('list_tasks', {}),
      callReply('request_clarification', { question: 'Which list should I sort?' }),
      textReply('Sorted the work list.'),
    );
    await page.getByTestId('new-conversation').click();
    await send(page, 'Sort my tasks');
    // The question is asked once, in its step beside the answer's box: not again as Deputy's message below
    // the plan, with "Regenerate the answer" (which would ask for a new plan) under it.
    const askedOnce = async () => {
      await step(page, 'ask').and(page.locator('[data-status="awaiting_user"]')).waitFor();
      expect(await step(page, 'ask').innerText()).toContain('Which list should I sort?');
      await expect.poll(() => timesSaid(page, 'Which list should I sort?')).toBe(1);
      expect(await page.getByTestId('regenerate').count()).toBe(0);
    };
    await liveAndReopened(page, askedOnce);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(page)).toEqual([]);
    }
    await step(page, 'ask').getByLabel('Your answer').fill('The work list');
    await step(page, 'ask').getByRole('button', { name: 'Answer', exact: true }).click();
    // Answered, the step still says what it asked, above the answer; the answer is said once, in the step (the
    // run that goes on has it as its prompt), and the plan stays under the request that made it.
    await liveAndReopened(page, async () => {
      await tree(page).and(page.locator('[data-status="completed"]')).waitFor();
      expect(await step(page, 'ask').innerText()).toMatch(
        /Which list should I sort\?\s+You answered: The work list/,
      );
      await page.getByText('Sorted the work list.').waitFor();
      expect(await timesSaid(page, 'Which list should I sort?')).toBe(1);
      expect(await timesSaid(page, 'The work list')).toBe(1);
      const above = await tree(page).evaluate(
        (element) => element.closest('li')?.previousElementSibling?.textContent ?? '',
      );
      expect(above).toContain('Sort my tasks');
    });
  });

  it('a search hit on a plan’s question or its answer opens the conversation at the step that says it', async () => {
    gemini.script(
      planWith('Sort my chores', { ...ASK_STEP, ask: 'Which chore list should I sort?' }),
      callReply('list_tasks', {}),
      callReply('request_clarification', { question: 'Which chore list should I sort?' }),
      textReply('Sorted the chores.'),
      // Later turns push the plan well above the end of the conversation.
      ...Array.from({ length: 8 }, (_, turn) =>
        textReply(`Later answer ${turn}: ${'nothing here, '.repeat(30)}`),
      ),
    );
    const page = await openPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByTestId('new-conversation').click();
    await send(page, 'Sort my chores');
    await step(page, 'ask').getByLabel('Your answer').fill('The allotment rota');
    await step(page, 'ask').getByRole('button', { name: 'Answer', exact: true }).click();
    await tree(page).and(page.locator('[data-status="completed"]')).waitFor();
    const threadId = await tree(page).evaluate(() => localStorage.getItem('deputy.lastThreadId'));
    const api = apiOf(host);
    for (let turn = 0; turn < 8; turn += 1) {
      const later = await api('/api/agent/run', {
        method: 'POST',
        body: JSON.stringify({ prompt: `Later question ${turn}`, threadId }),
      });
      expect(later.status).toBe(200);
    }
    for (const { words, said } of [
      { words: 'chore list', said: 'Which chore list should I sort?' },
      { words: 'allotment', said: 'The allotment rota' },
    ]) {
      await page.getByTestId('new-conversation').click();
      await page.getByTestId('thread-search').fill(words);
      const hit = page.getByTestId('search-hit');
      await expect.poll(() => hit.count()).toBe(1);
      expect(await hit.innerText()).toContain(said);
      await hit.getByRole('button').click();
      // The step that says it is marked, focused and in view; the conversation is not at its end.
      const found = step(page, 'ask').and(page.locator('[data-found="true"]'));
      await found.waitFor();
      await expect.poll(() => found.evaluate((element) => document.activeElement === element)).toBe(true);
      await expect.poll(() => isInConversationView(found)).toBe(true);
      await expect
        .poll(() => page.locator('[data-testid="message"]', { hasText: 'Later answer 7' }).count())
        .toBe(0);
      await page.getByTestId('thread-search').fill('');
    }
  });

  it('a step whose call the person rejects says “Turned down” once, without the note meant for the model', async () => {
    const page = await openPage();
    gemini.script(
      planWith('Add oat milk', {
        ...ADD_STEP,
        title: 'Add “Buy oat milk”',
        args: { description: 'Buy oat milk' },
      }),
      callReply('list_tasks', {}),
      callReply('add_task', { ...ADD, description: 'Buy oat milk' }),
      textReply('Okay, I did not add it.'),
    );
    await page.getByTestId('new-conversation').click();
    await send(page, 'Look at my tasks and add oat milk');
    await step(page, 'add').and(page.locator('[data-status="awaiting_approval"]')).waitFor();
    await step(page, 'add').getByTestId('approval-reject').click();
    await step(page, 'add').getByTestId('approval-reject-reason').fill('I already have milk');
    await page.keyboard.press('Enter');
    await tree(page).and(page.locator('[data-status="failed"]')).waitFor();
    await liveAndReopened(page, async () => {
      await step(page, 'add')
        .getByTestId('approval-card')
        .and(page.locator('[data-status="rejected"]'))
        .waitFor();
      const words = await step(page, 'add').innerText();
      // Said once, by the step, in the audit trail's words: not again by its card, nor by the approval inside.
      expect(words.match(/Turned down|Rejected/g)).toEqual(['Turned down']);
      expect(await step(page, 'add').locator('.plan-step__state').innerText()).toBe('Turned down');
      expect(words).toContain('Reason: I already have milk');
      expect(words).not.toContain('Do not retry');
      expect(words).not.toContain('The user rejected');
    });
  });

  it('a step whose approval expired unanswered says “Expired”, as its cards do, not “Rejected”, live and reopened', async () => {
    const page = await openPage();
    gemini.script(
      planWith('Add rye bread', {
        ...ADD_STEP,
        title: 'Add “Buy rye bread”',
        args: { description: 'Buy rye bread' },
      }),
      callReply('list_tasks', {}),
      callReply('add_task', { ...ADD, description: 'Buy rye bread' }),
    );
    await page.getByTestId('new-conversation').click();
    await send(page, 'Look at my tasks and add rye bread');
    await step(page, 'add').and(page.locator('[data-status="awaiting_approval"]')).waitFor();
    const approvalId =
      (await step(page, 'add').getByTestId('approval-card').getAttribute('data-approval-id')) ?? '';
    await expireApproval(host, approvalId);
    await tree(page).and(page.locator('[data-status="failed"]')).waitFor();
    await liveAndReopened(page, async () => {
      await step(page, 'add')
        .getByTestId('approval-card')
        .and(page.locator('[data-status="expired"]'))
        .waitFor();
      await expect.poll(() => step(page, 'add').locator('.plan-step__state').innerText()).toBe('Expired');
      // The step says it; its call's card inside does not say it again, nor the approval inside that.
      await expect.poll(() => step(page, 'add').getByTestId('tool-call-state').count()).toBe(0);
      expect((await step(page, 'add').innerText()).match(/Expired/g)).toEqual(['Expired']);
      expect(await step(page, 'add').innerText()).not.toContain('Rejected');
    });
  });

  it('a step approved from its card shows that approval the same live and reopened', async () => {
    const page = await openPage();
    gemini.script(
      planWith('Add cheese', { ...ADD_STEP, title: 'Add “Buy cheese”', args: { description: 'Buy cheese' } }),
      callReply('list_tasks', {}),
      callReply('add_task', { ...ADD, description: 'Buy cheese' }),
      textReply('Added cheese.'),
    );
    await page.getByTestId('new-conversation').click();
    await send(page, 'Look at my tasks and add cheese');
    await step(page, 'add').getByTestId('approval-approve').click();
    await tree(page).and(page.locator('[data-status="completed"]')).waitFor();
    await liveAndReopened(page, async () => {
      await step(page, 'add')
        .getByTestId('tool-call')
        .and(page.locator('[data-state="completed"]'))
        .waitFor();
      const card = step(page, 'add').getByTestId('approval-card');
      await card.and(page.locator('[data-status="approved"]')).waitFor();
      expect(await card.count()).toBe(1);
      expect(await card.getByTestId('approval-approve').count()).toBe(0);
    });
  });

  it('a failed step says why once, and the step waiting on it says it was skipped and why, live and reopened', async () => {
    const page = await openPage();
    const FIX = {
      description: 'Buy oat milk',
      confidence: 0.95,
      intent: 'rename',
      reasoning: 'asked',
      assumptions: [],
    };
    gemini.script(
      callReply('propose_plan', {
        goal: 'Rename my milk task',
        steps: [
          { id: 'fix', title: 'Rename the milk task', tool: 'update_task', args: { id: 'task-gone' } },
          { ...ADD_STEP, title: 'Add “Check the fridge”', dependsOn: ['fix'] },
        ],
      }),
      callReply('update_task', { id: 'task-gone', ...FIX }),
      textReply('I could not find the milk task.'),
    );
    await page.getByTestId('new-conversation').click();
    await send(page, 'Rename my milk task, then add a reminder');
    await step(page, 'fix').getByTestId('approval-approve').click();
    await liveAndReopened(page, async () => {
      await step(page, 'add').and(page.locator('[data-status="skipped"]')).waitFor();
      expect(await step(page, 'add').getByTestId('plan-step-why').innerText()).toBe(
        'It waits for “Rename the milk task”, which failed.',
      );
      // The error is the call's, said on its card: not a second time above it.
      const words = await step(page, 'fix').innerText();
      expect(words.split('No task has the id').length - 1).toBe(1);
    });
  });

  it('cancel another plan while it waits: nothing is added', async () => {
    const page = await openPage();
    gemini.script(...addPlanReplies('Add bread', 'Buy bread'));
    await cancelWhileItWaits(page, 'Look at my tasks and add one to buy bread');
    await tree(page).and(page.locator('[data-status="cancelled"]')).waitFor();
    expect(await tree(page).getByTestId('plan-status').innerText()).toContain('Cancelled');
    // The waiting add was rejected, never run, and nothing waits any more.
    await step(page, 'add').and(page.locator('[data-status="failed"]')).waitFor();
    // Deputy turned it down because the plan was cancelled: the step says cancelled, once, and its card why,
    // never "Rejected".
    const cancelled = async () => {
      await expect.poll(() => step(page, 'add').locator('.plan-step__state').innerText()).toBe('Cancelled');
      expect(await step(page, 'add').getByTestId('tool-call-note').innerText()).toBe(
        'You cancelled the plan.',
      );
      await expectSaidOnce(step(page, 'add'));
      await expectQuietApproval(step(page, 'add'));
      expect(await step(page, 'add').innerText()).not.toContain('Rejected');
      // Nothing waits any more: the card no longer says why the call waited for approval.
      expect(await step(page, 'add').innerText()).not.toContain('waits for your approval');
      await expectRunCancelled(page);
    };
    await liveAndReopened(page, cancelled);
    const pending = await fetch(`${host.url}/api/actions/pending`, {
      headers: { authorization: `Bearer ${host.token}` },
    });
    expect(((await pending.json()) as { approvals: unknown[] }).approvals).toEqual([]);
  });

  it('Ask again after a cancelled plan asks the same question anew: a new plan to see, the cancelled one kept as it was', async () => {
    const page = await openPage();
    gemini.script(
      ...addPlanReplies('Add oats', 'Buy oats'),
      ...addPlanReplies('Add oats, asked again', 'Buy oats'),
    );
    await cancelWhileItWaits(page, 'Look at my tasks and add oats');
    await expectRunCancelled(page);
    await page.getByTestId('run-cancelled').getByTestId('run-ask-again').click();
    // The same question, asked again as a new request: Deputy proposes a new plan, which waits for the person
    // as the first did; nothing of the cancelled one runs.
    await page.getByTestId('run-repeat').waitFor();
    await expect.poll(() => page.getByTestId('plan-tree').count()).toBe(2);
    await step(page, 'add').and(page.locator('[data-status="awaiting_approval"]')).waitFor();
    const first = page.getByTestId('plan-tree').first();
    expect(await first.getAttribute('data-status')).toBe('cancelled');
    expect(await first.getByTestId('plan-status').innerText()).toMatch(/^Cancelled/);
    // The cancelled run's row no longer offers it: the turn it belonged to was followed by a newer one.
    expect(await page.getByTestId('run-cancelled').getByTestId('run-ask-again').count()).toBe(0);
    const row = page.locator('[data-testid="thread-item"][aria-current="page"]');
    await expect.poll(() => row.innerText()).toContain('· needs approval');
    await tree(page).getByTestId('plan-cancel').click();
    await expect.poll(() => row.innerText()).toContain('· cancelled');
  });

  it('cancel a plan whose waiting call a task’s link steered: where it came from is kept, folded away', async () => {
    // A task the person keeps, whose notes hold a link: the planned call copies it, so its card says where from.
    const LINK = 'https://pay.example.com/inv/42';
    await putSettings(host, { trustLevel: 'autonomous' });
    const made = await apiOf(host)('/api/tasks', {
      method: 'POST',
      body: JSON.stringify({ description: 'Pay the invoice', notes: `Pay at ${LINK}` }),
    });
    await putSettings(host, { trustLevel: 'supervised' });
    expect(made.status).toBe(200);
    const add = { ...ADD_STEP, title: 'Add the payment', args: { description: `Pay at ${LINK}` } };
    gemini.script(
      planWith('Tidy my tasks', add),
      callReply('list_tasks', {}),
      callReply('add_task', { ...ADD, description: `Pay at ${LINK}` }),
    );
    const page = await openPage();
    await page.getByTestId('new-conversation').click();
    await send(page, 'Look at my tasks and tidy them');
    const origins = step(page, 'add').getByTestId('approval-origins');
    // While it waits, where the link came from is the first thing the card says, open.
    await origins.waitFor();
    expect(await origins.getAttribute('data-folded')).toBeNull();
    await tree(page).getByTestId('plan-cancel').click();
    await step(page, 'add').and(page.locator('[data-status="failed"]')).waitFor();
    await liveAndReopened(page, async () => {
      await expect.poll(() => origins.getAttribute('data-folded')).toBe('true');
      expect(await origins.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
      expect(await origins.innerText()).toBe('Where this came from');
      await expectSaidOnce(step(page, 'add'));
      await expectQuietApproval(step(page, 'add'));
    });
    // Opened, it still says where the link came from.
    await origins.locator('summary').click();
    expect(await origins.innerText()).toContain(
      `This link (${LINK}) appears only in the task “Pay the invoice”.`,
    );
  });

  /** Adds the odd MCP server and waits until it runs. */
  async function addOddServer(): Promise<void> {
    const api = apiOf(host);
    const put = await api('/api/mcp/servers/odd', {
      method: 'PUT',
      body: JSON.stringify({ config: { ...stdio(ODD_SERVER), callTimeoutSeconds: 55 } }),
    });
    expect(put.status).toBe(200);
    await expect
      .poll(async () => {
        const listed = (await (await api('/api/mcp/servers')).json()) as {
          servers: { name: string; state: string }[];
        };
        return listed.servers.find((server) => server.name === 'odd')?.state;
      })
      .toBe('running');
  }

  /**
   * The hanging call's card reads as cancelled, quietly: no "Failed", no red error line. In a plan, its step says
   * "Cancelled" (`isInStep`) and the card does not say it again.
   */
  async function expectCancelledCard(card: Locator, isInStep = false): Promise<void> {
    await expect.poll(() => card.getAttribute('class')).toContain('tool-card--cancelled');
    // The card may hear of its cancel a moment before its step does: the step's word takes the card's away then.
    if (isInStep) await expect.poll(() => card.getByTestId('tool-call-state').count()).toBe(0);
    else expect(await card.getByTestId('tool-call-state').innerText()).toBe('Cancelled');
    expect(await card.getByTestId('tool-call-error').count()).toBe(0);
    expect(await card.getByTestId('tool-call-note').innerText()).toContain(
      'was stopped because the run was cancelled.',
    );
    expect(await card.innerText()).not.toContain('Failed');
  }

  it('cancel a plan while its call is running: the call and its step read cancelled, live and reopened', async () => {
    await addOddServer();
    const page = await openPage();
    gemini.script(
      planWith('Wait for the odd server', {
        id: 'hang',
        title: 'Wait for the odd server',
        tool: HANG,
        args: { what: 'nothing' },
      }),
      callReply('list_tasks', {}),
      callReply(HANG, HANG_ARGS),
    );
    await page.getByTestId('new-conversation').click();
    await send(page, 'Wait for the odd server');
    const card = step(page, 'hang').getByTestId('tool-call');
    await card.getByTestId('approval-approve').click();
    await card.and(page.locator('[data-state="executing"]')).waitFor();
    await tree(page).getByTestId('plan-cancel').click();
    await tree(page).and(page.locator('[data-status="cancelled"]')).waitFor();
    await liveAndReopened(page, async () => {
      await expectCancelledCard(card, true);
      await expect.poll(() => step(page, 'hang').locator('.plan-step__state').innerText()).toBe('Cancelled');
      await expectSaidOnce(step(page, 'hang'));
      expect(await step(page, 'hang').innerText()).not.toContain('Failed');
      await expectRunCancelled(page);
    });
  });

  it('cancel a plan while Deputy works out its next step: its run ends “Cancelled”, as the tree says, live and reopened', async () => {
    const page = await openPage();
    gemini.script(planWith('Add milk, slowly', ADD_STEP), callReply('list_tasks', {}), { kind: 'hang' });
    await page.getByTestId('new-conversation').click();
    await send(page, 'Look at my tasks and add milk');
    await step(page, 'list').and(page.locator('[data-status="done"]')).waitFor();
    await expect.poll(() => gemini.inFlight()).toBe(1);
    await tree(page).getByTestId('plan-cancel').click();
    await tree(page).and(page.locator('[data-status="cancelled"]')).waitFor();
    await liveAndReopened(page, async () => {
      expect(await tree(page).getByTestId('plan-status').innerText()).toMatch(/^Cancelled/);
      await expectRunCancelled(page);
    });
  });

  it('stop a plain run while its call is running: the call reads cancelled, live and reopened', async () => {
    await addOddServer();
    const page = await openPage();
    gemini.script(callReply(HANG, HANG_ARGS));
    await page.getByTestId('new-conversation').click();
    await send(page, 'Wait for the odd server, no plan');
    const card = page.locator(`[data-testid="tool-call"][data-tool="${HANG}"]`);
    // Supervised: the call asks first, and hangs once approved.
    await card.getByTestId('approval-approve').click();
    await card.and(page.locator('[data-state="executing"]')).waitFor();
    await page.getByTestId('composer-stop').click();
    await page.getByTestId('run-stopped').waitFor();
    await liveAndReopened(page, async () => {
      await expectCancelledCard(card);
      // Its plan-less run was stopped, and the conversation list says so.
      const row = page.locator('[data-testid="thread-item"][aria-current="page"]');
      await expect.poll(() => row.innerText()).toContain('· stopped');
    });
  });

  it('the same tree in the quick prompt and in the approval window (axe 0, light and dark)', async () => {
    const quick = await openPage('/quick');
    gemini.script(
      planWith('Add tea', { ...ADD_STEP, title: 'Add “Buy tea”', args: { description: 'Buy tea' } }),
      callReply('list_tasks', {}),
      callReply('add_task', { ...ADD, description: 'Buy tea' }),
      textReply('Added tea.'),
    );
    await send(quick, 'Look at my tasks and add one to buy tea');
    await step(quick, 'add').and(quick.locator('[data-status="awaiting_approval"]')).waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await quick.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(quick)).toEqual([]);
    }

    const pending = await fetch(`${host.url}/api/actions/pending`, {
      headers: { authorization: `Bearer ${host.token}` },
    });
    const [approval] = ((await pending.json()) as { approvals: { id: string; planId?: string }[] }).approvals;
    expect(approval?.planId).toBe(await tree(quick).getAttribute('data-plan-id'));
    const window = await openPage(`/approval/${approval?.id ?? ''}`);
    await step(window, 'add').and(window.locator('[data-status="awaiting_approval"]')).waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await window.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(window)).toEqual([]);
    }
    // Approving the plan from the approval window moves the quick prompt's tree too.
    await tree(window).getByTestId('plan-approve').click();
    await tree(quick).and(quick.locator('[data-status="completed"]')).waitFor();
    await tree(window).and(window.locator('[data-status="completed"]')).waitFor();
  });
});
