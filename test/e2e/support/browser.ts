import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * Which Chromium to drive: DEPUTY_CHROMIUM if set, else the system's, else the one Playwright installed
 * (`npx playwright install chromium`). Playwright's own download is not assumed to exist.
 */
export function chromiumPath(): string {
  const fromEnv = process.env.DEPUTY_CHROMIUM;
  if (fromEnv) return fromEnv;
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  const bundled = chromium.executablePath();
  if (bundled && existsSync(bundled)) return bundled;
  throw new Error(
    'No Chromium found for the e2e tests: set DEPUTY_CHROMIUM, install chromium, or run "npx playwright install chromium".',
  );
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
