import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply, textReply } from '../fakes/gemini/script';
import type { FakeGemini } from '../fakes/gemini/types';
import { startHost, type RunningHost } from './support/host';
import { assistantMessages, composer, send, usePages } from './support/pages';
import { cuttableSocket } from './support/socket-cut';
import { watchText } from './support/text-history';

const { newPage } = usePages();

/** Words the fake streams one at a time, slowly enough that several of them are said while the socket is cut. */
const COUNTING = 'One two three four five six seven eight nine ten eleven twelve thirteen fourteen.';
const WORD_GAP_MS = 150;

const connectionStatus = (page: Page) => page.getByTestId('connection-status');
const footer = (page: Page) => page.getByTestId('run-usage');

describe('a run’s footer while the window reconnects', () => {
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

  it('keeps saying the tokens a run under way has used while its conversation is read again', async () => {
    // A first turn that reads the tasks (its tokens make the footer), then an answer said slowly.
    gemini.script(callReply('list_tasks', {}), textReply(COUNTING, { chunks: 14, gapMs: WORD_GAP_MS }));
    const page = await newPage();
    const socket = await cuttableSocket(page);
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    await send(page, 'Look at my tasks and count slowly');
    await assistantMessages(page).getByText('two', { exact: false }).waitFor();
    await footer(page).waitFor();
    const footers = await watchText(page, '[data-testid="run-usage"]');
    const before = await footer(page).innerText();
    expect(before).toMatch(/tokens in/);

    socket.cut();
    await expect.poll(() => connectionStatus(page).innerText()).toContain('Reconnecting…');
    await page.waitForTimeout(WORD_GAP_MS * 4);
    socket.restore();
    await expect.poll(() => connectionStatus(page).innerText()).toBe('');
    await page.getByTestId('composer-send').waitFor();

    // Never gone meanwhile: it said what it knew until the run's replay said more.
    const seen = await footers();
    expect(seen[0]).toBe(before);
    expect(seen, seen.join(' | ')).not.toContain(null);
    expect(await footer(page).count()).toBe(1);
  });
});
