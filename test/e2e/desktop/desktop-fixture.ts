import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startFakeGemini } from '../../fakes/gemini/server';
import type { FakeGemini } from '../../fakes/gemini/types';
import { launchDeputy, type DeputyApp, type LaunchOptions } from '../../harness/launch';
import { launchBrowser } from '../support/browser';

export interface Desktop {
  gemini: FakeGemini;
  /** Starts the built app on a data folder (a fresh one unless given), with Gemini pointed at the fake. */
  launch(options?: Partial<Omit<LaunchOptions, 'browser'>>): Promise<DeputyApp>;
}

/** One Chromium and one fake Gemini for the file; every app started is quit after its test. */
export function useDesktop(): Desktop {
  let browser: Browser | undefined;
  let gemini: FakeGemini | undefined;
  const running: DeputyApp[] = [];
  const folders: string[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
    gemini = await startFakeGemini();
  });
  afterEach(async () => {
    const apps = running.splice(0);
    for (const app of apps) if (!app.hasQuit) await app.quit();
    // Whatever a test did, every window any app run created must have had the secure preferences.
    for (const app of apps)
      for (const window of app.runtime.created) assertSecure(window.options.webPreferences);
  });
  afterAll(async () => {
    await browser?.close();
    await gemini?.close();
    await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
  });
  return {
    get gemini() {
      if (!gemini) throw new Error('useDesktop(): not started yet');
      return gemini;
    },
    async launch(options = {}) {
      if (!browser || !gemini) throw new Error('useDesktop(): not started yet');
      const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'deputy-desktop-')));
      if (!options.dataDir) folders.push(dataDir);
      const app = await launchDeputy({
        ...options,
        browser,
        dataDir,
        env: { GEMINI_API_KEY: 'fake-key', DEPUTY_GEMINI_BASE_URL: gemini.url, ...options.env },
      });
      running.push(app);
      return app;
    },
  };
}

/** DESIGN's defaults for every window: the page gets window.deputy and nothing else. */
export const SECURE_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  webSecurity: true,
  webviewTag: false,
} as const;

export function assertSecure(preferences: Record<string, unknown> | undefined): void {
  const weak = Object.entries(SECURE_PREFERENCES).filter(([key, value]) => preferences?.[key] !== value);
  if (weak.length > 0 || typeof preferences?.preload !== 'string') {
    throw new Error(`a window was created without the secure webPreferences: ${JSON.stringify(preferences)}`);
  }
}

export const composerOf = (page: Page) => page.getByLabel('Message Deputy');
export const assistantText = (page: Page) =>
  page.locator('[data-testid="message"][data-role="assistant"]').last().innerText();

export async function type(page: Page, text: string): Promise<void> {
  await composerOf(page).fill(text);
  await composerOf(page).press('Enter');
}

/** Waits for the failure of a message sent with no Gemini key, and checks it says so and offers the way to add one. */
export async function noKeyFailure(page: Page): Promise<{ failure: Locator; openConnections: Locator }> {
  const failure = page.getByTestId('run-error');
  await failure.waitFor();
  expect(await failure.getAttribute('data-code')).toBe('model_not_configured');
  expect(await failure.innerText()).toContain(
    'Deputy needs a Gemini API key. Add one in Settings → Connections',
  );
  const openConnections = failure.getByTestId('run-error-open-connections');
  expect(await openConnections.innerText()).toBe('Open Settings → Connections');
  return { failure, openConnections };
}

/**
 * The same failure once a key is saved: it offers Retry, no longer points to Settings, and its words no longer ask
 * for a key that is there. Returns the Retry button.
 */
export async function retryOnceKeySaved(failure: Locator): Promise<Locator> {
  const retry = failure.getByTestId('run-error-retry');
  await retry.waitFor();
  expect(await failure.getByTestId('run-error-open-connections').count()).toBe(0);
  expect(await failure.getByRole('alert').innerText()).toBe(
    'Deputy had no Gemini API key then. One is saved now: Retry asks again.',
  );
  return retry;
}
