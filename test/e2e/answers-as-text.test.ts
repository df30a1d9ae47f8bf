import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { textReply } from '../fakes/gemini/script';
import { useHostedGemini } from './support/hosted';
import { assistantMessages, composer, send, usePages } from './support/pages';

const { newPage } = usePages();

/**
 * Answers the markdown parser cannot take (nested thousands of levels, packed with marks) are shown as plain text,
 * and a piece of the window that fails to draw shows its fallback: the window stays, and so does the conversation
 * it reopens on.
 */
describe('answers the window cannot draw as markdown', () => {
  const hosted = useHostedGemini();

  it('shows a quote nested 10,000 levels deep as text, keeps working, and reopens on it', async () => {
    const [gemini, host] = [hosted.gemini(), hosted.host()];
    const page = await newPage();
    await page.goto(`${host.url}/#token=${host.token}`);
    await composer(page).waitFor();
    gemini.script(textReply(`${'> '.repeat(10_000)}the quoted words`), textReply('**Fine** now.'));
    await send(page, 'Quote it');
    const asText = assistantMessages(page).first().getByTestId('markdown-as-text');
    await asText.waitFor();
    expect(await asText.innerText()).toContain('the quoted words');
    await send(page, 'And now?');
    await assistantMessages(page).nth(1).locator('strong', { hasText: 'Fine' }).waitFor();
    // Reopened on the same conversation: both answers, neither blanking the window.
    await page.reload();
    await assistantMessages(page).nth(1).locator('strong', { hasText: 'Fine' }).waitFor();
    expect(await assistantMessages(page).first().getByTestId('markdown-as-text').innerText()).toContain(
      'the quoted words',
    );
    await composer(page).waitFor();
  });

  it('draws a RenderGuard fallback in place of children that throw, and tries again when its key changes', async () => {
    const page = await mountInPage(`
      function Broken({ text }) { if (text === 'bad') throw new Error('cannot draw'); return h('p', { id: 'ok' }, text); }
      function Page() {
        const [text, setText] = useState('bad');
        return h('div', null,
          h('button', { id: 'fix', onClick: () => setText('good') }, 'fix'),
          h(RenderGuard, { fallback: h('p', { id: 'fallback' }, 'shown as text'), resetKey: text }, h(Broken, { text })),
          h('p', { id: 'beside' }, 'the rest of the window'));
      }`);
    await page.locator('#fallback').waitFor();
    expect(await page.locator('#beside').innerText()).toBe('the rest of the window');
    await page.click('#fix');
    expect(await page.locator('#ok').innerText()).toBe('good');
  });

  it('shows the window a way on, not a blank page, when a whole screen fails to draw', async () => {
    const page = await mountInPage(`
      function Page() {
        return h(RenderGuard, { fallback: h(WindowProblem) }, h(function Screen() { throw new Error('cannot draw'); }));
      }`);
    const problem = page.getByRole('alert');
    await problem.waitFor();
    expect(await problem.innerText()).toContain('Nothing is lost');
    await page.getByRole('button', { name: 'Reload the window' }).waitFor();
    await page.getByRole('button', { name: 'Open a new conversation' }).focus();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Open a new conversation');
  });

  it('offers only Reload in a window with no conversations (the approval window)', async () => {
    const page = await mountInPage(
      `function Page() {
        return h(RenderGuard, { fallback: h(WindowProblem) }, h(function Screen() { throw new Error('cannot draw'); }));
      }`,
      '#/approval/approval-1',
    );
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('button').allInnerTexts()).toEqual(['Reload the window']);
  });
});

/** Renders `Page` (defined by `code`, with React's `h`, `useState`, RenderGuard and WindowProblem) in a blank page at `hash`. */
async function mountInPage(code: string, hash = ''): Promise<Page> {
  const bundle = await build({
    stdin: {
      contents: `
        import { createElement as h, useState } from 'react';
        import { createRoot } from 'react-dom/client';
        import { RenderGuard } from './renderer/src/components/RenderGuard';
        import { WindowProblem } from './renderer/src/components/WindowProblem';
        ${code}
        createRoot(document.getElementById('root')).render(h(Page));`,
      resolveDir: process.cwd(),
      loader: 'tsx',
    },
    bundle: true,
    write: false,
    format: 'iife',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const page = await newPage();
  await page.setContent('<div id="root"></div>');
  if (hash) await page.evaluate((value) => (window.location.hash = value), hash);
  await page.addScriptTag({ content: bundle.outputFiles[0]?.text ?? '' });
  return page;
}
