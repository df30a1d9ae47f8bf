import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/gemini/server';
import { callReply, statusReply, textReply } from '../fakes/gemini/script';
import type { FakeGemini } from '../fakes/gemini/types';
import type { Settings } from '../../shared/contract';
import { apiOf, putSettings } from './support/api';
import { axeViolations, type AxeViolation } from './support/axe';
import {
  addTaskCard,
  assistantMessages,
  composer,
  focusedId,
  focusedTestId,
  focusedText,
  openFromHeader,
  send,
  usePages,
} from './support/pages';
import { startHost, type RunningHost } from './support/host';
import { wordsUnderArrows } from './support/tabs';

const { newPage } = usePages();
const SHOTS = process.env.DEPUTY_SHOTS;

const SCHEMES = ['light', 'dark'] as const;
const WIDTHS = [1280, 420] as const;
const SETTINGS_TABS = ['general', 'permissions', 'connections', 'extensions', 'memory', 'usage', 'data'];
const MARKDOWN = '| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n> quoted\n\n```\ncode\n```';

const describeViolations = (violations: AxeViolation[]) =>
  violations.map(
    (violation) => `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
  );

describe('layout at 420 and 1280 px, and axe on every screen and state', () => {
  let gemini: FakeGemini;
  let host: RunningHost;
  let bareHost: RunningHost;

  beforeAll(async () => {
    gemini = await startFakeGemini();
    host = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key' });
    bareHost = await startHost();
  });

  afterAll(async () => {
    await host?.stop();
    await bareHost?.stop();
    await gemini?.close();
  });

  async function openPage(
    width: number,
    scheme: 'light' | 'dark',
    hash = '',
    on: RunningHost = host,
  ): Promise<Page> {
    const page = await newPage();
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`${on.url}/#${hash ? `${hash}&` : ''}token=${on.token}`);
    return page;
  }

  it('turns the conversation list into a drawer at 420 px', async () => {
    gemini.script(textReply('Hello.'));
    const page = await openPage(420, 'light');
    await composer(page).waitFor();
    expect(await page.getByTestId('thread-list').isVisible()).toBe(false);
    await send(page, 'Hi');
    await assistantMessages(page).getByText('Hello.').waitFor();

    await page.getByTestId('drawer-toggle').click();
    await page.getByTestId('thread-item').first().waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('thread-list').isVisible()).toBe(false);
    expect(await focusedId(page)).toBe('drawer-toggle');

    // In the drawer, Escape in a rename or a delete question closes that, not the drawer; focus stays in the row.
    await page.getByTestId('drawer-toggle').click();
    await page.getByTestId('thread-rename').first().click();
    await page.getByTestId('thread-rename-input').press('Escape');
    await expect.poll(() => focusedTestId(page)).toBe('thread-rename');
    expect(await page.getByTestId('thread-list').isVisible()).toBe(true);
    await page.getByTestId('thread-delete').first().click();
    await page.keyboard.press('Escape');
    await expect.poll(() => focusedTestId(page)).toBe('thread-delete');
    expect(await page.getByTestId('thread-list').isVisible()).toBe(true);
    // The open conversation deleted, a new one opens and the drawer closes: the keyboard goes on in the message box.
    await page.getByTestId('thread-delete').first().click();
    await page.getByTestId('thread-delete-confirm').click();
    await expect.poll(() => focusedTestId(page)).toBe('composer-input');
    await expect.poll(() => page.getByTestId('thread-list').isVisible()).toBe(false);

    await page.getByTestId('drawer-toggle').click();
    await page.getByTestId('new-conversation').click();
    await expect.poll(() => page.getByTestId('thread-list').isVisible()).toBe(false);
    await page.getByTestId('empty-state').waitFor();
  });

  it('the drawer at 420 px by keyboard: focus goes into it, stays in it, and on to the message box after a choice', async () => {
    gemini.script(textReply('Hello.'), textReply('Hello again.'));
    const page = await openPage(420, 'light');
    await composer(page).waitFor();
    await send(page, 'First question');
    await assistantMessages(page).getByText('Hello.').waitFor();
    await page.getByTestId('drawer-toggle').focus();
    await page.keyboard.press('Enter');
    // Opened, the keyboard is in the drawer (not on its button, which the drawer covers).
    await expect.poll(() => focusedTestId(page)).toBe('new-conversation');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('thread-list').isVisible()).toBe(false);
    await expect.poll(() => focusedTestId(page)).toBe('composer-input');
    await page.keyboard.type('Second question');
    await page.keyboard.press('Enter');
    await assistantMessages(page).getByText('Hello again.').waitFor();

    await page.getByTestId('drawer-toggle').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page)).toBe('new-conversation');
    // Tab goes round inside the drawer, both ways, never to the chat drawn under it.
    await page.keyboard.press('Shift+Tab');
    expect(await focusedText(page)).toBe('Delete');
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('new-conversation');
    const order = [];
    for (let stop = 0; stop < 8; stop += 1) {
      await page.keyboard.press('Tab');
      order.push(await focusedTestId(page));
    }
    const row = ['thread-item', 'thread-rename', 'thread-delete'];
    expect(order).toEqual(['thread-search', ...row, ...row, 'new-conversation']);
    // A conversation chosen (the older one, second in the list): the drawer closes and the keyboard goes on in
    // its message box.
    for (let stop = 0; stop < 5; stop += 1) await page.keyboard.press('Tab');
    expect(await focusedText(page)).toContain('First question');
    await page.keyboard.press('Enter');
    await assistantMessages(page).getByText('Hello.').waitFor();
    await expect.poll(() => page.getByTestId('thread-list').isVisible()).toBe(false);
    await expect.poll(() => focusedTestId(page)).toBe('composer-input');

    // Widened with the drawer open, the list is the sidebar again, and Tab goes on from it into the chat.
    await page.getByTestId('drawer-toggle').click();
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => page.locator('.app--drawer-open').count()).toBe(0);
    await page.getByTestId('thread-delete').last().focus();
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).not.toBe('new-conversation');
    // In a wide window too, New conversation leaves the keyboard in the message box.
    await page.getByTestId('new-conversation').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page)).toBe('composer-input');
  });

  it('the drawer slides only when opened or closed: narrowing the window hides the list at once, and reduced motion never slides it', async () => {
    const page = await openPage(1280, 'light');
    await composer(page).waitFor();
    const sidebarAnimations = () =>
      page.evaluate(() => document.querySelector('.app__sidebar')?.getAnimations().length ?? -1);
    expect(await page.locator('.app__sidebar').isVisible()).toBe(true);

    // Narrowed, the list is hidden in the same frame: it does not slide away over the chat.
    await page.setViewportSize({ width: 420, height: 800 });
    expect(await sidebarAnimations()).toBe(0);
    expect(await page.locator('.app__sidebar').isVisible()).toBe(false);

    // Opened and closed by the person, it slides.
    await page.getByTestId('drawer-toggle').click();
    expect(await sidebarAnimations()).toBeGreaterThan(0);
    await expect.poll(sidebarAnimations).toBe(0);
    await page.keyboard.press('Escape');
    expect(await sidebarAnimations()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.app__sidebar').isVisible()).toBe(false);

    // With reduced motion asked for, it opens and closes without sliding.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.getByTestId('drawer-toggle').click();
    expect(await sidebarAnimations()).toBe(0);
    expect(await page.locator('.app__sidebar').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await sidebarAnimations()).toBe(0);
    expect(await page.locator('.app__sidebar').isVisible()).toBe(false);
  });

  it('skips by keyboard to the message box past every conversation: the first tab stop, seen only while focused (1280 and 420 px, light and dark, 0 axe)', async () => {
    const api = apiOf(host);
    let threadId = '';
    for (const topic of ['rent', 'the dentist', 'the car', 'groceries', 'the report', 'holidays']) {
      gemini.script(textReply(`Noted: ${topic}.`));
      const response = await api('/api/agent/run', {
        method: 'POST',
        body: JSON.stringify({ prompt: `Remind me about ${topic}` }),
      });
      threadId = ((await response.json()) as { threadId: string }).threadId;
    }
    for (const width of WIDTHS)
      for (const scheme of SCHEMES) {
        const page = await openPage(width, scheme, `/thread/${threadId}`);
        await assistantMessages(page).getByText('Noted: holidays.').waitFor();
        await expect.poll(() => page.getByTestId('thread-item').count()).toBeGreaterThanOrEqual(6);
        const link = page.getByTestId('skip-to-composer');
        /** How far down the window the link draws, its box shadow's offset and blur included. */
        const lowestDrawn = () =>
          link.evaluate((element) => {
            const bottom = element.getBoundingClientRect().bottom;
            const shadow = getComputedStyle(element).boxShadow;
            if (shadow === 'none') return bottom;
            // "rgba(0, 0, 0, 0.25) 0px 2px 12px 0px": x, y, blur, spread.
            const [, y = 0, blur = 0, spread = 0] = (shadow.match(/-?[\d.]+px/g) ?? []).map(parseFloat);
            return bottom + Math.max(0, y + blur + spread);
          });
        const isInView = async () => {
          const box = await link.boundingBox();
          return (
            box !== null &&
            box.y >= 0 &&
            box.y + box.height <= 800 &&
            box.x >= 0 &&
            box.x + box.width <= width
          );
        };
        expect(await isInView()).toBe(false);
        // Nor does anything of it show at the window's top edge: its shadow's blur included.
        expect(await lowestDrawn()).toBeLessThanOrEqual(0);
        // The first tab stop: back from the header's first button, and nothing of the window before it.
        await expect.poll(() => focusedTestId(page)).toBe('composer-input');
        await page.getByTestId(width === 420 ? 'drawer-toggle' : 'open-approvals').focus();
        await page.keyboard.press('Shift+Tab');
        expect(await focusedTestId(page)).toBe('skip-to-composer');
        await page.keyboard.press('Shift+Tab');
        expect(await focusedTestId(page)).toBe('BODY');
        await page.keyboard.press('Tab');
        expect(await focusedTestId(page)).toBe('skip-to-composer');
        expect(await focusedText(page)).toBe('Skip to the message box');
        await expect.poll(isInView).toBe(true);
        expect(describeViolations(await axeViolations(page))).toEqual([]);
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/skip-link-${width}-${scheme}.png` });
        const address = page.url();
        await page.keyboard.press('Enter');
        await expect.poll(() => focusedTestId(page)).toBe('composer-input');
        // The open conversation stays: the link moves the keyboard, it does not change the window's address.
        expect(page.url()).toBe(address);
        expect(await isInView()).toBe(false);
        expect(await lowestDrawn()).toBeLessThanOrEqual(0);
      }
    // Windows with no message box have no such link.
    for (const hash of ['/audit', '/approval/none-such']) {
      const page = await openPage(1280, 'light', hash);
      await page.locator('main, [role="alert"], h1').first().waitFor();
      expect(await page.getByTestId('skip-to-composer').count()).toBe(0);
    }
  });

  it("keeps the header to one row with the app's name at 420 px, the rest under a keyboard-reachable menu", async () => {
    const page = await openPage(420, 'light');
    await composer(page).waitFor();
    const header = page.locator('.app__header');
    const title = page.getByRole('heading', { name: 'Deputy', level: 1 });
    expect(await title.isVisible()).toBe(true);
    const approvals = await page.getByTestId('open-approvals').boundingBox();
    const more = await page.getByTestId('header-menu-button').boundingBox();
    const titleBox = await title.boundingBox();
    const headerBox = await header.boundingBox();
    // One row: the name, Approvals and More share a line, and the header is no taller than one button and its padding.
    expect(approvals && more && titleBox && headerBox).toBeTruthy();
    if (!approvals || !more || !titleBox || !headerBox) return;
    expect(Math.abs(approvals.y - more.y)).toBeLessThan(2);
    expect(titleBox.y).toBeLessThan(approvals.y + approvals.height);
    expect(headerBox.height).toBeLessThan(approvals.height * 1.8);
    expect(more.x + more.width).toBeLessThanOrEqual(420);
    expect(await page.getByTestId('open-settings').isVisible()).toBe(false);

    // By keyboard: Enter on More opens the menu, Tab walks into it, Escape closes it and gives focus back to More.
    await page.getByTestId('header-menu-button').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('open-tasks').waitFor();
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Tasks');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('open-tasks').isVisible()).toBe(false);
    expect(await focusedText(page)).toBe('More');

    // Tab past its last item closes it too, as a click outside would.
    await page.keyboard.press('Enter');
    await page.getByTestId('open-tasks').waitFor();
    for (const _ of ['Tasks', 'Audit trail', 'Settings', 'out']) await page.keyboard.press('Tab');
    await expect.poll(() => page.getByTestId('open-tasks').isVisible()).toBe(false);
    await page.getByTestId('header-menu-button').focus();

    // A choice closes the menu; the dialog it opened gives focus back to More when it closes.
    await page.keyboard.press('Enter');
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-close').click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Settings' }).isVisible()).toBe(false);
    expect(await page.getByTestId('open-settings').isVisible()).toBe(false);
    expect(await focusedText(page)).toBe('More');

    // The message box takes the window's width, its buttons under it.
    const box = await composer(page).boundingBox();
    expect(box?.width).toBeGreaterThan(380);

    // Widened with the menu open, the menu closes and its items are back in the header.
    await page.getByTestId('header-menu-button').click();
    await page.getByTestId('open-tasks').waitFor();
    await page.setViewportSize({ width: 1000, height: 800 });
    await expect
      .poll(() => page.evaluate(() => document.getElementById('header-menu')?.matches(':popover-open')))
      .toBe(false);
    const tasks = await page.getByTestId('open-tasks').boundingBox();
    expect(tasks && headerBox && tasks.y < headerBox.y + headerBox.height).toBe(true);
  });

  it('the message box says its whole placeholder at every width, down to the desktop app’s narrowest (720 px) with the conversation list beside it, and in the quick prompt', async () => {
    /** Whether the box's words, as long as its placeholder, fit in it with nothing cut, and its buttons in the window. */
    const isWhole = (page: Page) =>
      page.evaluate(() => {
        const box = document.getElementById('composer-input');
        if (!(box instanceof HTMLTextAreaElement)) return 'no message box';
        const typed = box.value;
        box.value = box.placeholder;
        const isCut = box.scrollHeight > box.clientHeight;
        box.value = typed;
        const form = box.closest('form')?.getBoundingClientRect();
        const outside = [...(box.form?.querySelectorAll('button') ?? [])].filter(
          (button) => form && button.getBoundingClientRect().right > form.right,
        );
        return isCut
          ? `placeholder cut at ${box.clientWidth} px`
          : outside.length > 0
            ? 'buttons outside'
            : 'whole';
      });
    const page = await openPage(720, 'light');
    await composer(page).waitFor();
    for (const width of [420, 560, 720, 760, 800, 880, 1000, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      expect(`${width} px: ${await isWhole(page)}`).toBe(`${width} px: whole`);
    }
    // Still beside the box where the column has room for both.
    await page.setViewportSize({ width: 1000, height: 800 });
    const [box, send] = await Promise.all([
      composer(page).boundingBox(),
      page.getByTestId('composer-send').boundingBox(),
    ]);
    expect(box && send && send.x > box.x + box.width).toBe(true);
    // The quick prompt's window (560 px) and a narrow browser tab.
    const quick = await openPage(560, 'light', '/quick');
    await composer(quick).waitFor();
    for (const width of [560, 420]) {
      await quick.setViewportSize({ width, height: 440 });
      expect(`quick ${width} px: ${await isWhole(quick)}`).toBe(`quick ${width} px: whole`);
    }
  });

  it('shows every model name and price in the price table whole at 420 px', async () => {
    const page = await openPage(420, 'light');
    await openFromHeader(page, 'open-settings');
    await page.getByTestId('settings-tab-usage').click();
    const inputs = page.locator('.price-table tbody input');
    await inputs.first().waitFor();
    const cut = await inputs.evaluateAll((all) =>
      (all as HTMLInputElement[])
        .filter((input) => input.scrollWidth > input.clientWidth)
        .map((input) => input.value),
    );
    expect(await inputs.count()).toBeGreaterThan(6);
    expect(cut).toEqual([]);
  });

  it('keeps Settings one size on every tab, inside the window, at 420 and 1280 px', async () => {
    for (const width of WIDTHS) {
      const page = await openPage(width, 'light');
      await openFromHeader(page, 'open-settings');
      const dialog = page.getByRole('dialog', { name: 'Settings' });
      await page.getByTestId('settings-close').waitFor();
      const sizes = new Set<string>();
      for (const tab of SETTINGS_TABS) {
        await page.getByTestId(`settings-tab-${tab}`).click();
        await page.waitForTimeout(100);
        const box = await dialog.boundingBox();
        expect(box).not.toBeNull();
        if (!box) continue;
        sizes.add(`${Math.round(box.width)}x${Math.round(box.height)}`);
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width + 0.5);
        expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true);
      }
      expect([...sizes]).toHaveLength(1);
    }
  });

  it("keeps Settings' tabs to one row at 420 px that scrolls, follows the arrow keys, and shows the chosen tab", async () => {
    for (const scheme of SCHEMES) {
      const page = await openPage(420, scheme);
      await openFromHeader(page, 'open-settings');
      const tablist = page.getByRole('tablist', { name: 'Settings sections' });
      const general = page.getByTestId('settings-tab-general');
      await general.waitFor();
      const rowHeight = (await general.boundingBox())?.height ?? 0;
      const listBox = await tablist.boundingBox();
      // One row: no taller than one tab and its border, where it used to wrap to three.
      expect(listBox?.height ?? Infinity).toBeLessThan(rowHeight * 1.5);
      // …and not squeezed below its tabs, which would cut them off.
      expect(listBox?.height ?? 0).toBeGreaterThanOrEqual(rowHeight);
      expect(await tablist.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);

      // The ARIA tabs pattern: arrows move and choose, End and Home go to the last and first.
      const isInView = () =>
        page.evaluate(() => {
          const list = document.querySelector('[role="tablist"][aria-label="Settings sections"]');
          const selected = list?.querySelector('[aria-selected="true"]');
          if (!list || !selected) return false;
          const outer = list.getBoundingClientRect();
          const inner = selected.getBoundingClientRect();
          return inner.left >= outer.left - 1 && inner.right <= outer.right + 1;
        });
      await general.focus();
      await page.keyboard.press('ArrowLeft');
      const last = page.getByRole('tab').last();
      await expect.poll(() => last.getAttribute('aria-selected')).toBe('true');
      expect(await last.evaluate((element) => element === document.activeElement)).toBe(true);
      await expect.poll(isInView).toBe(true);
      await page.keyboard.press('Home');
      await expect.poll(() => general.getAttribute('aria-selected')).toBe('true');
      await expect.poll(isInView).toBe(true);
      await page.keyboard.press('End');
      await expect.poll(() => last.getAttribute('aria-selected')).toBe('true');
      await expect.poll(isInView).toBe(true);
      expect(describeViolations(await axeViolations(page))).toEqual([]);
    }
  });

  it("fades the scrolling tab row's edge only where more tabs lie that way, never over the chosen tab", async () => {
    for (const scheme of SCHEMES) {
      const page = await openPage(420, scheme);
      await openFromHeader(page, 'open-settings');
      const general = page.getByTestId('settings-tab-general');
      await general.waitFor();
      // Which edges fade (the row's mask), and whether the chosen tab lies wholly outside the faded parts.
      const look = () =>
        page.getByTestId('settings-tabs').evaluate((list) => {
          const mask = getComputedStyle(list).maskImage;
          const before = list.hasAttribute('data-more-before');
          const after = list.hasAttribute('data-more-after');
          const fade = parseFloat(getComputedStyle(list).scrollPaddingInlineStart);
          const outer = list.getBoundingClientRect();
          const chosen = list.querySelector('[aria-selected="true"]')?.getBoundingClientRect();
          const isClear =
            !!chosen &&
            (!before || chosen.left >= outer.left + fade - 1) &&
            (!after || chosen.right <= outer.right - fade + 1);
          return { before, after, isMasked: mask !== 'none', isClear };
        });
      // At the start: more to the right only, and that edge fades.
      await expect.poll(look).toEqual({ before: false, after: true, isMasked: true, isClear: true });
      // Arrowing along the row, the chosen tab is scrolled clear of the fade, and both edges fade midway.
      const sides = new Set<string>();
      await general.focus();
      const tabs = page.getByRole('tab');
      for (let step = 1; step < (await tabs.count()); step += 1) {
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => tabs.nth(step).getAttribute('aria-selected')).toBe('true');
        // The row scrolls to the chosen tab after it is chosen, and its edges follow the scroll: wait for it.
        await expect.poll(async () => (await look()).isClear).toBe(true);
        const seen = await look();
        expect(seen.isMasked).toBe(seen.before || seen.after);
        sides.add(`${seen.before}/${seen.after}`);
      }
      expect(sides).toContain('true/true');
      // At the end: more to the left only.
      await page.keyboard.press('End');
      await expect.poll(look).toEqual({ before: true, after: false, isMasked: true, isClear: true });
      expect(describeViolations(await axeViolations(page))).toEqual([]);
    }
    // Wide enough for every tab, nothing fades.
    const wide = await openPage(1280, 'light');
    await openFromHeader(wide, 'open-settings');
    await wide.getByTestId('settings-tab-general').waitFor();
    const row = wide.getByTestId('settings-tabs');
    expect(await row.evaluate((list) => getComputedStyle(list).maskImage)).toBe('none');
    expect(await row.getAttribute('data-more-after')).toBeNull();
  });

  it("lets the pointer reach every Settings tab at 720 x 480 and 420 px: an arrow at the row's cut edge scrolls to them", async () => {
    for (const [width, height] of [
      [720, 480],
      [420, 800],
    ] as const) {
      for (const scheme of SCHEMES) {
        const page = await openPage(width, scheme);
        await page.setViewportSize({ width, height });
        // Instant scrolls, so each press's end is there to measure at once.
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await openFromHeader(page, 'open-settings');
        await page.getByTestId('settings-tab-general').waitFor();
        const row = page.getByTestId('settings-tabs');
        /** The tabs seen whole: inside the row, clear of a faded edge, and not under an arrow. */
        const seenTabs = () =>
          row.evaluate((list) => {
            const fade = parseFloat(getComputedStyle(list).scrollPaddingInlineStart);
            const outer = list.getBoundingClientRect();
            const start = outer.left + (list.hasAttribute('data-more-before') ? fade : 0);
            const end = outer.right - (list.hasAttribute('data-more-after') ? fade : 0);
            return [...list.querySelectorAll('[role="tab"]')].flatMap((tab) => {
              const box = tab.getBoundingClientRect();
              const isInside = box.left >= start - 1 && box.right <= end + 1;
              const drawn = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
              return isInside && drawn !== null && tab.contains(drawn)
                ? [tab.getAttribute('data-testid')]
                : [];
            });
          });
        /** The row says which edges have more as it now lies (it hears its scroll a moment after). */
        const hasSettled = () =>
          row.evaluate((list) => {
            const before = list.scrollLeft > 1;
            const after = list.scrollLeft + list.clientWidth < list.scrollWidth - 1;
            return (
              list.hasAttribute('data-more-before') === before &&
              list.hasAttribute('data-more-after') === after
            );
          });
        await expect.poll(hasSettled).toBe(true);
        // An arrow takes its own room: it never covers the words of a tab, however far the row is scrolled.
        expect(await wordsUnderArrows(row)).toEqual([]);
        const seen = new Set(await seenTabs());
        // Arrows are for the pointer: seen and pressed where they are drawn, out of the keyboard's way.
        for (const [arrow, edge] of [
          ['settings-tabs-more', 'data-more-after'],
          ['settings-tabs-back', 'data-more-before'],
        ] as const) {
          for (let press = 0; (await row.getAttribute(edge)) !== null; press += 1) {
            expect(press).toBeLessThan(8);
            const button = page.getByTestId(arrow);
            expect(await button.count()).toBe(1);
            expect(await button.getAttribute('tabindex')).toBe('-1');
            const box = await button.boundingBox();
            expect(box).not.toBeNull();
            if (!box) break;
            await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
            // Pressed, it leaves the keyboard where it was.
            expect(await focusedTestId(page)).not.toBe(arrow);
            await expect.poll(hasSettled).toBe(true);
            expect(await wordsUnderArrows(row)).toEqual([]);
            for (const tab of await seenTabs()) seen.add(tab);
          }
          expect(await page.getByTestId(arrow).count()).toBe(0);
        }
        const tabs = await row
          .getByRole('tab')
          .evaluateAll((found) => found.map((tab) => tab.getAttribute('data-testid')));
        expect([...seen].sort()).toEqual(tabs.sort());
        expect(await page.getByTestId('settings-tab-general').getAttribute('aria-selected')).toBe('true');
        expect(describeViolations(await axeViolations(page))).toEqual([]);
      }
    }
  });

  it('keeps the title, the tabs and Save in view on a long tab, and says when a tab holds unsaved changes', async () => {
    for (const width of WIDTHS) {
      const page = await openPage(width, 'dark');
      await openFromHeader(page, 'open-settings');
      await page.getByTestId('settings-close').waitFor();
      /** Seen, not scrolled away or under something: the element is what is drawn at its middle. */
      const isSeen = (testId: string) =>
        page.getByTestId(testId).evaluate((element) => {
          const box = element.getBoundingClientRect();
          const drawn = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return drawn !== null && element.contains(drawn);
        });
      const title = page.getByRole('dialog').getByRole('heading', { name: 'Settings' });
      const note = page.getByTestId('settings-unsaved-note');
      for (const [tab, save] of [
        ['general', 'settings-save'],
        ['permissions', 'permissions-save'],
        ['data', 'settings-close'],
      ] as const) {
        await page.getByTestId(`settings-tab-${tab}`).click();
        expect([tab, await isSeen(save)]).toEqual([tab, true]);
        // At the end of the tab: the title, the tabs and Save are where they were.
        await page
          .locator('[role="tabpanel"]:not([hidden]) :is(input, select, textarea, button)')
          .last()
          .scrollIntoViewIfNeeded();
        expect([
          tab,
          await title.isVisible(),
          await isSeen(`settings-tab-${tab}`),
          await isSeen(save),
        ]).toEqual([tab, true, true, true]);
        expect(await title.evaluate((element) => element.getBoundingClientRect().top)).toBeGreaterThanOrEqual(
          0,
        );
      }

      // A change is "unsaved" while the form differs from what is saved, on its tab and from the others.
      await page.getByTestId('settings-tab-general').click();
      expect(await note.innerText()).toBe('');
      const name = page.getByLabel('Your name');
      const saved = await name.inputValue();
      await name.fill(`${saved}Ana`);
      await expect.poll(() => note.innerText()).toBe('Unsaved changes');
      await page.getByTestId('settings-tab-data').click();
      expect(await note.innerText()).toBe('Unsaved changes in General');
      await page.getByTestId('settings-tab-general').click();
      await name.fill(saved);
      await expect.poll(() => note.innerText()).toBe('');
      // A save that is refused leaves the changes unsaved, and Close asks about them.
      await page.getByTestId('settings-tab-permissions').click();
      await page.getByTestId('rate-actionsPerMinute').fill('0');
      await page.getByTestId('permissions-save').click();
      await page.getByTestId('permissions-error').waitFor();
      expect(await isSeen('permissions-error')).toBe(true);
      expect(await note.innerText()).toBe('Unsaved changes');
      await page.getByTestId('settings-close').click();
      await page.getByTestId('settings-discard').click();
      await page.close();
    }
  });

  it('asks before Settings closes over unsaved changes, by Close or by Escape', async () => {
    const page = await openPage(1280, 'light');
    await page.getByTestId('open-settings').click();
    await page.getByLabel('Your name').fill('Ana');
    await page.getByTestId('settings-close').click();
    const ask = page.getByTestId('settings-unsaved');
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    expect(await page.getByLabel('Your name').inputValue()).toBe('Ana');
    await page.keyboard.press('Escape');
    await ask.waitFor();
    await page.getByTestId('settings-discard').click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Settings' }).isVisible()).toBe(false);

    await page.getByTestId('open-settings').click();
    await expect.poll(() => page.getByLabel('Your name').inputValue()).toBe('');
    await page.getByTestId('settings-close').click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Settings' }).isVisible()).toBe(false);
  });

  it('never closes Settings over unsaved changes however often Escape is pressed: Escape on the question goes back', async () => {
    const page = await openPage(1280, 'light');
    await page.getByTestId('open-settings').click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    const ask = page.getByTestId('settings-unsaved');
    const name = page.getByLabel('Your name');
    // Typed, then Escape again and again with no click between (the browser would let a second one close it).
    await name.click();
    await page.keyboard.type('Ana');
    for (let press = 1; press <= 5; press += 1) {
      await page.keyboard.press('Escape');
      await page.waitForTimeout(100);
      // Odd: the question; even: back in Settings, the keyboard where it was.
      expect([press, await dialog.isVisible(), await ask.count()]).toEqual([press, true, press % 2]);
      if (press % 2 === 1) expect(await focusedText(page)).toBe('Keep editing');
      else expect(await name.evaluate((input) => input === document.activeElement)).toBe(true);
    }
    expect(await name.inputValue()).toBe('Ana');
    // Changed without a key pressed (pasted, filled in): still asked.
    await page.getByTestId('settings-discard').click();
    await page.getByTestId('open-settings').click();
    await name.fill('Bea');
    await page.keyboard.press('Escape');
    await ask.waitFor();
    expect(await dialog.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await name.inputValue()).toBe('Bea');
    await page.getByTestId('settings-close').click();
    await page.getByTestId('settings-discard').click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
  });

  it('takes into the form what the host saved, and asks before closing over a rule or an address not added', async () => {
    const page = await openPage(1280, 'light');
    await page.getByTestId('open-settings').click();
    const note = page.getByTestId('settings-unsaved-note');
    // The host keeps an email in lower case: once it is saved, nothing reads as changed.
    const email = page.getByLabel('Your email');
    await email.fill('Ana@Example.com');
    await page.getByTestId('settings-save').click();
    await expect.poll(() => email.inputValue()).toBe('ana@example.com');
    expect(await note.innerText()).toBe('');
    await email.fill('');
    await page.getByTestId('settings-save').click();
    await expect.poll(() => note.innerText()).toBe('');

    const ask = page.getByTestId('settings-unsaved');
    await page.getByTestId('settings-tab-permissions').click();
    for (const draft of ['rule-pattern', 'allowlist-input']) {
      await page.getByTestId(draft).fill(draft === 'rule-pattern' ? '*@example.com' : 'sam@example.com');
      await page.getByTestId('settings-close').click();
      await ask.waitFor();
      await page.getByTestId('settings-discard').click();
      await expect.poll(() => page.getByRole('dialog', { name: 'Settings' }).isVisible()).toBe(false);
      await page.getByTestId('open-settings').click();
      await page.getByTestId('settings-tab-permissions').click();
    }
    await page.getByTestId('settings-close').click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Settings' }).isVisible()).toBe(false);
  });

  it('saves Permissions by Enter in a select, as in its other fields: the keyboard need not pass every rule to Save', async () => {
    const { trustLevel } = (await (await apiOf(host)('/api/settings')).json()) as Settings;
    await putSettings(host, { trustLevel: 'delegated' });
    const page = await openPage(1280, 'light');
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-tab-permissions').click();
    const note = page.getByTestId('settings-unsaved-note');
    const choice = page.getByTestId('autonomy-task.delete');
    const before = await choice.inputValue();
    const other = before === 'notify' ? 'confirm' : 'notify';
    await choice.selectOption(other);
    await expect.poll(() => note.innerText()).toBe('Unsaved changes');
    await choice.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('permissions-saved').waitFor({ timeout: 5_000 });
    expect(await note.innerText()).toBe('');
    // Saved where it counts, and the keyboard still on the choice it changed.
    const saved = (await (await apiOf(host)('/api/settings')).json()) as Settings;
    expect(saved.autonomy['task.delete']).toBe(other);
    expect(await focusedTestId(page)).toBe('autonomy-task.delete');
    await putSettings(host, {
      trustLevel,
      autonomy: { 'task.delete': before as Settings['autonomy']['task.delete'] },
    });
  });

  it('lines up the per-action choices where a label wraps, and keeps the trust radios round, at 420 px', async () => {
    const page = await openPage(420, 'light');
    await openFromHeader(page, 'open-settings');
    await page.getByTestId('settings-tab-permissions').click();
    const boxes = (selector: string) =>
      page.locator(selector).evaluateAll((elements) =>
        elements.map((element) => {
          const box = element.getBoundingClientRect();
          return `${Math.round(box.left)} ${Math.round(box.width)}x${Math.round(box.height)}`;
        }),
      );
    // The form is drawn once the settings are read.
    await page.locator('[data-testid^="autonomy-"]:is(select)').first().waitFor();
    const selects = await boxes('[data-testid^="autonomy-"]:is(select)');
    // "Create a calendar event" wraps at this width: its select starts where the others do, as wide.
    expect(selects.length).toBeGreaterThan(5);
    expect(new Set(selects)).toEqual(new Set([selects[0]]));
    const radios = await boxes('[data-testid^="trust-"]');
    expect(radios).toHaveLength(3);
    expect(new Set(radios)).toEqual(new Set([radios[0]]));
    const [, width, height] = /(\d+)x(\d+)/.exec(radios[0] ?? '') ?? [];
    expect(width).toBe(height);
  });

  it('turns off the per-action choices that Supervised overrides, and says why', async () => {
    const page = await openPage(1280, 'light');
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-tab-permissions').click();
    await page.getByTestId('trust-supervised').check();
    expect(await page.getByTestId('autonomy-task.create').isDisabled()).toBe(true);
    expect(await page.getByTestId('autonomy-overridden').innerText()).toContain(
      'Supervised asks before every action',
    );
    await page.getByTestId('trust-autonomous').check();
    expect(await page.getByTestId('autonomy-task.create').isEnabled()).toBe(true);

    // Rules are made and listed with the actions' names in words.
    await page.getByTestId('rule-tool').selectOption({ label: 'Send an email' });
    await page.getByTestId('rule-field').selectOption({ label: 'Every recipient' });
    await page.getByTestId('rule-pattern').fill('*@example.com');
    await page.getByTestId('rule-add').click();
    await expect
      .poll(() => page.getByTestId('rule').first().innerText())
      .toContain('Send an email when every recipient matches *@example.com');
    expect(await page.getByTestId('autonomy-overridden').count()).toBe(0);
    await page.getByTestId('settings-close').click();
    await page.getByTestId('settings-discard').click();
  });

  // One test per colour scheme and width, each over every screen and state.
  for (const scheme of SCHEMES) {
    for (const width of WIDTHS) {
      it(`finds no axe violations on any screen or state, ${scheme}, ${width} px`, async () => {
        const found: string[] = [];
        const check = async (page: Page, state: string) => {
          for (const line of describeViolations(await axeViolations(page))) found.push(`${state} → ${line}`);
        };
        const at = `${scheme} ${width}px`;
        const page = await openPage(width, scheme);
        await composer(page).waitFor();
        await check(page, `${at} empty chat`);

        await putSettings(host, { trustLevel: 'supervised' });
        gemini.script(callReply('add_task', { description: 'Buy milk' }), textReply(MARKDOWN));
        await send(page, 'Add a task to buy milk');
        await addTaskCard(page).getByTestId('approval-card').waitFor();
        await check(page, `${at} approval in its tool card`);
        await addTaskCard(page).getByTestId('approval-reject').click();
        await check(page, `${at} reject form`);
        await addTaskCard(page).getByRole('button', { name: 'Cancel' }).click();
        await send(page, 'Something else');
        await page.getByTestId('send-anyway').waitFor();
        await check(page, `${at} send anyway?`);
        await page.getByRole('button', { name: 'Keep the approval' }).click();
        await composer(page).fill('');
        await addTaskCard(page).getByTestId('approval-approve').click();
        await assistantMessages(page).locator('table').waitFor();
        await addTaskCard(page).getByText('Details').click();
        await check(page, `${at} markdown answer and tool card details`);

        gemini.script(statusReply(400, { message: 'bad request at 127.0.0.1' }));
        await send(page, 'Fail please');
        await page.getByTestId('run-error').waitFor();
        await page.getByTestId('run-error').getByText('Details').click();
        await check(page, `${at} error with details`);

        if (width === 420) {
          await page.getByTestId('drawer-toggle').click();
          await page.getByTestId('thread-item').first().waitFor();
          await check(page, `${at} drawer open`);
          await page.keyboard.press('Escape');
        }

        if (width === 420) {
          await page.getByTestId('header-menu-button').click();
          await page.getByTestId('header-menu').getByTestId('open-settings').waitFor();
          await check(page, `${at} header menu open`);
        }
        await page.getByTestId('open-settings').click();
        await page.getByTestId('settings-close').waitFor();
        for (const tab of SETTINGS_TABS) {
          await page.getByTestId(`settings-tab-${tab}`).click();
          await page.waitForTimeout(150);
          await check(page, `${at} Settings → ${tab}`);
        }
        await page.getByTestId('settings-close').click();

        if (width === 420) await page.getByTestId('drawer-toggle').click();
        await page.getByTestId('thread-search').fill('something');
        await page.getByTestId('search-results').waitFor({ state: 'attached' });
        await page.waitForTimeout(300);
        await check(page, `${at} conversation search`);
        await page.getByTestId('thread-search').fill('');
        if (width === 420) await page.keyboard.press('Escape');

        await openFromHeader(page, 'open-tasks');
        await page.getByTestId('tasks-panel').getByRole('tab', { name: /Open/ }).waitFor();
        await page.waitForTimeout(150);
        await check(page, `${at} tasks`);
        await page.getByTestId('tasks-close').click();

        await page.getByTestId('open-approvals').click();
        await page.waitForTimeout(150);
        await check(page, `${at} pending approvals`);
        await page.close();

        const audit = await openPage(width, scheme, '/audit');
        await audit.getByRole('heading', { level: 1 }).first().waitFor();
        await audit.waitForTimeout(300);
        await check(audit, `${at} audit viewer`);
        await audit.close();

        const quick = await openPage(width, scheme, '/quick');
        await composer(quick).waitFor();
        await check(quick, `${at} quick prompt`);
        await quick.close();

        const bare = await openPage(width, scheme, '', bareHost);
        await bare.getByTestId('gemini-key-hint').waitFor();
        await check(bare, `${at} no Gemini key`);
        await bare.close();

        const silent = await newPage();
        await silent.setViewportSize({ width, height: 800 });
        await silent.emulateMedia({ colorScheme: scheme });
        await silent.clock.install();
        await silent.goto(`${host.url}/#token=${host.token}`);
        gemini.script({ kind: 'hang' });
        await send(silent, 'Think');
        await silent.getByTestId('run-status').getByText('Planning…').waitFor();
        await silent.clock.fastForward(26_000);
        await silent.getByTestId('run-silent').waitFor();
        await check(silent, `${at} still waiting`);
        await silent.getByTestId('run-silent').getByRole('button', { name: 'Stop' }).click();
        await silent.getByTestId('run-stopped').waitFor();
        await check(silent, `${at} stopped`);
        await silent.close();
        expect(found).toEqual([]);
      });
    }
  }
});
