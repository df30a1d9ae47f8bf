import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILESYSTEM_SERVER, MALFORMED_TOOLS_SERVER } from '../support/mcp-kit';
import { axeViolations } from './support/axe';
import {
  atEveryLook,
  escapeInPlace,
  focusedTestId,
  focusedText,
  openInPlace,
  usePages,
} from './support/pages';
import { startHost, type RunningHost } from './support/host';

const { newPage } = usePages();
/** A folder to save screenshots of the failed card in (at 1280 and 420 px, light and dark), when set. */
const SHOTS = process.env.DEPUTY_SHOTS;
const SECRET = 'e2e-mcp-secret-value-5d1f0c9a7e3b';

describe('Settings → Extensions in the browser', () => {
  let host: RunningHost;
  let folder: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'deputy-e2e-mcp-'));
    host = await startHost();
  });

  async function openExtensions() {
    const page = await newPage();
    await page.goto(`${host.url}/#token=${host.token}`);
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-tab-extensions').click();
    return page;
  }

  /** Adds a filesystem server over a new folder by the form (with `secretLines`, if any); its card once it runs. */
  async function addRunningServer(
    page: Awaited<ReturnType<typeof openExtensions>>,
    name: string,
    secretLines = '',
  ) {
    const served = join(folder, name);
    mkdirSync(served);
    const form = page.getByTestId('mcp-add-form');
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Command or URL').fill(`"${process.execPath}" "${FILESYSTEM_SERVER}" "${served}"`);
    await form.getByLabel(/^Secrets/).fill(secretLines);
    await form.getByRole('button', { name: 'Add server' }).click();
    const card = page.getByTestId(`mcp-server-${name}`);
    await card.getByText('Running').waitFor();
    return { card, served };
  }

  /** The process id of a running server, as the host reports it; null while it is not running. */
  async function serverPid(name: string): Promise<number | null> {
    const response = await fetch(`${host.url}/api/mcp/servers`, {
      headers: { authorization: `Bearer ${host.token}` },
    });
    const { servers } = (await response.json()) as { servers: { name: string; pid: number | null }[] };
    return servers.find((server) => server.name === name)?.pid ?? null;
  }

  afterAll(async () => {
    await host?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('imports a Claude Desktop config from the file picker: the server runs, its secret shows masked', async () => {
    const config = join(folder, 'claude_desktop_config.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          files: {
            command: process.execPath,
            args: [FILESYSTEM_SERVER, folder],
            env: { FILES_API_TOKEN: SECRET },
          },
        },
      }),
    );
    const page = await openExtensions();
    await page.getByLabel('A config file').setInputFiles(config);

    const card = page.getByTestId('mcp-server-files');
    await card.getByText('Running').waitFor();
    await expect
      .poll(() => page.getByRole('status').allInnerTexts())
      .toContainEqual('Imported 1 server; 1 secret went to the vault.');
    expect(await page.getByTestId('mcp-secrets-files').innerText()).toBe(
      'Secrets in the vault: FILES_API_TOKEN ••••••••',
    );
    await card.getByText(/\d+ tools/).click();
    await card.getByText('files__write_file').waitFor();
    expect(await page.content()).not.toContain(SECRET);

    await card.getByRole('button', { name: 'Log' }).click();
    await expect.poll(() => page.getByTestId('mcp-log').innerText()).toMatch(/running over stdio/);
    // The log, below the forms, takes the keyboard and so comes into view; Hide the log goes back to Log.
    await expect.poll(() => focusedTestId(page)).toBe('mcp-log');
    const isInWindow = await page
      .getByTestId('mcp-log')
      .evaluate((log) => log.getBoundingClientRect().top < window.innerHeight);
    expect(isInWindow).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByTestId('mcp-log').waitFor({ state: 'detached' });
    expect(await focusedText(page)).toBe('Log');
  });

  it('adds a server by keyboard with a quoted folder, refuses its name twice, and turns it off and on', async () => {
    const spaced = join(folder, 'My Documents');
    mkdirSync(spaced);
    const page = await openExtensions();
    // A new Deputy is Supervised: what is chosen here for a server's tools waits for that to change, and it says so.
    expect(await page.getByTestId('mcp-supervised-note').innerText()).toBe(
      'You are on Supervised (in Permissions): every action waits for your approval, whatever you choose here.',
    );
    const form = page.getByTestId('mcp-add-form');
    const add = async (name: string) => {
      await form.getByLabel('Name', { exact: true }).focus();
      await page.keyboard.type(name);
      await page.keyboard.press('Tab');
      await page.keyboard.type(`"${process.execPath}" "${FILESYSTEM_SERVER}" "${spaced}"`);
      await page.keyboard.press('Enter');
    };
    await add('docs');
    const card = page.getByTestId('mcp-server-docs');
    await card.getByText('Running').waitFor();
    // The card shows the command as it can be typed again: the folder with a space in it stays in its quotes.
    expect(await page.getByTestId('mcp-command-docs').innerText()).toBe(
      `${process.execPath} ${FILESYSTEM_SERVER} "${spaced}"`,
    );

    await add('docs');
    await form
      .getByRole('alert')
      .filter({
        hasText: 'There is already a server named docs. Choose another name, or remove that one first.',
      })
      .waitFor();

    await card.getByRole('button', { name: 'Turn off' }).focus();
    await page.keyboard.press('Enter');
    await card.getByText('Turned off').waitFor();
    expect(await card.getByRole('button', { name: 'Restart' }).count()).toBe(0);
    await expect
      .poll(() => page.getByRole('status').allInnerTexts())
      .toContainEqual('Turned docs off: its tools are not offered until you turn it on.');
    // The keyboard stayed on the button while it worked, now Turn on: Enter turns it back on, Restart restarts it.
    expect(await focusedText(page)).toBe('Turn on');
    await page.keyboard.press('Enter');
    await card.getByText('Running').waitFor();
    expect(await focusedText(page)).toBe('Turn off');
    const before = await serverPid('docs');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => serverPid('docs')).not.toBe(before);
    await card.getByText('Running').waitFor();
    expect(await focusedText(page)).toBe('Restart');
    await card.getByText(/\d+ tools/).click();
    await card.getByText('docs__write_file').waitFor();
  });

  it('keeps the keyboard on Add server while the server starts, and a press meanwhile adds nothing', async () => {
    const page = await openExtensions();
    const form = page.getByTestId('mcp-add-form');
    const add = form.getByRole('button', { name: 'Add server' });
    await form.getByLabel('Name', { exact: true }).fill('steady');
    await form.getByLabel('Command or URL').fill(`"${process.execPath}" "${FILESYSTEM_SERVER}" "${folder}"`);
    await add.focus();
    await page.keyboard.press('Enter');
    // Pressed again while it starts: the button says so and does nothing (no second "already a server" error).
    await form.getByRole('button', { name: 'Starting…' }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('mcp-server-steady').getByText('Running').waitFor();
    expect(await focusedText(page)).toBe('Add server');
    expect(await form.getByRole('alert').count()).toBe(0);
  });

  it('settles a server that cannot start as Failed, says why, tries again on Try again, and edits its command in place', async () => {
    const page = await openExtensions();
    const form = page.getByTestId('mcp-add-form');
    await form.getByLabel('Name', { exact: true }).fill('misspelt');
    await form.getByLabel('Command or URL').fill('npxx-not-installed -y some-server');
    await form.getByRole('button', { name: 'Add server' }).click();
    const card = page.getByTestId('mcp-server-misspelt');
    // Three starts, 1 s and 2 s apart, then no more: the card says Failed, why, and what the person can do.
    await card.getByText('Failed', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await card.getByRole('alert').innerText()).toBe(
      'The MCP server “misspelt” could not start. Deputy could not find the program “npxx-not-installed”. Check that it is installed, or give its full path.',
    );
    expect(await page.getByTestId('mcp-failed-misspelt').innerText()).toBe(
      'Deputy tried to start it 3 times and has stopped trying. Edit its command, or fix what it needs and press Try again.',
    );
    // The API says so too.
    const response = await fetch(`${host.url}/api/mcp/servers`, {
      headers: { authorization: `Bearer ${host.token}` },
    });
    const { servers } = (await response.json()) as { servers: { name: string; state: string }[] };
    expect(servers.find((server) => server.name === 'misspelt')?.state).toBe('failed');
    await atEveryLook(page, card, 'mcp-failed');
    expect(await axeViolations(page)).toEqual([]);

    // Try again starts it afresh; the keyboard stays on that button while it says Restart, and when it fails again.
    const again = card.locator('[data-action="Restart"]');
    expect(await again.innerText()).toBe('Try again');
    await again.focus();
    await page.keyboard.press('Enter');
    await card.getByText('Restarting', { exact: true }).waitFor();
    await card.getByText('Failed', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await again.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await focusedText(page)).toBe('Try again');

    // Edit command: the field opens in place with the command as it stands; Escape closes it, back on Edit.
    const edit = card.getByRole('button', { name: 'Edit command' });
    const field = card.getByLabel('Command that starts misspelt');
    await openInPlace(page, edit, field);
    expect(await field.inputValue()).toBe('npxx-not-installed -y some-server');
    await escapeInPlace(page, field, edit);

    // A URL is not a command: said beside the field, which stays open.
    await page.keyboard.press('Enter');
    await field.fill('https://example.com/mcp');
    await page.keyboard.press('Enter');
    await card
      .getByTestId('mcp-edit-form-misspelt')
      .getByRole('alert')
      .filter({ hasText: 'This server is started by a command: give its command line.' })
      .waitFor();
    if (SHOTS) await card.screenshot({ path: `${SHOTS}/mcp-edit-command.png` });
    expect(await axeViolations(page)).toEqual([]);

    // The right command: saved and started at once, the keyboard back on Edit command.
    const served = join(folder, 'misspelt');
    mkdirSync(served);
    await field.fill(`"${process.execPath}" "${FILESYSTEM_SERVER}" "${served}"`);
    await page.keyboard.press('Enter');
    await card.getByText('Running', { exact: true }).waitFor();
    await expect.poll(() => edit.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await page.getByTestId('mcp-command-misspelt').innerText()).toBe(
      `${process.execPath} ${FILESYSTEM_SERVER} ${served}`,
    );
    expect(await card.getByRole('alert').count()).toBe(0);
    expect(await page.getByTestId('mcp-failed-misspelt').count()).toBe(0);
    await expect
      .poll(() => page.getByRole('status').allInnerTexts())
      .toContainEqual('Saved the new command of misspelt.');
  });

  it('shows a server that stops while Settings is open, and why, without closing and opening it again', async () => {
    const page = await openExtensions();
    const { card, served: shared } = await addRunningServer(page, 'shared');

    // The folder goes (an unplugged drive), and the server with it: it cannot start again.
    const pid = await serverPid('shared');
    rmSync(shared, { recursive: true });
    process.kill(pid ?? 0, 'SIGKILL');
    await card.getByText('Restarting').waitFor({ timeout: 10_000 });
    await card
      .getByRole('alert')
      .filter({ hasText: 'None of the specified directories are accessible' })
      .waitFor();
  });

  it('asks before Remove, says the secrets go too, and keeps the server on Escape or Keep it', async () => {
    const page = await openExtensions();
    const { card } = await addRunningServer(page, 'kept', `KEPT_TOKEN=${SECRET}`);

    // Enter on Remove only asks; the question names the secrets that would go, and its first answer is Remove.
    const remove = card.getByRole('button', { name: 'Remove', exact: true });
    await remove.focus();
    await page.keyboard.press('Enter');
    const question = card.getByRole('group', { name: 'Remove kept?' });
    expect(await question.getByRole('paragraph').innerText()).toBe(
      'Remove kept for good? Its tools are no longer offered, and approvals waiting for them are turned down. Its secrets (KEPT_TOKEN) are deleted from the vault; to add it again you will need them.',
    );
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Remove kept');

    // Escape keeps it (and Settings open), with the keyboard back on Remove.
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    expect(await page.getByTestId('extensions-panel').isVisible()).toBe(true);
    await expect.poll(() => remove.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await question.getByRole('button', { name: 'Keep it' }).click();
    await question.waitFor({ state: 'detached' });
    await expect.poll(() => remove.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await card.getByText('Running').count()).toBe(1);

    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await card.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByRole('status').allInnerTexts())
      .toContainEqual('Removed kept; its secrets left the vault.');
    await expect
      .poll(() =>
        page.evaluate(() => document.activeElement?.closest('[data-testid="mcp-add-form"]') !== null),
      )
      .toBe(true);
  });

  it('says on the card which of a server’s tools are not offered, and why', async () => {
    const page = await openExtensions();
    const form = page.getByTestId('mcp-add-form');
    await form.getByLabel('Name', { exact: true }).fill('raw');
    await form.getByLabel('Command or URL').fill(`"${process.execPath}" "${MALFORMED_TOOLS_SERVER}"`);
    await form.getByRole('button', { name: 'Add server' }).click();
    await page.getByTestId('mcp-server-raw').getByText('Running').waitFor();
    const leftOut = page.getByTestId('mcp-left-out-raw');
    await leftOut.getByText('Some of its tools are not offered').click();
    expect(await leftOut.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(/^tool “null-schema” left out: its listing is malformed/),
      expect.stringMatching(/^tool “bad-properties” left out: its listing is malformed/),
      expect.stringMatching(/^tool #3 \(no name\) left out: its listing is malformed/),
    ]);
  });
});
