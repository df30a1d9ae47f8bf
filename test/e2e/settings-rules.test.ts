import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WsClientMessage, type WsServerMessage } from '../../shared/contract/ws-protocol';
import { composer, focusedTestId, openFromHeader, usePages } from './support/pages';
import { startHost, type RunningHost } from './support/host';
import { apiOf, putSettings } from './support/api';
import { axeViolations } from './support/axe';
import type { Settings } from '../../shared/contract';

const { newPage } = usePages();

/** Settings → Permissions → Rules, where the keyboard must never be dropped on the page. */
describe('the rules in Settings → Permissions', () => {
  let host: RunningHost;

  beforeAll(async () => {
    host = await startHost();
  });

  afterAll(async () => {
    await host?.stop();
  });

  async function openRules(width: number, beforeLoad?: (page: Page) => Promise<void>): Promise<Page> {
    const page = await newPage();
    await beforeLoad?.(page);
    await page.setViewportSize({ width, height: 860 });
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    await openFromHeader(page, 'open-settings');
    await page.getByTestId('settings-tab-permissions').click();
    await page.getByTestId('rules').waitFor();
    return page;
  }

  async function addRule(page: Page, pattern: string): Promise<void> {
    await page.getByTestId('rule-tool').selectOption({ label: 'Send an email' });
    await page.getByTestId('rule-pattern').fill(pattern);
    await page.getByTestId('rule-add').click();
  }

  it('saves Permissions by Ctrl+S from anywhere on the tab, a rule’s Revoke too, which Save’s title and a hint say', async () => {
    for (const width of [1280, 420]) {
      const page = await openRules(width);
      await addRule(page, `*@keys-${width}.example`);
      const revoke = page.getByTestId('rule').first().getByTestId('rule-revoke');
      await revoke.waitFor();
      const save = page.getByTestId('permissions-save');
      expect(await save.getAttribute('aria-keyshortcuts')).toBe('Control+S');
      expect(await save.getAttribute('title')).toBe('Save permissions (Ctrl+S)');
      const hint = page.getByTestId('settings-save-shortcut');
      expect(await hint.count()).toBe(0);

      const limit = page.getByTestId('rate-actionsPerMinute');
      const next = String(Number(await limit.inputValue()) + 1);
      await limit.fill(next);
      await expect.poll(() => hint.innerText()).toBe('Ctrl+S saves');
      // On a rule, past the form: Enter would revoke it. Ctrl+S saves the form, and the keyboard stays there.
      await revoke.focus();
      await page.keyboard.press('Control+S');
      await page.getByTestId('permissions-saved').waitFor({ timeout: 5_000 });
      expect(await page.getByTestId('settings-unsaved-note').innerText()).toBe('');
      expect(await hint.count()).toBe(0);
      expect(await revoke.evaluate((button) => button === document.activeElement)).toBe(true);
      const response = await fetch(`${host.url}/api/settings`, {
        headers: { authorization: `Bearer ${host.token}` },
      });
      const saved = (await response.json()) as { rateLimits: { actionsPerMinute: number } };
      expect(saved.rateLimits.actionsPerMinute).toBe(Number(next));
      expect(await page.getByTestId('rule').count()).toBe(1);
      await revoke.click();
      await expect.poll(() => page.getByTestId('rule').count()).toBe(0);

      // General's Save answers the same keys.
      await page.getByTestId('settings-tab-general').click();
      expect(await page.getByTestId('settings-save').getAttribute('title')).toBe('Save (Ctrl+S)');
      await page.getByLabel('Your name').fill(`Ana ${width}`);
      await page.keyboard.press('Control+S');
      await page.getByTestId('settings-saved').waitFor({ timeout: 5_000 });
      expect(await page.getByLabel('Your name').evaluate((input) => input === document.activeElement)).toBe(
        true,
      );
    }
  });

  it('keeps an address and a rule typed and not added: Save and Ctrl+S add them, and one that cannot be added stops the save and says why', async () => {
    const savedSettings = async () => (await (await apiOf(host)('/api/settings')).json()) as Settings;
    const note = () => page.getByTestId('settings-unsaved-note').innerText();
    let page = await openRules(1280);
    const allowlist = page.getByTestId('allowlist-input');
    await allowlist.fill('Sam@Typed.example');
    await page.getByTestId('rule-tool').selectOption({ label: 'Send an email' });
    await page.getByTestId('rule-pattern').fill('*@typed.example');
    // Typed, not added: the footer says it is not saved yet, and offers the shortcut.
    await expect.poll(note).toBe('Unsaved changes');
    await page.getByTestId('settings-save-shortcut').waitFor();
    await page.getByTestId('rule-pattern').focus();
    await page.keyboard.press('Control+S');
    await page.getByTestId('permissions-saved').waitFor({ timeout: 5_000 });
    const saved = await savedSettings();
    expect(saved.allowlist).toContain('sam@typed.example');
    expect(saved.rules.map((rule) => rule.pattern)).toContain('*@typed.example');
    // On screen as if Add had been pressed, the fields empty, nothing left unsaved, and the keyboard where it was.
    expect(await page.getByTestId('allowlist-entry').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining('sam@typed.example')]),
    );
    await page.getByTestId('rule').filter({ hasText: '*@typed.example' }).waitFor();
    expect(await allowlist.inputValue()).toBe('');
    expect(await page.getByTestId('rule-pattern').inputValue()).toBe('');
    expect(await page.getByTestId('rule-tool').inputValue()).toBe('');
    await expect.poll(note).toBe('');
    expect(await focusedTestId(page)).toBe('rule-pattern');
    // Closing asks nothing: all of it is saved.
    await page.getByTestId('settings-close').click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Settings' }).isVisible()).toBe(false);
    expect(await page.getByTestId('settings-unsaved').count()).toBe(0);

    // What cannot be added stops Save: said beside its field, with the keyboard there, and nothing is saved.
    page = await openRules(420);
    const before = await savedSettings();
    await page.getByTestId('rate-actionsPerMinute').fill(String(before.rateLimits.actionsPerMinute + 1));
    await page.getByTestId('allowlist-input').fill('not an address');
    await page.getByTestId('permissions-save').click();
    const allowlistError = page.getByTestId('allowlist').getByRole('alert');
    await expect
      .poll(() => allowlistError.innerText())
      .toBe('“not an address” is neither an address (sam@x.io) nor a domain (@x.io).');
    expect(await focusedTestId(page)).toBe('allowlist-input');
    expect(await page.getByTestId('permissions-saved').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('allowlist-input').fill('');
    await page.getByTestId('rule-pattern').fill('*@no-action.example');
    await page.keyboard.press('Control+S');
    await expect
      .poll(() => page.getByTestId('rules-error').innerText())
      .toBe('Choose the action this rule allows.');
    expect(await focusedTestId(page)).toBe('rule-tool');
    expect(await page.getByTestId('permissions-saved').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    const after = await savedSettings();
    expect(after.rateLimits).toEqual(before.rateLimits);
    expect(after.rules).toEqual(before.rules);
    expect(after.allowlist).toEqual(before.allowlist);
    await putSettings(host, {
      allowlist: before.allowlist.filter((entry) => entry !== 'sam@typed.example'),
      rules: before.rules.filter((rule) => rule.pattern !== '*@typed.example'),
    });
  });

  it('gives the focus to the rule just added, and after Revoke to its neighbour, then to the form', async () => {
    const page = await openRules(1280);
    await addRule(page, '*@one.example');
    const first = page.getByTestId('rule').filter({ hasText: '*@one.example' });
    await expect.poll(() => first.evaluate((rule) => rule === document.activeElement)).toBe(true);
    await addRule(page, '*@two.example');
    const second = page.getByTestId('rule').filter({ hasText: '*@two.example' });
    await expect.poll(() => second.evaluate((rule) => rule === document.activeElement)).toBe(true);

    await first.getByTestId('rule-revoke').click();
    await expect.poll(() => page.getByTestId('rule').count()).toBe(1);
    await expect
      .poll(() => second.getByTestId('rule-revoke').evaluate((button) => button === document.activeElement))
      .toBe(true);
    await second.getByTestId('rule-revoke').click();
    await expect.poll(() => page.getByTestId('rule').count()).toBe(0);
    await expect.poll(() => focusedTestId(page)).toBe('rule-tool');
  });

  it('removes an allow-list address by keyboard: the focus goes to the next one’s ✕, then to the field', async () => {
    const page = await openRules(1280);
    const field = page.getByTestId('allowlist-input');
    for (const address of ['ann@one.example', 'bob@one.example']) {
      await field.fill(address);
      await field.press('Enter');
    }
    const label = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await page.getByRole('button', { name: 'Remove ann@one.example' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('allowlist-entry').count()).toBe(1);
    expect(await label()).toBe('Remove bob@one.example');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('allowlist-entry').count()).toBe(0);
    expect(await focusedTestId(page)).toBe('allowlist-input');
  });

  it('draws a field that failed its check with a red border, in light and dark, as its message is red', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await openRules(1280, (p) => p.emulateMedia({ colorScheme: scheme }));
      const tool = page.getByTestId('rule-tool');
      const pattern = page.getByTestId('rule-pattern');
      const borderOf = (field: typeof tool) =>
        field.evaluate((element) => getComputedStyle(element).borderTopColor);
      const untouched = await borderOf(tool);
      await page.getByTestId('rule-add').click();
      const error = page.getByTestId('rules-error');
      await error.waitFor();
      const red = await error.evaluate((element) => getComputedStyle(element).color);
      expect(await tool.getAttribute('aria-invalid')).toBe('true');
      expect(await borderOf(tool)).toBe(red);
      expect(untouched).not.toBe(red);

      await tool.selectOption({ label: 'Send an email' });
      await page.getByTestId('rule-add').click();
      await expect.poll(() => pattern.getAttribute('aria-invalid')).toBe('true');
      expect(await borderOf(pattern)).toBe(red);
      // The select, valid now, is drawn as any other field again.
      expect(await borderOf(tool)).toBe(untouched);
      expect(await axeViolations(page)).toEqual([]);
    }
  });

  it('at 420 px, an empty Add rule shows its message in view and puts the keyboard on the field to fill in', async () => {
    const page = await openRules(420);
    const add = page.getByTestId('rule-add');
    await add.scrollIntoViewIfNeeded();
    await add.click();
    const error = page.getByTestId('rules-error');
    expect(await error.innerText()).toBe('Choose the action this rule allows.');
    await expect.poll(() => focusedTestId(page)).toBe('rule-tool');
    const tool = page.getByTestId('rule-tool');
    expect(await tool.getAttribute('aria-invalid')).toBe('true');
    expect(await tool.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'));
    // In view, and not under the dialog's sticky footer: the message itself is what is drawn at its middle.
    await expect.poll(() => isSeen(page, 'rules-error')).toBe(true);

    await tool.selectOption({ label: 'Send an email' });
    expect(await error.count()).toBe(0);
    await add.click();
    expect(await error.innerText()).toBe('Type the pattern to match, such as *@example.com.');
    await expect.poll(() => focusedTestId(page)).toBe('rule-pattern');
    // The example is of the kind the chosen field holds: a channel's is a channel.
    const pattern = page.getByTestId('rule-pattern');
    expect(await pattern.getAttribute('placeholder')).toBe('*@example.com');
    await page.getByTestId('rule-field').selectOption({ label: 'The Slack channel' });
    expect(await pattern.getAttribute('placeholder')).toBe('#team-*');
    await add.click();
    expect(await error.innerText()).toBe('Type the pattern to match, such as #team-*.');
    expect(await page.getByTestId('rule-pattern').getAttribute('aria-describedby')).toBe(
      await error.getAttribute('id'),
    );
    await expect.poll(() => isSeen(page, 'rules-error')).toBe(true);
  });

  it('lines its fields up: at 1280 px the words of their labels and their controls in one even row, at 420 px controls of one height', async () => {
    const wide = await fieldBoxes(await openRules(1280));
    expect(wide.map((field) => field.name)).toEqual(['Action', 'When', 'Pattern', 'How long']);
    for (const field of wide) {
      expect(Math.abs(field.wordsTop - (wide[0]?.wordsTop ?? 0)), field.name).toBeLessThanOrEqual(1);
      expect(Math.abs(field.controlTop - (wide[0]?.controlTop ?? 0)), field.name).toBeLessThanOrEqual(1);
      expect(Math.abs(field.controlBottom - (wide[0]?.controlBottom ?? 0)), field.name).toBeLessThanOrEqual(
        1,
      );
    }
    const narrow = await fieldBoxes(await openRules(420));
    for (const field of narrow) {
      const height = field.controlBottom - field.controlTop;
      const firstHeight = (narrow[0]?.controlBottom ?? 0) - (narrow[0]?.controlTop ?? 0);
      expect(Math.abs(height - firstHeight), field.name).toBeLessThanOrEqual(1);
    }
  });

  it('says why a Revoke failed above the list, not in the form to add one, and keeps the rule and the focus', async () => {
    let isSavingRefused = false;
    // The window's own connection to the host, with settings.set answered "no" while isSavingRefused is set.
    const page = await openRules(1280, (page) =>
      page.routeWebSocket(/./, (socket) => {
        const server = socket.connectToServer();
        socket.onMessage((message) => {
          const frame = commandOf(message);
          if (isSavingRefused && frame?.channel === 'settings.set') {
            const error = { code: 'internal', message: 'Deputy could not save the rules.' } as const;
            const refusal = { kind: 'reply', id: frame.id, ok: false, error } satisfies WsServerMessage;
            socket.send(JSON.stringify(refusal));
          } else server.send(message);
        });
        server.onMessage((message) => socket.send(message));
      }),
    );
    await addRule(page, '*@kept.example');
    const rule = page.getByTestId('rule').filter({ hasText: '*@kept.example' });
    await rule.waitFor();

    isSavingRefused = true;
    await rule.getByTestId('rule-revoke').click();
    const error = page.getByTestId('rules-error');
    await expect.poll(() => error.count()).toBe(1);
    expect(await error.innerText()).toBe('Deputy could not save the rules.');
    // Above the list of rules, not inside the form for adding one.
    expect(await page.locator('form[aria-label="Add a rule"] [data-testid="rules-error"]').count()).toBe(0);
    const isAboveTheList = await error.evaluate((message) => {
      const firstRule = document.querySelector('[data-testid="rule"]');
      return (
        firstRule !== null &&
        (message.compareDocumentPosition(firstRule) & Node.DOCUMENT_POSITION_FOLLOWING) > 0
      );
    });
    expect(isAboveTheList).toBe(true);
    expect(await page.getByTestId('rule').count()).toBe(1);
    await expect
      .poll(() => rule.getByTestId('rule-revoke').evaluate((button) => button === document.activeElement))
      .toBe(true);

    // The form's own check speaks in the form again.
    isSavingRefused = false;
    await page.getByTestId('rule-add').click();
    await expect.poll(() => error.innerText()).toBe('Choose the action this rule allows.');
    expect(await page.locator('form[aria-label="Add a rule"] [data-testid="rules-error"]').count()).toBe(1);
  });
});

/** A command the window sends its host, read with the protocol's own schema, or null for anything else. */
function commandOf(message: string | Buffer): Extract<WsClientMessage, { kind: 'command' }> | null {
  let frame: unknown;
  try {
    frame = JSON.parse(String(message));
  } catch {
    return null;
  }
  const parsed = WsClientMessage.safeParse(frame);
  return parsed.success && parsed.data.kind === 'command' ? parsed.data : null;
}

/** Whether the element is in the window and on top at its middle (not scrolled away, not covered). */
function isSeen(page: Page, testId: string): Promise<boolean> {
  return page.getByTestId(testId).evaluate((element) => {
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (y < 0 || y > window.innerHeight) return false;
    const top = document.elementFromPoint(x, y);
    return top !== null && element.contains(top);
  });
}

/** Where each field of the form to add a rule is drawn: the top of its label's words, and its control's edges. */
function fieldBoxes(
  page: Page,
): Promise<{ name: string; wordsTop: number; controlTop: number; controlBottom: number }[]> {
  return page.locator('form[aria-label="Add a rule"]').evaluate((form) =>
    [...form.querySelectorAll('label')].map((label) => {
      const words = document.createRange();
      words.selectNodeContents(label.firstChild ?? label);
      const control = label.querySelector('input, select')?.getBoundingClientRect();
      return {
        name: label.firstChild?.textContent?.trim() ?? '',
        wordsTop: words.getBoundingClientRect().top,
        controlTop: control?.top ?? Number.NaN,
        controlBottom: control?.bottom ?? Number.NaN,
      };
    }),
  );
}
