import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { startHost, type RunningHost } from './support/host';
import { composer, openFromHeader, usePages } from './support/pages';

const SHOTS = process.env.DEPUTY_SHOTS;
const { newPage } = usePages();

/** A host started with side effects switched off (AGENT_SIDE_EFFECTS_ENABLED=false), as the person reads it. */
describe('side effects switched off at start-up', () => {
  let host: RunningHost;

  beforeAll(async () => {
    host = await startHost({ env: { AGENT_SIDE_EFFECTS_ENABLED: 'false' } });
  });

  afterAll(async () => {
    await host?.stop();
  });

  it('the banner and Settings → Permissions say what is off, why and what to do, not the variable (1280 and 420 px, light and dark, 0 axe)', async () => {
    const page = await newPage();
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    const banner = page.getByTestId('pause-banner');
    const said =
      'Deputy was started with side effects switched off: it reads and answers, but sends, changes and deletes nothing. To let it act, start Deputy again with side effects switched on.';
    await expect.poll(() => banner.innerText()).toBe(said);
    const looks = async (shot: string) => {
      for (const width of [1280, 420])
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.setViewportSize({ width, height: 800 });
          await page.emulateMedia({ colorScheme });
          expect(await axeViolations(page)).toEqual([]);
          if (SHOTS)
            await page.screenshot({ path: `${SHOTS}/side-effects-off-${shot}-${width}-${colorScheme}.png` });
        }
    };
    await looks('banner');
    await page.setViewportSize({ width: 1280, height: 800 });
    await openFromHeader(page, 'open-settings');
    await page.getByTestId('settings-tab-permissions').click();
    const note = page.getByTestId('side-effects-off');
    expect(await note.innerText()).toBe(said);
    expect(await page.locator('body').innerText()).not.toContain('AGENT_SIDE_EFFECTS_ENABLED');
    await looks('permissions');
  });
});
