import { describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { edgeContrast } from './support/contrast';
import { useHostedGemini } from './support/hosted';
import { composer, openFromHeader, usePages } from './support/pages';
import { wordsUnderArrows } from './support/tabs';

const { newPage } = usePages();

/** Settings' row of tabs when the window changes size. */
describe('Settings tabs', () => {
  const hosted = useHostedGemini();

  it('while the settings are being read, its tabs name no section that is not there yet (axe 0)', async () => {
    const page = await newPage();
    // A slow host: its answer to settings.get is held until the test has looked.
    const held: (() => void)[] = [];
    await page.routeWebSocket(/./, (socket) => {
      const server = socket.connectToServer();
      const late = new Set<string>();
      socket.onMessage((message) => {
        const frame = JSON.parse(String(message)) as { id: string; channel?: string };
        if (frame.channel === 'settings.get') late.add(frame.id);
        server.send(message);
      });
      server.onMessage((message) => {
        const frame = JSON.parse(String(message)) as { kind: string; id: string };
        if (frame.kind === 'reply' && late.has(frame.id)) held.push(() => socket.send(message));
        else socket.send(message);
      });
    });
    const host = hosted.host();
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    await openFromHeader(page, 'open-settings');
    await page.getByRole('status').filter({ hasText: 'Loading settings…' }).waitFor();
    await expect.poll(() => held.length).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    for (const send of held.splice(0)) send();
    await page.getByRole('tabpanel').first().waitFor({ state: 'attached' });
    expect(await axeViolations(page)).toEqual([]);
  });

  it('keeps the chosen tab whole, clear of the fade and its arrow, when the window narrows', async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    const host = hosted.host();
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    await openFromHeader(page, 'open-settings');
    const row = page.getByTestId('settings-tabs');
    /** Whether the chosen tab lies inside the row and clear of a faded edge (where an arrow is drawn). */
    const chosenIsWhole = () =>
      row.evaluate((list) => {
        const tab = list.querySelector('[aria-selected="true"]');
        if (!tab) return false;
        const fade = parseFloat(getComputedStyle(list).scrollPaddingInlineStart);
        const outer = list.getBoundingClientRect();
        const start = outer.left + (list.hasAttribute('data-more-before') ? fade : 0);
        const end = outer.right - (list.hasAttribute('data-more-after') ? fade : 0);
        const box = tab.getBoundingClientRect();
        return box.left >= start - 1 && box.right <= end + 1;
      });
    for (const testId of ['settings-tab-extensions', 'settings-tab-data']) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByTestId(testId).click();
      for (const width of [720, 420]) {
        await page.setViewportSize({ width, height: 800 });
        await expect.poll(chosenIsWhole).toBe(true);
        // Nor does an arrow cover another tab's words: the one cut off at the row's end fades out before it.
        expect(await wordsUnderArrows(row)).toEqual([]);
      }
    }
  });
  it('General, Permissions and Connections speak plainly: actions and steps, allowed recipients, where the key comes from', async () => {
    const page = await newPage();
    const host = hosted.host();
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    await openFromHeader(page, 'open-settings');
    const panel = page.getByRole('tabpanel');
    const wordsOf = async (tab: string, ready: string) => {
      await page.getByTestId(`settings-tab-${tab}`).click();
      await panel.getByText(ready, { exact: true }).first().waitFor();
      return panel.innerText();
    };
    const general = await wordsOf('general', 'How actions run');
    expect(general).toContain('Each step takes a single action');
    expect(general).toContain('Actions at once');
    expect(general).toContain('gets one last step to wrap up');
    const permissions = await wordsOf('permissions', 'Allowed recipients');
    expect(permissions).toContain('Acts alone for your allowed recipients and your rules');
    await wordsOf('connections', 'Gemini');
    // This host has its key from its environment: the card says so in words, with the name to look for.
    await panel.getByText('Using the key set before Deputy started (GEMINI_API_KEY)').waitFor();
    for (const words of [general, permissions, await panel.innerText()]) {
      expect(words).not.toMatch(/tool calls?|\bturns?\b|allow-list|“thinking” events|\bconfigured\b/i);
      // A variable's name only in brackets, after the words that say what it is.
      expect(words.replace(/\(GEMINI_API_KEY\)/g, '')).not.toContain('GEMINI_API_KEY');
    }
  });
  it('buttons and fields keep an edge that stands out from what is around them (3:1), light and dark, 1280 and 420 px', async () => {
    const page = await newPage();
    const host = hosted.host();
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    const edges = async (controls: Record<string, ReturnType<typeof page.getByTestId>>) => {
      const found: Record<string, number> = {};
      for (const width of [1280, 420])
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.setViewportSize({ width, height: 800 });
          await page.emulateMedia({ colorScheme });
          for (const [name, control] of Object.entries(controls)) {
            const ratio = await edgeContrast(control);
            if (ratio < 3) found[`${name} at ${width} px, ${colorScheme}`] = Math.round(ratio * 100) / 100;
          }
        }
      return found;
    };
    expect(await edges({ 'the message box': composer(page) })).toEqual({});
    await openFromHeader(page, 'open-settings');
    await page.getByTestId('settings-tab-permissions').click();
    const allowlist = page.getByTestId('allowlist');
    await allowlist.waitFor();
    expect(
      await edges({
        'Add (a button)': page.getByTestId('allowlist-add'),
        'the address field': page.getByTestId('allowlist-input'),
        'a choice per action (a select)': page.getByTestId('permissions-form').locator('select').first(),
      }),
    ).toEqual({});
    await page.getByTestId('settings-tab-general').click();
    await page.getByTestId('routing-policy').waitFor();
    expect(
      await edges({
        'Model choice (a select)': page.getByTestId('routing-policy'),
        'Refresh the list (a quiet button)': page.getByRole('button', { name: 'Refresh the list' }),
        Close: page.getByRole('button', { name: 'Close' }).last(),
      }),
    ).toEqual({});
  });
});
