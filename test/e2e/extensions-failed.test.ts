import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerMcp, listenLocally, textTool } from '../support/mcp-kit';
import { axeViolations } from './support/axe';
import { isDangerRed, usePages } from './support/pages';
import { startHost, type RunningHost } from './support/host';

const { newPage } = usePages();
/** A folder to save screenshots in (at 1280 and 420 px, light and dark), when set. */
const SHOTS = process.env.DEPUTY_SHOTS;
const RIGHT_TOKEN = 'Bearer e2e-right-token-7c41d9a2b8f3';
const WRONG_TOKEN = 'Bearer e2e-wrong-token-0a93e6f15c27';

/** An MCP server over HTTP that answers only a request with the right token, and 401 to any other. */
async function tokenServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.headers.authorization !== RIGHT_TOKEN) {
      response.writeHead(401).end('who are you?');
      return;
    }
    answerMcp(request, response, 'locked', textTool('open', 'open'));
  });
  return listenLocally(server);
}

describe('Settings → Extensions: a server that is left Failed', () => {
  let host: RunningHost;
  let mcp: { url: string; server: Server };

  beforeAll(async () => {
    [host, mcp] = await Promise.all([startHost(), tokenServer()]);
  });

  afterAll(async () => {
    await host?.stop();
    mcp?.server.close();
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${host.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
    });

  /** Adds `name` at the token server through the API, with `token` as its Authorization header, in the vault. */
  async function addServer(name: string, token: string): Promise<void> {
    const response = await api(`/api/mcp/servers/${name}`, {
      method: 'PUT',
      body: JSON.stringify({
        config: { transport: 'http', url: mcp.url, secretHeaders: ['Authorization'] },
        secrets: { headers: { Authorization: token } },
      }),
    });
    expect(response.status).toBe(200);
  }

  async function openExtensions(): Promise<Page> {
    const page = await newPage();
    await page.goto(`${host.url}/#token=${host.token}`);
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-tab-extensions').click();
    return page;
  }

  it('says Failed in red, as an error, not in the grey of the other states (1280 and 420 px, light and dark, 0 axe)', async () => {
    await addServer('refusing', WRONG_TOKEN);
    const page = await openExtensions();
    const card = page.getByTestId('mcp-server-refusing');
    const state = card.getByText('Failed', { exact: true });
    await state.waitFor({ timeout: 15_000 });
    for (const width of [1280, 420])
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme });
        await card.scrollIntoViewIfNeeded();
        // Its words and its outline in the danger red of the theme shown, which axe checks for contrast.
        expect(await isDangerRed(state, 'color')).toBe(true);
        expect(await isDangerRed(state, 'borderLeftColor')).toBe(true);
        expect(await axeViolations(page)).toEqual([]);
        if (SHOTS) {
          await page.screenshot({ path: `${SHOTS}/mcp-failed-label-${width}-${colorScheme}.png` });
          await card.screenshot({ path: `${SHOTS}/mcp-failed-label-card-${width}-${colorScheme}.png` });
        }
      }
  });
});
