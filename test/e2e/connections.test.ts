import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../fakes/gemini/server';
import { FAKE_OAUTH_CLIENT } from '../fakes/google/oauth';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { startFakeSlack, type FakeSlack } from '../fakes/slack/server';
import { callReply, textReply } from '../fakes/gemini/script';
import type { FakeGemini } from '../fakes/gemini/types';
import { putSettings } from './support/api';
import { axeViolations } from './support/axe';
import { assistantMessages, composer, focusedTestId, send, usePages } from './support/pages';
import { startHost, type RunningHost } from './support/host';

const { newPage } = usePages();

const GEMINI_KEY = 'AIza-e2e-pasted-key-0123456789';

const card = (page: Page, name: string) => page.getByTestId(`connection-${name}`);
const withState = (locator: Locator, state: string) =>
  locator.and(locator.page().locator(`[data-state="${state}"]`));
const memoryTexts = (page: Page) => page.getByTestId('memory-text').allInnerTexts();

async function expectNoBrowserSignIn(slackCard: Locator): Promise<void> {
  for (const testId of ['slack-client-id', 'slack-client-secret', 'slack-sign-in'])
    expect(await slackCard.getByTestId(testId).count()).toBe(0);
}

async function openPage(host: RunningHost): Promise<Page> {
  const page = await newPage();
  await page.goto(`${host.url}/#token=${host.token}`);
  await composer(page).waitFor();
  return page;
}

async function openSettingsTab(page: Page, tab: 'connections' | 'memory'): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId(`settings-tab-${tab}`).click();
}

async function closeSettings(page: Page): Promise<void> {
  await page.getByTestId('settings-close').click();
}

async function connectGemini(page: Page): Promise<void> {
  await openSettingsTab(page, 'connections');
  const gemini = card(page, 'gemini');
  await withState(gemini, 'disconnected').waitFor();
  await gemini.getByLabel('API key').fill(GEMINI_KEY);
  await gemini.getByTestId('gemini-connect').click();
  await withState(gemini, 'connected').waitFor();
  // The card reads connected as the host says so, which may be before it answers the click: till then its
  // buttons wait ("Saving…", Disconnect disabled).
  await expect.poll(() => gemini.getByTestId('gemini-connect').innerText()).toBe('Replace key');
}

/**
 * What the user's browser does with the sign-in link: the fakes consent at once and redirect to the
 * host's loopback listener, which takes the code.
 */
async function finishSignInInBrowser(connectionCard: Locator, printed?: () => string): Promise<void> {
  const link = connectionCard.getByTestId('connection-auth-url');
  await link.waitFor();
  const authUrl = await link.getAttribute('href');
  if (!authUrl) throw new Error('the sign-in link has no address');
  // Headless, the host also prints the page to open, for someone reading its output rather than the UI.
  if (printed) expect(printed()).toContain(`open this page in your browser: ${authUrl}`);
  const response = await fetch(authUrl, { redirect: 'follow' });
  expect(response.ok).toBe(true);
}

describe('Settings → Connections and Memory against the headless host', () => {
  let gemini: FakeGemini;
  let host: RunningHost;

  beforeAll(async () => {
    gemini = await startFakeGemini();
    // No GEMINI_API_KEY: the only key the host gets is the one pasted in Settings.
    host = await startHost({ geminiUrl: gemini.url });
    // save_memory is "notify": under autonomous trust it runs without waiting for an approval.
    await putSettings(host, { trustLevel: 'autonomous' });
  });

  afterAll(async () => {
    await host?.stop();
    await gemini?.close();
  });

  it('connects Gemini with a pasted key that is used but never shown, then disconnects after confirming', async () => {
    const page = await openPage(host);
    await connectGemini(page);
    const geminiCard = card(page, 'gemini');
    expect(await geminiCard.getByTestId('connection-account').innerText()).toBe('Using the key you saved');
    // Gemini took the key, so there is nothing more to say about it.
    expect(await geminiCard.getByTestId('connection-notice').count()).toBe(0);
    // The field is emptied after the submit, and the key appears nowhere on the page.
    expect(await geminiCard.getByLabel('New API key').inputValue()).toBe('');
    expect(await page.content()).not.toContain(GEMINI_KEY);

    await page.reload();
    await composer(page).waitFor();
    await openSettingsTab(page, 'connections');
    await withState(card(page, 'gemini'), 'connected').waitFor();
    await closeSettings(page);

    // The stored key is the one the model is called with.
    gemini.script(textReply('Hello from the fake.'));
    await send(page, 'Hello');
    await expect.poll(() => assistantMessages(page).last().innerText()).toContain('Hello from the fake.');
    expect(gemini.requests.at(-1)?.apiKey).toBe(GEMINI_KEY);

    await openSettingsTab(page, 'connections');
    await geminiCard.getByTestId('connection-disconnect').click();
    // Nothing happens until the inline confirmation; "Keep" backs out.
    await geminiCard.getByTestId('connection-disconnect-keep').click();
    await withState(geminiCard, 'connected').waitFor();
    await geminiCard.getByTestId('connection-disconnect').click();
    await geminiCard.getByTestId('connection-disconnect-confirm').click();
    await withState(geminiCard, 'disconnected').waitFor();

    await page.reload();
    await composer(page).waitFor();
    await openSettingsTab(page, 'connections');
    await withState(card(page, 'gemini'), 'disconnected').waitFor();
  });

  it('asks before Disconnect without losing the keyboard: Escape and Keep go back to it, done goes to the key', async () => {
    const page = await openPage(host);
    await connectGemini(page);
    const geminiCard = card(page, 'gemini');
    const disconnect = geminiCard.getByTestId('connection-disconnect');
    const question = geminiCard.getByRole('group', { name: 'Disconnect Gemini?' });
    await disconnect.focus();
    await page.keyboard.press('Enter');
    expect(await focusedTestId(page)).toBe('connection-disconnect-confirm');

    // Escape answers the question, not Settings: the dialog stays, the key stays, the keyboard is on Disconnect.
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    expect(await page.getByTestId('settings-close').isVisible()).toBe(true);
    expect(await focusedTestId(page)).toBe('connection-disconnect');

    await page.keyboard.press('Enter');
    await geminiCard.getByTestId('connection-disconnect-keep').focus();
    await page.keyboard.press('Enter');
    await question.waitFor({ state: 'detached' });
    expect(await focusedTestId(page)).toBe('connection-disconnect');

    // Disconnected, the keyboard is in the field that connects again rather than on the page.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await withState(geminiCard, 'disconnected').waitFor();
    await expect.poll(() => focusedTestId(page)).toBe('gemini-api-key');
  });

  it('gives the keyboard to the message box when Settings closes after the first key, the note that opened it gone', async () => {
    const page = await openPage(host);
    const note = page.getByTestId('gemini-key-hint');
    await note.getByTestId('open-connections').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page)).toBe('gemini-api-key');
    await page.keyboard.type(GEMINI_KEY);
    await page.keyboard.press('Enter');
    await withState(card(page, 'gemini'), 'connected').waitFor();
    await page.keyboard.press('Escape');
    await note.waitFor({ state: 'detached' });
    await expect.poll(() => focusedTestId(page)).toBe('composer-input');

    await openSettingsTab(page, 'connections');
    await card(page, 'gemini').getByTestId('connection-disconnect').click();
    await card(page, 'gemini').getByTestId('connection-disconnect-confirm').click();
    await withState(card(page, 'gemini'), 'disconnected').waitFor();
  });

  it('does not save a key Gemini refuses, and saves one it could not check with a word saying so', async () => {
    const page = await openPage(host);
    await openSettingsTab(page, 'connections');
    const geminiCard = card(page, 'gemini');
    await withState(geminiCard, 'disconnected').waitFor();

    gemini.models.isKeyRejected = true;
    try {
      await geminiCard.getByLabel('API key').fill('not-a-real-key');
      await geminiCard.getByTestId('gemini-connect').click();
      // The keyboard is back in the emptied field, to paste again: the pressed button went disabled with it.
      expect(await focusedTestId(page)).toBe('gemini-api-key');
      await expect
        .poll(() => geminiCard.getByTestId('connection-error').innerText())
        .toBe(
          'Gemini did not accept this key, so it was not saved. Check that you copied the whole key from Google AI Studio.',
        );
      expect(await geminiCard.getAttribute('data-state')).toBe('disconnected');
      // The field is marked, and points to the words that say why.
      const field = geminiCard.getByLabel('API key');
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await field.getAttribute('aria-describedby')).toBe(
        await geminiCard.getByTestId('connection-error').getAttribute('id'),
      );
      expect(await page.content()).not.toContain('not-a-real-key');
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      gemini.models.isKeyRejected = false;
    }

    // A key with a space inside could never be sent: refused before Gemini is asked, saying where, not what.
    const asked = gemini.models.requests;
    await geminiCard.getByLabel('API key').fill('AIzaSy half-pasted');
    await geminiCard.getByTestId('gemini-connect').click();
    await expect
      .poll(() => geminiCard.getByTestId('connection-error').innerText())
      .toBe(
        'The key was not saved: character 7 of it cannot be part of a Gemini key (a space, a line break or a letter outside A–Z). Copy it again from Google AI Studio.',
      );
    expect(gemini.models.requests).toBe(asked);
    expect(await geminiCard.getAttribute('data-state')).toBe('disconnected');

    // Gemini down: the key cannot be checked now, so it is saved and the card says it was not checked.
    gemini.models.isDown = true;
    try {
      await geminiCard.getByLabel('API key').fill(GEMINI_KEY);
      await geminiCard.getByTestId('gemini-connect').click();
      await withState(geminiCard, 'connected').waitFor();
      expect(await geminiCard.getByTestId('connection-notice').innerText()).toContain(
        'Gemini could not be reached to check it',
      );
      expect(await geminiCard.getByTestId('connection-error').count()).toBe(0);
      expect(await geminiCard.getByLabel('New API key').getAttribute('aria-invalid')).toBeNull();
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      gemini.models.isDown = false;
    }
    await geminiCard.getByTestId('connection-disconnect').click();
    await geminiCard.getByTestId('connection-disconnect-confirm').click();
    await withState(geminiCard, 'disconnected').waitFor();
  });

  it('keeps your email, preferences and how runs go from General across a reload', async () => {
    const page = await openPage(host);
    await page.getByTestId('open-settings').click();
    const form = page.getByTestId('settings-form');
    await form.getByLabel('Your email').fill('Ada@Example.com');
    await form.getByLabel('Preferences').fill('Short replies. No meetings before 10:00.');
    // Several calls at once is the default; its number shows only then.
    await form.getByTestId('max-parallel').waitFor();
    await form.getByRole('radio', { name: /One at a time/ }).check();
    await form.getByTestId('max-parallel').waitFor({ state: 'detached' });
    await form.getByLabel('Model choice').selectOption({ label: 'Lowest cost' });
    await form.getByTestId('routing-policy-hint').filter({ hasText: 'cheapest' }).waitFor();
    await form.getByLabel('Run time limit (minutes)').fill('30');
    await page.getByTestId('settings-save').click();
    // Saved says so beside Save, in the dialog's footer.
    await page.getByTestId('settings-saved').waitFor();

    await page.reload();
    await composer(page).waitFor();
    await page.getByTestId('open-settings').click();
    // The host keeps addresses in lower case; the form shows what it kept.
    await expect.poll(() => form.getByLabel('Your email').inputValue()).toBe('ada@example.com');
    expect(await form.getByLabel('Preferences').inputValue()).toBe(
      'Short replies. No meetings before 10:00.',
    );
    expect(await form.getByRole('radio', { name: /One at a time/ }).isChecked()).toBe(true);
    expect(await form.getByLabel('Model choice').inputValue()).toBe('cost');
    expect(await form.getByLabel('Run time limit (minutes)').inputValue()).toBe('30');
    expect(await form.getByTestId('max-parallel').count()).toBe(0);
  });

  it('shows what a chat remembered, newest first, and searches, edits and deletes it', async () => {
    const page = await openPage(host);
    await connectGemini(page);
    await closeSettings(page);

    gemini.script(
      callReply('save_memory', { text: 'Ada prefers tea in the afternoon', confidence: 0.95 }),
      callReply('save_memory', { text: 'Ada manages the Lisbon office', confidence: 0.95 }),
      callReply('save_memory', { text: 'Ada skips meetings on Fridays', confidence: 0.95 }),
      textReply('I will remember all three.'),
    );
    await send(page, 'Remember: tea in the afternoon, I manage Lisbon, no meetings on Fridays.');
    await expect
      .poll(() => assistantMessages(page).last().innerText())
      .toContain('I will remember all three.');

    await openSettingsTab(page, 'memory');
    await expect
      .poll(() => memoryTexts(page))
      .toEqual([
        'Ada skips meetings on Fridays',
        'Ada manages the Lisbon office',
        'Ada prefers tea in the afternoon',
      ]);

    await page.getByLabel('Search memories').fill('lisbon');
    await expect.poll(() => memoryTexts(page)).toEqual(['Ada manages the Lisbon office']);

    // Escape leaves the edit (and only the edit: the dialog stays open).
    const item = page.getByTestId('memory-item');
    await item.getByTestId('memory-edit').click();
    await item.getByTestId('memory-editor').fill('Something else');
    await item.getByTestId('memory-editor').press('Escape');
    await expect.poll(() => memoryTexts(page)).toEqual(['Ada manages the Lisbon office']);
    expect(await page.getByTestId('settings-close').isVisible()).toBe(true);
    // Focus went back to the Edit button, so Enter opens the editor again.
    await page.keyboard.press('Enter');
    await item.getByTestId('memory-editor').fill('Ada manages the Lisbon and Porto offices');
    await item.getByTestId('memory-editor').press('Enter');
    await expect.poll(() => memoryTexts(page)).toEqual(['Ada manages the Lisbon and Porto offices']);

    await page.getByLabel('Search memories').fill('tea');
    await expect.poll(() => memoryTexts(page)).toEqual(['Ada prefers tea in the afternoon']);
    await item.getByTestId('memory-delete').click();
    await item.getByTestId('memory-delete-confirm').click();
    await expect
      .poll(() => page.getByTestId('memory-empty').innerText())
      .toContain('Nothing remembered matches “tea”');

    // What changed is in the host, not just on screen.
    await page.reload();
    await composer(page).waitFor();
    await openSettingsTab(page, 'memory');
    await expect
      .poll(() => memoryTexts(page))
      .toEqual(['Ada skips meetings on Fridays', 'Ada manages the Lisbon and Porto offices']);
  });
});

describe('Google and Slack sign-in against their fakes', () => {
  let google: FakeGoogle;
  let slack: FakeSlack;
  let host: RunningHost;

  beforeAll(async () => {
    google = await startFakeGoogle();
    slack = await startFakeSlack();
    // No OAuth clients in the environment: the user brings their own in Settings.
    host = await startHost({ env: { ...google.env, ...slack.env } });
  });

  afterAll(async () => {
    await host?.stop();
    await slack?.close();
    await google?.close();
  });

  it('connects Google with the user’s own Desktop client through the browser, then disconnects', async () => {
    const page = await openPage(host);
    await openSettingsTab(page, 'connections');
    const googleCard = card(page, 'google');
    await withState(googleCard, 'disconnected').waitFor();
    expect(await googleCard.innerText()).toContain('Desktop app');

    await googleCard.getByLabel('Client ID').fill(FAKE_OAUTH_CLIENT.clientId);
    await googleCard.getByLabel('Client secret').fill(FAKE_OAUTH_CLIENT.clientSecret);
    await googleCard.getByTestId('google-connect').click();
    await withState(googleCard, 'connecting').waitFor();
    // The button pressed stays, as Start again, with the keyboard on it: it was not dropped while the sign-in began.
    expect(await focusedTestId(page)).toBe('google-connect');
    expect(await googleCard.getByTestId('connection-waiting').innerText()).toContain(
      'Waiting for you to finish signing in…',
    );

    await finishSignInInBrowser(googleCard, () => host.output());
    await withState(googleCard, 'connected').waitFor();
    expect(await googleCard.getByTestId('connection-account').innerText()).toContain(
      google.oauth.accountEmail,
    );
    expect(await googleCard.getByTestId('connection-scopes').innerText()).toMatch(/\d+ permissions/);
    expect(await page.content()).not.toContain(FAKE_OAUTH_CLIENT.clientSecret);

    await googleCard.getByTestId('connection-disconnect').click();
    await googleCard.getByTestId('connection-disconnect-confirm').click();
    await withState(googleCard, 'disconnected').waitFor();
    // The client is remembered: connecting again needs no fields, only the browser.
    expect(await googleCard.getByLabel('Client ID').count()).toBe(0);
    await googleCard.getByTestId('google-connect').click();
    await finishSignInInBrowser(googleCard);
    await withState(googleCard, 'connected').waitFor();
  });

  it('keeps the keyboard in the Google card when a sign-in finished in the browser redraws it, and leaves it elsewhere alone', async () => {
    // A host of its own: the test above left its Google client remembered, so no client fields would show.
    const fresh = await startHost({ env: google.env });
    try {
      const page = await openPage(fresh);
      await openSettingsTab(page, 'connections');
      const googleCard = card(page, 'google');
      await withState(googleCard, 'disconnected').waitFor();
      await googleCard.getByLabel('Client ID').fill(FAKE_OAUTH_CLIENT.clientId);
      await googleCard.getByLabel('Client secret').fill(FAKE_OAUTH_CLIENT.clientSecret);
      await googleCard.getByLabel('Client secret').press('Enter');
      await withState(googleCard, 'connecting').waitFor();
      // The fields go once Google has the client: the keyboard lands on the button Enter pressed, as it stays on it
      // when the button itself is pressed, instead of falling to the page.
      expect(await googleCard.getByLabel('Client secret').count()).toBe(0);
      await expect.poll(() => focusedTestId(page)).toBe('google-connect');
      await expect.poll(() => googleCard.getByTestId('google-connect').innerText()).toBe('Start again');

      // The card is redrawn again by the sign-in finished in the browser, outside this window: the keyboard stays.
      await finishSignInInBrowser(googleCard);
      await withState(googleCard, 'connected').waitFor();
      expect(await focusedTestId(page)).toBe('google-connect');
      expect(await googleCard.getByTestId('google-connect').innerText()).toBe('Reconnect');

      // A person who went on to another card while the browser was open keeps their place there.
      await googleCard.getByTestId('google-connect').press('Enter');
      await withState(googleCard, 'connecting').waitFor();
      await card(page, 'slack').getByLabel('User token').focus();
      await finishSignInInBrowser(googleCard);
      await withState(googleCard, 'connected').waitFor();
      expect(await focusedTestId(page)).toBe('slack-token');

      // One who clicked a blank part of Settings, away from the card, is not pulled back into it either: the click
      // gives the keyboard to the Settings dialog itself, which is outside the card.
      await googleCard.getByTestId('google-connect').press('Enter');
      await withState(googleCard, 'connecting').waitFor();
      await googleCard.getByTestId('google-connect').focus();
      await page.getByRole('heading', { name: 'Settings' }).click();
      const isOnDialog = () =>
        page.evaluate(() => document.activeElement?.classList.contains('settings-panel') === true);
      expect(await isOnDialog()).toBe(true);
      await finishSignInInBrowser(googleCard);
      await withState(googleCard, 'connected').waitFor();
      expect(await isOnDialog()).toBe(true);
    } finally {
      await fresh.stop();
    }
  });

  it('connects Slack with a pasted user token, shows a refused token in words, and signs in through the browser', async () => {
    const page = await openPage(host);
    await openSettingsTab(page, 'connections');
    const slackCard = card(page, 'slack');
    await withState(slackCard, 'disconnected').waitFor();

    await slackCard.getByLabel('User token').fill('xoxp-1111111111-2222222222-3333333333-notavalidtoken');
    await slackCard.getByTestId('slack-connect-token').click();
    await slackCard.getByTestId('connection-error').waitFor();
    const refusal = await slackCard.getByTestId('connection-error').innerText();
    // The keyboard is back in the emptied field, to paste again: the pressed button went disabled with it.
    expect(await focusedTestId(page)).toBe('slack-token');
    expect(refusal).toContain('Slack did not accept that token');
    expect(refusal).not.toContain('notavalidtoken');
    const tokenField = slackCard.getByLabel('User token');
    expect(await tokenField.inputValue()).toBe('');
    // The refused token's field is marked, and says why through the card's error, as a refused Gemini key does.
    expect(await tokenField.getAttribute('aria-invalid')).toBe('true');
    const describedBy = await tokenField.getAttribute('aria-describedby');
    expect(describedBy).toBeTruthy();
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).toBe(refusal);
    expect(await axeViolations(page)).toEqual([]);
    await withState(slackCard, 'disconnected').waitFor();

    const token = slack.state.issueToken();
    await slackCard.getByLabel('User token').fill(token);
    await slackCard.getByTestId('slack-connect-token').click();
    await withState(slackCard, 'connected').waitFor();
    expect(await slackCard.getByTestId('connection-account').innerText()).toContain(slack.state.team.name);
    expect(await slackCard.getByTestId('connection-error').count()).toBe(0);
    expect(await slackCard.getByLabel('New user token').inputValue()).toBe('');
    expect(await slackCard.getByLabel('New user token').getAttribute('aria-invalid')).toBeNull();
    // Connected, the token form says what it now does: it replaces the token, as Gemini's replaces the key.
    expect(await slackCard.getByLabel('New user token', { exact: true }).count()).toBe(1);
    await expect.poll(() => slackCard.getByTestId('slack-connect-token').innerText()).toBe('Replace token');
    // A browser sign-in and the Slack app's client ID and secret do not apply once connected.
    await expectNoBrowserSignIn(slackCard);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.content()).not.toContain(token);

    await slackCard.getByTestId('connection-disconnect').click();
    await slackCard.getByTestId('connection-disconnect-confirm').click();
    await withState(slackCard, 'disconnected').waitFor();

    await slackCard.getByTestId('slack-client-id').fill(slack.state.app.clientId);
    await slackCard.getByTestId('slack-client-secret').fill(slack.state.app.clientSecret);
    await slackCard.getByTestId('slack-sign-in').click();
    await withState(slackCard, 'connecting').waitFor();
    // The keyboard stays on the button pressed while the sign-in begins, rather than falling to the page.
    expect(await focusedTestId(page)).toBe('slack-sign-in');
    await finishSignInInBrowser(slackCard);
    await withState(slackCard, 'connected').waitFor();
    // The sign-in finished outside this window took the button away with its form: the keyboard goes to the card's
    // first field, not to the page.
    await expect.poll(() => focusedTestId(page)).toBe('slack-token');
    expect(await slackCard.getByTestId('connection-account').innerText()).toContain(slack.state.team.name);
    await expectNoBrowserSignIn(slackCard);
    expect(await axeViolations(page)).toEqual([]);
  });
});
