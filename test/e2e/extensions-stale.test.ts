import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerView } from '../../shared/contract';
import { answerMcp, listenLocally, textTool } from '../support/mcp-kit';
import { apiOf } from './support/api';
import { axeViolations } from './support/axe';
import { usePages } from './support/pages';
import { startHost, type RunningHost } from './support/host';

const { newPage } = usePages();
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
    await page.getByRole('alert').filter({ hasText: REFUSED }).waitFor();
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
});
