import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { statusReply, textReply } from '../fakes/gemini/script';
import { useHostedGemini } from './support/hosted';
import { assistantMessages, composer, focusedId, send, usePages } from './support/pages';

const { newPage } = usePages();
const questions = (page: Page) => page.locator('[data-testid="message"][data-role="user"]');

/** Asking again after a failure or a Stop: one question on screen, and only the last turn offers it. */
describe('asking again', () => {
  const hosted = useHostedGemini();

  async function openPage(): Promise<Page> {
    const page = await newPage();
    const host = hosted.host();
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    return page;
  }

  /** Sends `text` to a model that holds it, and stops it once the model has it. */
  async function sendAndStop(page: Page, text: string): Promise<void> {
    await send(page, text);
    // Stop only once the model holds the request: a Stop before it would leave the hang for Ask again.
    await expect.poll(() => hosted.gemini().pending()).toBe(1);
    await page.getByTestId('composer-stop').click();
    await page.getByTestId('run-stopped').waitFor();
  }

  it('Retry asks again without showing the question twice, also after a reload', async () => {
    hosted.gemini().script(statusReply(400), textReply('Hello again.'));
    const page = await openPage();
    await send(page, 'Say hello');
    const failure = page.getByTestId('run-error').locator('.run-error__text');
    await page.getByTestId('run-error-retry').waitFor();
    expect(await failure.innerText()).toMatch(/try again\.$/i);
    await page.getByTestId('run-error-retry').click();
    await assistantMessages(page).getByText('Hello again.').waitFor();
    expect(await questions(page).count()).toBe(1);
    expect(await page.getByTestId('run-repeat').innerText()).toBe('You asked again');
    // The failure stays in the record, but it no longer offers a Retry, nor advises one, under the answer
    // that followed; it is no longer announced as an alert either.
    expect(await page.getByTestId('run-error').count()).toBe(1);
    expect(await page.getByTestId('run-error-retry').count()).toBe(0);
    expect(await failure.innerText()).not.toMatch(/try again/i);
    expect(await failure.getAttribute('role')).toBeNull();
    // Asked again at once, it offers nothing more: "You asked again" says so, and the answer follows.
    expect(await page.getByTestId('run-edit-again').count()).toBe(0);

    await page.reload();
    await page.getByTestId('thread-item').first().click();
    await assistantMessages(page).getByText('Hello again.').waitFor();
    expect(await questions(page).count()).toBe(1);
    expect(await page.getByTestId('run-repeat').count()).toBe(1);
    expect(await failure.innerText()).not.toMatch(/try again/i);
  });

  it('offers Retry only on the last turn: a failure followed by an answer offers none', async () => {
    hosted.gemini().script(statusReply(400), textReply('Here is the second.'));
    const page = await openPage();
    await send(page, 'First question');
    await page.getByTestId('run-error-retry').waitFor();
    await send(page, 'Second question');
    await assistantMessages(page).getByText('Here is the second.').waitFor();
    expect(await page.getByTestId('run-error').count()).toBe(1);
    expect(await page.getByTestId('run-error-retry').count()).toBe(0);
    expect(await questions(page).allInnerTexts()).toEqual([
      expect.stringContaining('First question'),
      expect.stringContaining('Second question'),
    ]);
  });

  it('an earlier failure offers Edit and ask again: its question goes in the message box, after what was typed, and waits for Send', async () => {
    hosted.gemini().script(statusReply(400), textReply('Here is the second.'), textReply('First, answered.'));
    const page = await openPage();
    await send(page, 'First question');
    await page.getByTestId('run-error-retry').waitFor();
    // The last failure offers Retry, not this: Retry asks it again where it is.
    expect(await page.getByTestId('run-edit-again').count()).toBe(0);
    await send(page, 'Second question');
    await assistantMessages(page).getByText('Here is the second.').waitFor();
    const editAgain = page.getByTestId('run-error').getByTestId('run-edit-again');
    await editAgain.waitFor();
    expect(await page.getByTestId('run-error-retry').count()).toBe(0);
    const asked = hosted.gemini().requests.length;

    await composer(page).fill('Also this');
    await editAgain.click();
    await expect.poll(() => composer(page).inputValue()).toBe('Also this\n\nFirst question');
    expect(await focusedId(page)).toBe('composer-input');
    // The caret is after the question put in, which is in view in the box.
    await expect
      .poll(() =>
        composer(page).evaluate((box: HTMLTextAreaElement) => ({
          caret: box.selectionStart === box.value.length,
          inView: box.scrollTop + box.clientHeight >= box.scrollHeight - 1,
        })),
      )
      .toEqual({ caret: true, inView: true });
    // Pressed again, the question is not put in twice; and nothing was sent meanwhile.
    await editAgain.click();
    expect(await composer(page).inputValue()).toBe('Also this\n\nFirst question');
    expect(hosted.gemini().requests.length).toBe(asked);
    expect(await questions(page).count()).toBe(2);

    await composer(page).fill('');
    await editAgain.click();
    await expect.poll(() => composer(page).inputValue()).toBe('First question');
    await composer(page).press('Enter');
    await assistantMessages(page).getByText('First, answered.').waitFor();
    expect(await questions(page).allInnerTexts()).toEqual([
      expect.stringContaining('First question'),
      expect.stringContaining('Second question'),
      expect.stringContaining('First question'),
    ]);
  });

  it('an earlier Stop offers Edit and ask again too, small, beside its quiet Stopped', async () => {
    hosted.gemini().script({ kind: 'hang' }, textReply('Other answer.'));
    const page = await openPage();
    await sendAndStop(page, 'Think it over');
    expect(await page.getByTestId('run-edit-again').count()).toBe(0);
    await send(page, 'Something else');
    await assistantMessages(page).getByText('Other answer.').waitFor();
    expect(await page.getByTestId('run-ask-again').count()).toBe(0);
    await page.getByTestId('run-stopped').getByTestId('run-edit-again').click();
    await expect.poll(() => composer(page).inputValue()).toBe('Think it over');
    expect(await page.getByTestId('run-edit-again').getAttribute('class')).toContain('button--small');
  });

  it('a stopped answer reads as stopped, in the conversation list too, and offers Ask again', async () => {
    hosted.gemini().script({ kind: 'hang' }, textReply('Here it is.'));
    const page = await openPage();
    await sendAndStop(page, 'Take your time');
    // Stop goes away with the run: the keyboard comes back to the message box, not to the page.
    await expect.poll(() => focusedId(page)).toBe('composer-input');
    const row = page.getByTestId('thread-item').filter({ hasText: 'Take your time' });
    await expect.poll(() => row.innerText()).toContain('· stopped');
    expect(await row.innerText()).not.toContain('failed');

    await page.getByTestId('run-ask-again').click();
    await assistantMessages(page).getByText('Here it is.').waitFor();
    expect(await questions(page).count()).toBe(1);
    expect(await page.getByTestId('run-ask-again').count()).toBe(0);
  });

  it('the small buttons (Copy, Copy code, Regenerate the answer, Ask again) are smaller than Send', async () => {
    hosted.gemini().script({ kind: 'hang' }, textReply('Here:\n\n```\nnpm test\n```'));
    const page = await openPage();
    const sizeOf = (testId: string) =>
      page
        .getByTestId(testId)
        .first()
        .evaluate((element) => {
          const style = getComputedStyle(element);
          return { font: parseFloat(style.fontSize), padding: parseFloat(style.paddingTop) };
        });
    await send(page, 'Take your time');
    await expect.poll(() => hosted.gemini().pending()).toBe(1);
    await page.getByTestId('composer-stop').click();
    await page.getByTestId('run-ask-again').waitFor();
    const small = [await sizeOf('run-ask-again')];
    await send(page, 'Show me');
    await page.getByTestId('regenerate').waitFor();
    const regular = await sizeOf('composer-send');
    small.push(await sizeOf('message-copy'), await sizeOf('code-copy'), await sizeOf('regenerate'));
    for (const size of small) {
      expect(size.font).toBeLessThan(regular.font);
      expect(size.padding).toBeLessThan(regular.padding);
    }
  });
});
