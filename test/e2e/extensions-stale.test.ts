import { createServer, type Server } from 'node:http';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerView } from '../../shared/contract';
import { answerMcp, listenLocally, textTool } from '../support/mcp-kit';
import { apiOf } from './support/api';
import { axeViolations } from './support/axe';
import { focusedText, usePages } from './support/pages';
import { startHost, type RunningHost } from './support/host';

const { newPage } = usePages();
/** A folder to save screenshots of a refused change in (at 1280, 720x480 and 420 px, light and dark), when set. */
const SHOTS = process.env.DEPUTY_SHOTS;
const REFUSED =
  'The MCP server “shared” was changed elsewhere (in another window or through the API) after these settings of it were read, so nothing was saved. Its card now shows its current settings: make your change again if you still want it.';

describe('Settings → Extensions: a card drawn before its server changed elsewhere', () => {
  let host: RunningHost;
  let mcp: { url: string; server: Server };
  let api: ReturnType<typeof apiOf>;

  beforeAll(async () => {
    [host, mcp] = await Promise.all([
      startHost(),
      listenLocally(
        createServer((request, response) => answerMcp(request, response, 'shared', textTool('hi', 'hi'))),
      ),
    ]);
    api = apiOf(host);
  });

  afterAll(async () => {
    await host?.stop();
    mcp?.server.close();
  });

  /** The server as the API shows it now. */
  async function stored(): Promise<McpServerView['config']> {
    const { servers } = (await (await api('/api/mcp/servers')).json()) as { servers: McpServerView[] };
    const server = servers.find((candidate) => candidate.name === 'shared');
    if (!server) throw new Error('no server "shared"');
    return server.config;
  }

  /** Changes the server through the API, as a script or another window would, while the card shows it as it was. */
  async function changeElsewhere(changes: Partial<McpServerView['config']>): Promise<void> {
    const body = JSON.stringify({ config: { ...(await stored()), ...changes } });
    expect((await api('/api/mcp/servers/shared', { method: 'PUT', body })).status).toBe(200);
  }

  async function openExtensions(): Promise<Page> {
    const page = await newPage();
    await page.clock.install();
    await page.goto(`${host.url}/#token=${host.token}`);
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-tab-extensions').click();
    await page.getByTestId('mcp-server-shared').getByText('Running', { exact: true }).waitFor();
    return page;
  }

  /**
   * Changes the server through the API (`changes`), then does `work` on its card as it was drawn before: the page's
   * clock stands still meanwhile, so the card is not read again on its own (it is every 2 s).
   */
  async function onStaleCard(
    page: Page,
    changes: Partial<McpServerView['config']>,
    work: () => Promise<void>,
  ): Promise<void> {
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    // A reading begun before the clock stopped has answered.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await changeElsewhere(changes);
    try {
      await work();
    } finally {
      await page.clock.resume();
    }
  }

  it('Turn off and Edit address save nothing over the change, say so, and show the server as it is now (0 axe)', async () => {
    const body = JSON.stringify({ config: { transport: 'http', url: mcp.url } });
    expect((await api('/api/mcp/servers/shared', { method: 'PUT', body })).status).toBe(200);
    const page = await openExtensions();
    const card = page.getByTestId('mcp-server-shared');
    const autonomy = card.getByLabel('Its tools that act');
    expect(await autonomy.inputValue()).toBe('confirm');

    // Turn off, on a card that does not know its tools now run on their own.
    await onStaleCard(page, { autonomy: 'auto' }, () =>
      card.getByRole('button', { name: 'Turn off' }).click(),
    );
    await card.getByRole('alert').filter({ hasText: REFUSED }).waitFor();
    expect(await stored()).toMatchObject({ autonomy: 'auto', enabled: true });
    // The card was read again: it shows the change, and it is still on.
    expect(await autonomy.inputValue()).toBe('auto');
    expect(await card.getByRole('button', { name: 'Turn off' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    // Edit address, on a card that does not know its tools now notify: said beside the field.
    await card.getByRole('button', { name: 'Edit address' }).click();
    await card.getByLabel('Address of shared').fill(`${mcp.url}?moved`);
    await onStaleCard(page, { autonomy: 'notify' }, () => card.getByRole('button', { name: 'Save' }).click());
    await card.getByTestId('mcp-edit-form-shared').getByRole('alert').filter({ hasText: REFUSED }).waitFor();
    expect(await stored()).toMatchObject({ autonomy: 'notify', url: mcp.url });
    expect(await autonomy.inputValue()).toBe('notify');

    // Made again on the card as it is now, the change is saved, and the other one stays.
    await card.getByRole('button', { name: 'Save' }).click();
    await card.getByTestId('mcp-command-shared').waitFor();
    await card.getByRole('button', { name: 'Turn off' }).click();
    await card.getByText('Turned off', { exact: true }).waitFor();
    expect(await stored()).toMatchObject({ autonomy: 'notify', url: `${mcp.url}?moved`, enabled: false });
  });

  it('says why Turn off or a choice of autonomy was refused on the card, beside the control, which keeps the keyboard (0 axe)', async () => {
    const body = JSON.stringify({ config: { transport: 'http', url: mcp.url } });
    expect((await api('/api/mcp/servers/shared', { method: 'PUT', body })).status).toBe(200);
    const page = await openExtensions();
    const card = page.getByTestId('mcp-server-shared');
    const turnOff = card.getByRole('button', { name: 'Turn off' });
    const autonomy = card.getByLabel('Its tools that act');
    const tool = card.getByLabel('Autonomy for shared__hi');

    // A short window: the panel's own error line, below the import, is out of view. Turn off, by the keyboard.
    await page.setViewportSize({ width: 720, height: 480 });
    await turnOff.focus();
    await onStaleCard(page, { autonomy: 'auto' }, () => page.keyboard.press('Enter'));
    await expectSaidBeside(page, turnOff, card, 'auto');
    expect(await focusedText(page)).toBe('Turn off');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/mcp-refused-turn-off-720x480.png` });

    // Narrow: the server's autonomy, by the keyboard. The select, disabled while its change was made, has it back.
    await page.setViewportSize({ width: 420, height: 800 });
    await autonomy.focus();
    await onStaleCard(page, { autonomy: 'review' }, () => page.keyboard.press('ArrowUp'));
    await expectSaidBeside(page, autonomy, card, 'review');
    expect(await autonomy.evaluate((select) => select === document.activeElement)).toBe(true);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/mcp-refused-autonomy-420.png` });
    // The words about Turn off went with the settings they were said about.
    expect(await turnOff.getAttribute('aria-describedby')).toBeNull();
    expect(await card.getByRole('alert').count()).toBe(1);

    // A tool's own setting, by the mouse.
    await card.getByText('1 tool', { exact: true }).click();
    await onStaleCard(page, { callTimeoutSeconds: 20 }, async () => {
      await tool.selectOption('auto');
    });
    await expectSaidBeside(page, tool, card, 'review');
    expect(await tool.inputValue()).toBe('server');
    expect(await axeViolations(page)).toEqual([]);

    await expectInViewEverywhere(page, tool, card.getByRole('alert'), 'mcp-refused');

    // Made again by the keyboard, the change is saved, and the select keeps the keyboard as it did not before.
    await autonomy.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await stored()).autonomy).toBe('notify');
    await expect.poll(() => autonomy.evaluate((select) => select === document.activeElement)).toBe(true);
    expect(await card.getByRole('alert').count()).toBe(0);
  });

  it('says in the panel why a change on a card whose server was removed meanwhile was not made, and puts the keyboard there', async () => {
    const body = JSON.stringify({ config: { transport: 'http', url: mcp.url } });
    expect((await api('/api/mcp/servers/shared', { method: 'PUT', body })).status).toBe(200);
    const page = await openExtensions();
    await page.setViewportSize({ width: 720, height: 480 });
    const card = page.getByTestId('mcp-server-shared');
    await card.getByRole('button', { name: 'Turn off' }).focus();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await api('/api/mcp/servers/shared', { method: 'DELETE' })).status).toBe(200);
    try {
      await page.keyboard.press('Enter');
      await card.waitFor({ state: 'detached' });
      const said = page.locator('#mcp-panel-error');
      await expect.poll(() => said.evaluate((element) => element === document.activeElement)).toBe(true);
      expect(await said.innerText()).toBe(
        'The MCP server “shared” was removed elsewhere (in another window or through the API) after these settings of it were read, so nothing was saved.',
      );
      expect(await isInView(said)).toBe(true);
    } finally {
      await page.clock.resume();
    }
  });

  it('says why Log was refused where it was asked; Remove of a server removed elsewhere is done, and says so', async () => {
    const body = JSON.stringify({ config: { transport: 'http', url: mcp.url } });
    expect((await api('/api/mcp/servers/shared', { method: 'PUT', body })).status).toBe(200);
    const page = await openExtensions();
    await page.setViewportSize({ width: 720, height: 480 });
    const card = page.getByTestId('mcp-server-shared');
    const log = card.getByRole('button', { name: 'Log', exact: true });
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Removed elsewhere: the card, not read again while the clock stands still, still shows it, and the host
    // refuses to read its log or remove it.
    expect((await api('/api/mcp/servers/shared', { method: 'DELETE' })).status).toBe(200);
    try {
      await log.focus();
      await page.keyboard.press('Enter');
      await expectRefusedBeside(page, log, card.getByRole('alert'));
      expect(await focusedText(page)).toBe('Log');
      await expectInViewEverywhere(page, log, card.getByRole('alert'), 'mcp-refused-log');

      await card.getByRole('button', { name: 'Remove', exact: true }).click();
      const confirm = card.getByTestId('mcp-remove-confirm-shared');
      await confirm.getByRole('button', { name: 'Remove shared' }).waitFor();
      await page.keyboard.press('Enter');
      // What the person asked for is so already: the card goes, and the panel says it was removed before.
      await page.getByRole('status').filter({ hasText: 'shared was already removed.' }).waitFor();
      await expect.poll(() => card.count()).toBe(0);
      expect(await page.locator('#mcp-panel-error').count()).toBe(0);
      // The keyboard goes where it goes after any removal: the add form's first field.
      await expect
        .poll(() =>
          page.evaluate(() => document.activeElement?.closest('[data-testid="mcp-add-form"]') !== null),
        )
        .toBe(true);
    } finally {
      await page.clock.resume();
    }
  });
});

/**
 * That `alert` stays in view with `control` focused at 1280x720, 720x480 and 420 px, light and dark, with a
 * screenshot of each (`name`) when DEPUTY_SHOTS is set.
 */
async function expectInViewEverywhere(
  page: Page,
  control: Locator,
  alert: Locator,
  name: string,
): Promise<void> {
  for (const [width, height] of [
    [1280, 720],
    [720, 480],
    [420, 800],
  ] as const)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await control.focus();
      expect(await isInView(alert)).toBe(true);
      if (!SHOTS) continue;
      // A window made smaller may leave the words below the dialog's fold: the picture is of them.
      await alert.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/${name}-${width}x${height}-${colorScheme}.png` });
    }
}

/** That the host's "no such server" for what `control` asked is said in `alert`, in view, as its description, not in the panel's line. */
async function expectRefusedBeside(page: Page, control: Locator, alert: Locator): Promise<void> {
  const words = 'There is no MCP server named "shared".';
  await alert.filter({ hasText: words }).waitFor();
  // In view: inside the window, and inside the Settings dialog's scrolling part (which the window does not show).
  expect(await isInView(alert)).toBe(true);
  expect(
    await alert.evaluate((node) => {
      const box = node.getBoundingClientRect();
      let scroller = node.parentElement;
      while (scroller && getComputedStyle(scroller).overflowY === 'visible')
        scroller = scroller.parentElement;
      const frame = (scroller ?? document.documentElement).getBoundingClientRect();
      return box.top >= frame.top && box.bottom <= frame.bottom;
    }),
  ).toBe(true);
  const describedBy = await control.getAttribute('aria-describedby');
  expect(await page.evaluate((id) => document.getElementById(id ?? '')?.textContent, describedBy)).toBe(
    words,
  );
  expect(await page.locator('#mcp-panel-error').count()).toBe(0);
}

/**
 * That a change asked for from `control` was refused, said beside it on the card, in view, as its description, and
 * not in the panel's own error line; the card shows the server's autonomy as it is now (`autonomy`).
 */
async function expectSaidBeside(
  page: Page,
  control: Locator,
  card: Locator,
  autonomy: string,
): Promise<void> {
  const alert = card.getByRole('alert').filter({ hasText: REFUSED });
  await alert.waitFor();
  expect(await isInView(alert)).toBe(true);
  const describedBy = await control.getAttribute('aria-describedby');
  expect(await page.evaluate((id) => document.getElementById(id ?? '')?.textContent, describedBy)).toBe(
    REFUSED,
  );
  expect(await page.locator('#mcp-panel-error').count()).toBe(0);
  expect(await card.getByLabel('Its tools that act').inputValue()).toBe(autonomy);
}

/** Whether all of `element` is inside the window (and so inside the Settings dialog, which scrolls within it). */
const isInView = (element: Locator) =>
  element.evaluate((node) => {
    const box = node.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
  });
