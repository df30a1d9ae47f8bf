import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerMcp, listenLocally, textTool } from '../support/mcp-kit';
import { axeViolations } from './support/axe';
import { atEveryLook, escapeInPlace, focusedText, isDangerRed, openInPlace, usePages } from './support/pages';
import { startHost, type RunningHost } from './support/host';

const { newPage } = usePages();
/** A folder to save screenshots in, when set. */
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
    // Its words and its outline in the danger red of the theme shown, which axe checks for contrast.
    await atEveryLook(page, card, 'mcp-failed-label', async () => {
      expect(await isDangerRed(state, 'color')).toBe(true);
      expect(await isDangerRed(state, 'borderLeftColor')).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
    });
  });

  /** Whether `text` is nowhere the person or another program could read it: the page, the API, the log, the host's output. */
  async function isNowhere(page: Page, name: string, text: string): Promise<boolean> {
    const said = [
      await page.content(),
      await (await api('/api/mcp/servers')).text(),
      await (await api(`/api/mcp/servers/${name}/log`)).text(),
      host.output(),
    ];
    return said.every((words) => !words.includes(text.slice('Bearer '.length)));
  }

  it('replaces a refused token in place, by keyboard: its words point at it, Escape closes only the field, Save starts the server (0 axe)', async () => {
    await addServer('locked', WRONG_TOKEN);
    const page = await openExtensions();
    const card = page.getByTestId('mcp-server-locked');
    await card.getByText('Failed', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('mcp-failed-locked').innerText()).toBe(
      'Deputy tried to start it 3 times and has stopped trying. The server refused the secret Deputy sent: press Replace secret to give the right one, and Deputy starts it again.',
    );

    // The field opens in place, empty and hidden as it is typed; Escape closes it, not Settings, back on the button.
    const replace = card.getByRole('button', { name: 'Replace secret' });
    const field = card.getByLabel('New value of Authorization');
    await openInPlace(page, replace, field);
    expect(await field.inputValue()).toBe('');
    expect(await field.getAttribute('type')).toBe('password');
    await escapeInPlace(page, field, replace);

    // Nothing typed: said beside the field, which stays open.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await card
      .getByTestId('mcp-secret-form-locked')
      .getByRole('alert')
      .filter({ hasText: 'Type the new value, or press Cancel to keep the one in the vault.' })
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    if (SHOTS) await card.screenshot({ path: `${SHOTS}/mcp-replace-secret.png` });

    // The right token: saved in the vault, the server started with it, the keyboard back on the button.
    await field.fill(RIGHT_TOKEN);
    await page.keyboard.press('Enter');
    await card.getByText('Running', { exact: true }).waitFor();
    await expect.poll(() => focusedText(page)).toBe('Replace secret');
    // Its one tool, counted in words.
    await card.getByText('1 tool', { exact: true }).waitFor();
    expect(await page.getByTestId('mcp-secrets-locked').innerText()).toBe(
      'Secrets in the vault: Authorization ••••••••',
    );
    expect(await page.getByTestId('mcp-failed-locked').count()).toBe(0);
    await expect
      .poll(() => page.getByRole('status').allInnerTexts())
      .toContainEqual('Saved the new secret of locked in the vault.');
    expect(await isNowhere(page, 'locked', RIGHT_TOKEN)).toBe(true);
    expect(await isNowhere(page, 'locked', WRONG_TOKEN)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('adds the secret a server that was given none needs, named Authorization unless told otherwise', async () => {
    const response = await api('/api/mcp/servers/bare', {
      method: 'PUT',
      body: JSON.stringify({ config: { transport: 'http', url: mcp.url } }),
    });
    expect(response.status).toBe(200);
    const page = await openExtensions();
    const card = page.getByTestId('mcp-server-bare');
    await card.getByText('Failed', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('mcp-failed-bare').innerText()).toBe(
      'Deputy tried to start it 3 times and has stopped trying. The server refused Deputy, which sends it no secret: press Add secret to give it one, and Deputy starts it again.',
    );
    expect(await page.getByTestId('mcp-secrets-bare').innerText()).toBe('No secrets in the vault.');
    const name = card.getByLabel('Header');
    await openInPlace(page, card.getByRole('button', { name: 'Add secret' }), name);
    expect(await name.inputValue()).toBe('Authorization');
    await page.keyboard.press('Tab');
    await page.keyboard.type(RIGHT_TOKEN);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await card.getByText('Running', { exact: true }).waitFor();
    // The same button, now to replace what it added, keeps the keyboard.
    await expect.poll(() => focusedText(page)).toBe('Replace secret');
    expect(await page.getByTestId('mcp-secrets-bare').innerText()).toBe(
      'Secrets in the vault: Authorization ••••••••',
    );
    expect(await isNowhere(page, 'bare', RIGHT_TOKEN)).toBe(true);
    await atEveryLook(page, card, 'mcp-secret-added', async () => {
      expect(await axeViolations(page)).toEqual([]);
    });
  });
});
