import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply, statusReply, textReply } from '../fakes/gemini/script';
import type { FakeGemini } from '../fakes/gemini/types';
import { agentDefinition, dataDirWithAgents } from '../support/agent-kit';
import { axeViolations } from './support/axe';
import { assistantMessages, composer, focusedTestId, send, usePages } from './support/pages';
import { startHost, type RunningHost } from './support/host';
import { coveredByTab, pinnedButtonView } from './support/pinned-buttons';

const { newPage } = usePages();
const SHOTS = process.env.DEPUTY_SHOTS;

/** What the helper agent says, in its own words (nothing else in the conversation says them). */
const HELPER_WORDS = 'There are three open tasks on the list.';

interface Seen {
  /** The helper's words were drawn somewhere but inside the helper's block: as Deputy's own answer. */
  isOutside: boolean;
  isInside: boolean;
}

/**
 * Before the page's own scripts run, notes after every change to the page whether the helper's words are drawn
 * inside the helper's block or outside it: from the first drawing of a reload on, not from whenever the test
 * looks.
 */
const watchHelperWords = (page: Page) =>
  page.addInitScript((words: string) => {
    const seen = { isOutside: false, isInside: false };
    (window as { helperWordsSeen?: typeof seen }).helperWordsSeen = seen;
    const note = () => {
      for (const message of document.querySelectorAll('[data-testid="message"]')) {
        if (!message.textContent?.includes(words)) continue;
        if (message.closest('[data-testid="child-run"]')) seen.isInside = true;
        else seen.isOutside = true;
      }
    };
    new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true });
  }, HELPER_WORDS);

/** Starts an agent from the composer's picker with its task. */
async function startAgent(page: Page, name: string, task: string): Promise<void> {
  await page.getByTestId('composer-agents').click();
  await page.getByTestId(`pick-${name}`).click();
  await page.getByTestId('agent-input-task').fill(task);
  await page.getByTestId('agent-run').click();
}

const helperWordsSeen = (page: Page) =>
  page.evaluate(() => (window as { helperWordsSeen?: Seen }).helperWordsSeen);

describe('agents in the browser, against the headless host and a fake Gemini', () => {
  let gemini: FakeGemini;
  let host: RunningHost;
  let dataDir: string;

  beforeAll(async () => {
    gemini = await startFakeGemini();
    dataDir = dataDirWithAgents(
      { name: 'lead', tools: ['helper', 'list_tasks'] },
      { name: 'helper', displayName: 'Task helper', tools: ['list_tasks', 'add_task'] },
      { name: 'sloppy', tools: ['list_taskz', 'list_tasks'] },
    );
    host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key', dataDir });
  });

  afterAll(async () => {
    await host?.stop();
    await gemini?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function openPage(): Promise<Page> {
    const page = await newPage();
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    return page;
  }

  it('picks an agent, fills its inputs, shows its child run nested, its output and its artifacts', async () => {
    gemini.script(
      callReply('helper', { task: 'look at the open tasks' }),
      callReply('list_tasks', {}),
      callReply('complete_task', { result: { note: 'Nothing is open.' } }),
      callReply('complete_task', { result: { note: 'The helper found nothing open.' } }),
    );
    const page = await openPage();
    await page.getByTestId('composer-agents').click();
    await page.getByTestId('pick-lead').click();
    // The form takes focus at its first field; Back returns to the list, on the agent left.
    await expect.poll(() => focusedTestId(page)).toBe('agent-input-task');
    await page.getByRole('button', { name: 'Back to the list' }).click();
    await expect.poll(() => focusedTestId(page)).toBe('pick-lead');
    await page.keyboard.press('Enter');
    await page.getByTestId('agent-input-task').fill('Check my tasks');
    await page.getByTestId('agent-run').click();

    const child = page.locator('[data-testid="child-run"][data-role="helper"]');
    await child.waitFor();
    await expect
      .poll(async () =>
        (await assistantMessages(page).allInnerTexts()).some((text) =>
          text.includes('Note: The helper found nothing open.'),
        ),
      )
      .toBe(true);
    const artifacts = page.getByTestId('artifact');
    await expect.poll(() => artifacts.count()).toBe(2);
    // Each agent by the name the person knows it by, as its row says it: what it made, and how big, in words.
    expect(await artifacts.first().locator('summary').innerText()).toBe('Report from Task helper · 22 bytes');
    expect(await artifacts.first().getByRole('button').getAttribute('aria-label')).toMatch(
      /from Task helper$/,
    );
    // The lead has no display name: it is its name in words, in the title of its conversation as in every view.
    const title = page.locator('[data-testid="thread-item"][aria-current] .thread-list__title');
    await expect.poll(() => title.innerText()).toBe('Lead');
    expect(await artifacts.last().locator('summary').innerText()).toMatch(/^Report from Lead · \d+ bytes$/);
    // Copy is a button as the others are, with a solid edge, not a faint dashed outline.
    const copy = artifacts.first().getByTestId('artifact-copy');
    expect(await copy.evaluate((button) => getComputedStyle(button).borderTopStyle)).toBe('solid');
    await artifacts.first().locator('summary').click();
    expect(await artifacts.first().getByTestId('artifact-content').innerText()).toBe(
      'Note: Nothing is open.',
    );
    await child.locator('summary').first().click();
    await expect
      .poll(() => child.locator('[data-testid="tool-call"][data-tool="list_tasks"]').count())
      .toBe(1);
    await expect.poll(() => child.locator('summary').first().innerText()).toContain('done');
    // The child's own answer is said to be its agent's, by the name its row shows; the parent's is Deputy's.
    const authors = (where: Locator) =>
      where.locator('[data-testid="message"][data-role="assistant"] .message__author').allInnerTexts();
    expect(await authors(child)).toEqual(['Task helper']);
    expect((await authors(page.getByTestId('timeline'))).filter((name) => name !== 'Task helper')).toEqual([
      'Deputy',
    ]);
    // The query the form made is the conversation's first message.
    expect(await page.getByTestId('timeline').innerText()).toContain('Do this: Check my tasks');
    expect(await axeViolations(page)).toEqual([]);
    // Narrow, the row's tokens and cost go to the next line whole, never broken mid-phrase ("about / $0.0001").
    await page.setViewportSize({ width: 420, height: 800 });
    const usage = child.locator('.child-run__usage').first();
    // Its tokens and cost said as its own footer says them (less the model): not "59 tokens" over "24 in, 35 out".
    const footer = await child.getByTestId('run-usage').first().innerText();
    expect(await usage.innerText()).toMatch(/^\d+ tokens in, \d+ out · (about|under) \$/);
    expect(await usage.innerText()).toBe(footer.replace(/ \([^)]*\)$/, ''));
    expect(await usage.evaluate((span) => span.getClientRects().length)).toBe(1);
    // So does an artifact's size ("· 22 bytes"), never "22 / bytes".
    const size = artifacts.first().locator('.artifact__size');
    expect(await size.evaluate((span) => span.getClientRects().length)).toBe(1);
  });

  it('shows a child’s row as soon as its delegation starts, before the child says anything, and on reopening', async () => {
    // The child's model never answers: whatever the row shows, it shows before the child has emitted anything.
    gemini.script(callReply('helper', { task: 'look at the open tasks' }), { kind: 'hang' });
    const page = await openPage();
    await send(page, 'Have the helper look at my tasks');
    const child = page.locator('[data-testid="child-run"][data-role="helper"]');
    const summary = child.locator('summary').first();
    await expect.poll(() => summary.innerText()).toMatch(/^Task helper\s*starting…$/);
    // Placed under the call that started it.
    const card = page.locator('[data-testid="tool-call"][data-tool="helper"]');
    expect(
      await card.evaluate((node) => node.closest('li')?.nextElementSibling?.getAttribute('data-testid')),
    ).toBe('child-run');
    expect(await axeViolations(page)).toEqual([]);
    await page.reload();
    await page.getByTestId('thread-item').first().click();
    await expect.poll(() => summary.innerText()).toMatch(/^Task helper\s*starting…$/);
    // The child's model holds its request before Stop: a hang left in the script would reach the next test.
    await expect.poll(() => gemini.pending()).toBe(0);
    await page.getByTestId('composer-stop').click();
    await expect.poll(() => summary.innerText()).toMatch(/^Task helper\s*stopped$/);
  });

  it("draws the agent's words in the agent's block from the first drawing, at every width and theme", async () => {
    gemini.script(callReply('helper', { task: 'count the open tasks' }), {
      kind: 'reply',
      chunks: [
        { text: HELPER_WORDS },
        { calls: [{ name: 'complete_task', args: { result: { note: 'Counted.' } } }], finishReason: 'STOP' },
      ],
    });
    gemini.script(callReply('complete_task', { result: { note: 'The helper counted.' } }));
    const page = await newPage();
    await watchHelperWords(page);
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    await startAgent(page, 'lead', 'Count with the helper');
    const child = page.locator('[data-testid="child-run"][data-role="helper"]');
    const answer = assistantMessages(page).getByText('Note: The helper counted.');
    await answer.waitFor();
    await page.getByTestId('composer-send').waitFor();

    for (const width of [1280, 420])
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 800 });
        await page.emulateMedia({ colorScheme });
        // The window reopens on the conversation it had open, its agent's block closed (the agent is done).
        await page.reload();
        await answer.waitFor();
        await page.getByTestId('run-usage').last().waitFor();
        await child.locator('summary').click();
        await child.getByText(HELPER_WORDS).waitFor();
        expect(await helperWordsSeen(page), `${width} px, ${colorScheme}`).toEqual({
          isOutside: false,
          isInside: true,
        });
        if (SHOTS)
          await page.screenshot({
            path: `${SHOTS}/agent-reloaded-${width}-${colorScheme}.png`,
            fullPage: true,
          });
      }
  });

  it('a failed agent does not fail its turn: the same words asked after the answer are a new question', async () => {
    gemini.script(
      callReply('helper', { task: 'look at the open tasks' }),
      statusReply(400, { message: 'The helper’s model refused.' }),
      callReply('complete_task', { result: { note: 'The helper could not look.' } }),
    );
    const page = await openPage();
    await page.getByTestId('composer-agents').click();
    await page.getByTestId('pick-lead').click();
    await page.getByTestId('agent-input-task').fill('Count my tasks');
    await page.getByTestId('agent-run').click();
    const child = page.locator('[data-testid="child-run"][data-role="helper"]');
    await child.waitFor();
    await expect
      .poll(async () => (await assistantMessages(page).allInnerTexts()).join('\n'))
      .toContain('The helper could not look.');
    // Once the turn is over in the window, as a failed turn would show its failure then.
    await page.getByTestId('composer-send').waitFor();
    // The agent's failure shows inside its own row, not as the turn's.
    await expect.poll(() => child.getByTestId('run-error').count()).toBe(1);
    expect(await page.getByTestId('run-error').count()).toBe(1);

    gemini.script(textReply('You have no tasks.'));
    await send(page, 'Do this: Count my tasks');
    await expect
      .poll(async () => (await assistantMessages(page).allInnerTexts()).join('\n'))
      .toContain('You have no tasks.');
    // Over in the window: what the run's end adds (a repeat note, the answer's Copy) is there to be checked.
    await page.getByTestId('composer-send').waitFor();
    expect(await page.getByTestId('run-repeat').count()).toBe(0);
    const asked = page.locator('[data-testid="message"][data-role="user"]', {
      hasText: 'Do this: Count my tasks',
    });
    expect(await asked.count()).toBe(2);
    // Reopened, the agent's answer is still there: a stored copy that lacked it is also what replaced the live
    // conversation when the run ended while the picker was opening it (this test failed now and then that way).
    const answers = async () => (await assistantMessages(page).allInnerTexts()).join('\n');
    const live = await answers();
    await page.reload();
    await page.getByTestId('thread-item').first().click();
    await expect.poll(answers).toBe(live);
    expect(await page.getByTestId('run-repeat').count()).toBe(0);
  });

  it('while a child waits for approval, the line under the chat says so, not that Gemini is slow', async () => {
    gemini.script(
      callReply('helper', { task: 'add a task to buy milk' }),
      callReply('add_task', { description: 'Buy milk', confidence: 0.95, intent: 'add task' }),
    );
    const page = await newPage();
    await page.clock.install();
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    await send(page, 'Have the helper add a task to buy milk');
    const child = page.locator('[data-testid="child-run"][data-role="helper"]');
    await child.getByTestId('approval-card').waitFor();
    // The parent's own status stays "executing": it waits for the child, and the child waits for the person.
    await page.clock.fastForward(26_000);
    await expect.poll(() => page.getByTestId('run-status').innerText()).toBe('Waiting for your approval');
    expect(await page.getByTestId('run-silent').count()).toBe(0);
    await page.getByTestId('composer-stop').click();
    // Stopping the parent stops the child too: its approval is rejected, and both read as stopped.
    await expect.poll(() => child.getByTestId('run-stopped').count()).toBe(1);
    await expect.poll(() => page.getByTestId('run-stopped').count()).toBe(2);
    // The call that started the child was stopped with it, not failed; the child is named as the person knows it.
    const card = page.locator('[data-testid="tool-call"][data-tool="helper"]');
    await expect.poll(() => card.getByTestId('tool-call-state').innerText()).toBe('Stopped');
    expect(await card.getByTestId('tool-call-summary').innerText()).toBe(
      'Hand “add a task to buy milk” to Task helper',
    );
    expect(await card.getByTestId('tool-call-error').count()).toBe(0);
    // What the child waited for was turned down by Deputy as it stopped, not rejected by the person. Its row
    // closes once the window has read that the child ended: opened before, the click would close it.
    await expect.poll(() => child.locator('summary').first().innerText()).toMatch(/^Task helper\s*stopped/);
    await child.locator('summary').first().click();
    const waited = child.locator('[data-testid="tool-call"][data-tool="add_task"]');
    expect(await waited.getByTestId('tool-call-state').innerText()).toBe('Cancelled');
    expect(await waited.getByTestId('tool-call-note').innerText()).toBe(
      'Stopped with the run that started it, so Deputy did not do it.',
    );
    // Said once, by the call's card: the approval inside it keeps the quiet look of a cancelled one.
    expect(await waited.getByTestId('approval-card').getAttribute('data-status')).toBe('cancelled');
    expect(await waited.getByTestId('approval-status').count()).toBe(0);
    await expect.poll(() => child.locator('summary').first().innerText()).toMatch(/^Task helper\s*stopped/);
    expect(await axeViolations(page)).toEqual([]);
    // The same once the conversation is read back from the host.
    await page.reload();
    await page.getByTestId('thread-item').first().click();
    await expect.poll(() => card.getByTestId('tool-call-state').innerText()).toBe('Stopped');
    await expect.poll(() => child.locator('summary').first().innerText()).toMatch(/^Task helper\s*stopped/);
  });

  it('approving a child’s action by keyboard keeps the focus on its row once the child is done', async () => {
    gemini.script(
      callReply('helper', { task: 'add a task to buy bread' }),
      callReply('add_task', { description: 'Buy bread', confidence: 0.95, intent: 'add task' }),
      callReply('complete_task', { result: { note: 'Added Buy bread.' } }),
      textReply('The helper added “Buy bread”.'),
    );
    const page = await openPage();
    await send(page, 'Have the helper add a task to buy bread');
    const child = page.locator('[data-testid="child-run"][data-role="helper"]');
    await child.getByTestId('approval-approve').focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await assistantMessages(page).allInnerTexts()).join('\n'))
      .toContain('The helper added “Buy bread”.');
    await expect.poll(() => child.locator('summary').first().innerText()).toContain('done');
    // The row closed with the card inside it: the keyboard is on the row, not back at the page's start.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');
  });

  it('shows the words an agent from the picker streamed before its conversation was open', async () => {
    // The first words come at once, while agents.run answers and the conversation is read; the turn then waits.
    gemini.script({ kind: 'stall', chunks: [{ text: 'Looking through your open tasks first. ' }] });
    const page = await newPage();
    // A slow host: its answers to agents.run and thread.get come late, its run events at once.
    await page.routeWebSocket(/./, (socket) => {
      const server = socket.connectToServer();
      const late = new Set<string>();
      socket.onMessage((message) => {
        const frame = JSON.parse(String(message)) as { id: string; channel?: string };
        if (frame.channel === 'agents.run' || frame.channel === 'thread.get') late.add(frame.id);
        server.send(message);
      });
      server.onMessage((message) => {
        const frame = JSON.parse(String(message)) as { kind: string; id: string };
        if (frame.kind === 'reply' && late.has(frame.id)) setTimeout(() => socket.send(message), 500);
        else socket.send(message);
      });
    });
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    await startAgent(page, 'helper', 'Count my tasks');

    await expect
      .poll(() => page.getByTestId('timeline').innerText())
      .toContain('Looking through your open tasks first.');
    expect(await page.getByTestId('timeline').innerText()).toContain('Do this: Count my tasks');
    await page.getByTestId('composer-stop').click();
    await expect.poll(() => page.getByTestId('composer-stop').count()).toBe(0);
  });

  it('in a window as short as the desktop app’s (720 × 480 px), the picker keeps Close in view and scrolls its list under it', async () => {
    const page = await openPage();
    for (const height of [480, 600]) {
      await page.setViewportSize({ width: 720, height });
      await page.getByTestId('composer-agents').click();
      await page.getByTestId('pick-lead').waitFor();
      expect(`${height} px: ${await pinnedButtonView(page, 'dialog.agent-picker', 'Close')}`).toBe(
        `${height} px: in view`,
      );
      // By keyboard, each agent the focus reaches is scrolled into view above Close, not under it.
      expect(await coveredByTab(page, 10)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.locator('dialog.agent-picker').waitFor({ state: 'hidden' });
    }
  });

  it('@name in the composer opens that agent’s form', async () => {
    const page = await openPage();
    await send(page, '@helper');
    await page.getByTestId('agent-form').waitFor();
    expect(await page.getByTestId('agent-input-task').isVisible()).toBe(true);
  });

  it('Settings → Agents lists the agents, a file that did not load with its line, and turns one off', async () => {
    const page = await openPage();
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-tab-agents').click();
    const panel = page.getByTestId('agents-panel');
    await panel.getByTestId('agent-researcher').waitFor();
    expect(await panel.getByTestId('agents-folder').innerText()).toBe('agents');
    // A tool the file names that Deputy does not have is a warning on its card, in words; the agent still loads.
    expect(await panel.getByTestId('agent-sloppy').getByTestId('agent-unknown-tools').innerText()).toBe(
      'Deputy has no tool named “list_taskz”, so this agent works without it. Check the spelling in ' +
        'agents/sloppy.yaml; a tool of an extension is added once the extension is connected.',
    );
    expect(await panel.getByTestId('agent-helper').getByTestId('agent-unknown-tools').count()).toBe(0);
    // An agent among the lead's tools is named as the person knows it, not by its internal name.
    expect(await panel.getByTestId('agent-lead').locator('.agent-card__meta').innerText()).toBe(
      'It can: ask Task helper, look at your tasks',
    );
    // A built-in agent's description reads the same to you and to the model, and its steps read as words.
    const scheduler = panel.getByTestId('agent-meeting_scheduler');
    expect(await scheduler.innerText()).toContain('creates the event once it is approved.');
    expect(await scheduler.locator('.agent-card__meta').innerText()).toBe(
      'It can: look up people and events, search your memories, look for free times, look at your calendar, ' +
        'add an event to your calendar · Steps: Find the people → Check when they are free → Propose times → ' +
        'Wait for your approval',
    );
    // A file saved in the folder while the panel is open shows up in it, and so does one that does not load.
    writeFileSync(
      join(dataDir, 'agents', 'late_one.yaml'),
      stringify(agentDefinition({ name: 'late_one', tools: [] })),
    );
    writeFileSync(join(dataDir, 'agents', 'late_broken.yaml'), 'name: late_broken\n');
    await panel.getByTestId('agent-late_one').waitFor();
    await expect
      .poll(() => panel.getByTestId('agent-load-errors').innerText())
      .toContain('agents/late_broken.yaml:1 The description is missing');
    // A file with several mistakes lists each, at its line, not only the first.
    writeFileSync(
      join(dataDir, 'agents', 'late_several.yaml'),
      stringify({
        ...agentDefinition({
          name: 'late_several',
          tools: [],
          modelConfig: { temp: 'hot' },
          runConfig: { max_turns: 0 },
        }),
        description: undefined,
      }),
    );
    await expect
      .poll(async () =>
        (await panel.getByTestId('agent-load-errors').locator('li').allInnerTexts()).filter((line) =>
          line.startsWith('agents/late_several.yaml'),
        ),
      )
      .toEqual([
        'agents/late_several.yaml:1 The description is missing: add a line `description: …`.',
        expect.stringMatching(
          /^agents\/late_several\.yaml:\d+ `modelConfig.temp` should be a number, not text\.$/,
        ),
        expect.stringMatching(/^agents\/late_several\.yaml:\d+ `runConfig.max_turns` must be at least 1\.$/),
      ]);
    // A file of the person's that gives a built-in's name is not used, and both it and the built-in say so.
    writeFileSync(
      join(dataDir, 'agents', 'researcher-copy.yaml'),
      stringify(agentDefinition({ name: 'researcher', tools: [] })),
    );
    await expect
      .poll(() => panel.getByTestId('agent-load-errors').innerText())
      .toContain(
        'agents/researcher-copy.yaml:1 The name “researcher” is already used by the built-in agent in built-in/researcher.yaml, so this file is not used: give its agent another name.',
      );
    expect(await panel.getByTestId('agent-researcher').getByTestId('agent-same-name').innerText()).toBe(
      `agents/researcher-copy.yaml also names an agent “researcher”; that file is not used, since the name is this built-in agent's.`,
    );
    await panel.getByTestId('agent-import').setInputFiles({
      name: 'broken.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from('name: broken\ndescription: [\n'),
    });
    await expect.poll(() => panel.getByRole('alert').innerText()).toMatch(/line \d+/);
    // The box follows the host's answer, not the click: it changes once Deputy has turned the agent off.
    await panel.getByTestId('agent-helper').getByRole('checkbox').click();
    await expect.poll(() => panel.getByRole('status').innerText()).toBe('Task helper is off.');
    expect(await axeViolations(page)).toEqual([]);
    expect(await panel.getByTestId('agent-helper').getByRole('checkbox').isChecked()).toBe(false);
    await panel.getByTestId('agent-helper').getByRole('checkbox').click();
    await expect.poll(() => panel.getByRole('status').innerText()).toBe('Task helper is on.');
    // The keyboard goes round inside Settings: Tab from its last control, Close, comes back to the Agents tab,
    // and Shift+Tab from there goes to Close; neither falls to the page behind the panel.
    await page.getByTestId('settings-close').focus();
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('settings-tab-agents');
    await page.keyboard.press('Shift+Tab');
    expect(await focusedTestId(page)).toBe('settings-close');
  });

  it('an agent asked for by @name in the quick prompt shows there, and reads the same in the workspace after', async () => {
    gemini.script(
      callReply('helper', { task: 'look at the open tasks' }),
      callReply('list_tasks', {}),
      callReply('complete_task', { result: { note: 'Nothing is open.' } }),
      callReply('complete_task', { result: { note: 'The helper found nothing open.' } }),
    );
    // The agent's blocks: its helper's row, the query the form made, and the lead's answer.
    const showsTheRun = async (page: Page) => {
      await page.locator('[data-testid="child-run"][data-role="helper"]').waitFor();
      await expect
        .poll(async () => (await assistantMessages(page).allInnerTexts()).join('\n'))
        .toContain('Note: The helper found nothing open.');
      expect(await page.getByTestId('timeline').innerText()).toContain('Do this: Check my tasks');
      // Read apart from the conversation, after its run ended: they may come after its last words.
      await expect.poll(() => page.getByTestId('artifact').count()).toBe(2);
    };
    const page = await newPage();
    await page.goto(`${host.url}/#/quick&token=${host.token}`);
    await composer(page).waitFor();
    await send(page, '@lead');
    await page.getByTestId('agent-input-task').fill('Check my tasks');
    await page.getByTestId('agent-run').click();
    await showsTheRun(page);
    expect(await axeViolations(page)).toEqual([]);
    // The workspace opens on the conversation the quick prompt had, drawn whole: its rows were there before its
    // list was, and the list drew none of them (a lone "Regenerate the answer").
    await page.goto(`${host.url}/#/`);
    await page.getByTestId('thread-item').first().waitFor();
    await showsTheRun(page);
  });
});
