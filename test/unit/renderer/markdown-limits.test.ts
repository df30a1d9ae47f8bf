import { describe, expect, it } from 'vitest';
import {
  isTooComplexForMarkdown,
  MAX_DENSE_MARKS,
  MAX_EMPHASIS_MARKS,
  MAX_MARKDOWN_NESTING,
  MAX_MARKS,
} from '../../../renderer/src/features/chat/markdown-limits';

const nestedList = (levels: number): string =>
  Array.from({ length: levels }, (_, level) => `${'  '.repeat(level)}- item ${level}`).join('\n');

describe('which answers are shown as plain text rather than parsed as markdown', () => {
  it('parses what real answers look like: nested lists, quotes, tables, code, links and emphasis', () => {
    const answer = [
      '# Your week',
      '',
      nestedList(6),
      '',
      '> Quoted from Sam',
      '>> and from Alex',
      '',
      '| Task | Due |',
      '|---|---|',
      '| **Buy** [milk](https://example.com) | _tomorrow_ |',
      '',
      '```',
      `${' '.repeat(120)}deeply indented code is only text`,
      '```',
      '',
      '>                         ┌────┐   a diagram in a quote, spaced out',
    ].join('\n');
    expect(isTooComplexForMarkdown(answer)).toBe(false);
    // Many marks spread over a long answer are ordinary.
    const long = Array.from(
      { length: 400 },
      (_, index) => `See [link ${index}](https://example.com/${index}) and *this*.`,
    );
    expect(isTooComplexForMarkdown(long.join('\n'))).toBe(false);
  });

  it('shows text nested deeper than the limit as plain text: quotes, lists, numbered lists', () => {
    expect(isTooComplexForMarkdown(nestedList(MAX_MARKDOWN_NESTING))).toBe(false);
    expect(isTooComplexForMarkdown(nestedList(MAX_MARKDOWN_NESTING + 2))).toBe(true);
    expect(isTooComplexForMarkdown(`${'>'.repeat(MAX_MARKDOWN_NESTING)} fine`)).toBe(false);
    expect(isTooComplexForMarkdown(`${'> '.repeat(10_000)}x`)).toBe(true);
    expect(isTooComplexForMarkdown(`${'1. '.repeat(MAX_MARKDOWN_NESTING + 1)}x`)).toBe(true);
  });

  it('shows a paragraph packed with inline marks as plain text, but not the same marks inside fenced code', () => {
    const packed = '*_'.repeat(MAX_DENSE_MARKS);
    expect(isTooComplexForMarkdown(`Intro.\n\n${packed}x\n\nOutro.`)).toBe(true);
    expect(isTooComplexForMarkdown('[a]('.repeat(400))).toBe(true);
    expect(isTooComplexForMarkdown(`\`\`\`\n${packed}\n${'>'.repeat(100)}\n\`\`\``)).toBe(false);
    expect(isTooComplexForMarkdown('*a* '.repeat(200))).toBe(false);
  });
});

describe('what looks like fenced code here but is parsed as markdown', () => {
  const deep = nestedList(600);
  it.each([
    ['a fence opened in a list item and closed on the next line', `- \`\`\`\n  \`\`\`\n${deep}`],
    ['a closing fence shorter than its opening one', `\`\`\`\`\`\n\`\`\`\n\`\`\`\`\`\n${deep}`],
    ['a fence after a tab, which is indented code', `\t\`\`\`\n${deep}`],
    ['backticks with a backtick in their info string', `\`\`\` a\`b\n${deep}`],
    ['a fence inside an HTML comment', `<!--\n\`\`\`\n-->\n${deep}`],
    ['a fence in a quote', `> a\n> \`\`\`\n${deep}`],
  ])('is still checked: %s', (_, text) => {
    expect(isTooComplexForMarkdown(text)).toBe(true);
  });

  it('leaves real fenced code alone, at the top level and with up to three spaces on the first line', () => {
    expect(isTooComplexForMarkdown(`Intro\n\`\`\`yaml\n${deep}\n\`\`\`\nOutro`)).toBe(false);
    expect(isTooComplexForMarkdown(`  ~~~~\n${deep}\n~~~\n~~~~~`)).toBe(false);
  });
});

describe('a paragraph with more marks than any answer needs, however spread out', () => {
  it('is shown as plain text', () => {
    // 4,000 marks a fifth of the characters or less took the parser seconds.
    expect(isTooComplexForMarkdown('*_aaaaaaaaa'.repeat(MAX_EMPHASIS_MARKS / 2 + 1))).toBe(true);
    expect(isTooComplexForMarkdown('[a](bbbbbbbbbbbbbbbbb'.repeat(MAX_MARKS / 3 + 1))).toBe(true);
    expect(isTooComplexForMarkdown('*a* bbbbbbbbbbbbbbbbbbb '.repeat(MAX_EMPHASIS_MARKS / 2 - 1))).toBe(
      false,
    );
  });
});

describe('list items nested by their markers however they are written', () => {
  it.each([
    ['a tab after each marker', (level: number) => `${'\t'.repeat(level)}-\tx`],
    ['empty items, each holding the next', (level: number) => `${'  '.repeat(level)}-`],
    ['empty numbered items', (level: number) => `${'   '.repeat(level)}1.`],
  ])('counts the levels: %s', (_, line) => {
    const nested = (levels: number): string =>
      Array.from({ length: levels }, (__, level) => line(level)).join('\n');
    expect(isTooComplexForMarkdown(nested(MAX_MARKDOWN_NESTING / 2))).toBe(false);
    expect(isTooComplexForMarkdown(nested(600))).toBe(true);
  });

  it('leaves a dash or a number ending a line of text alone', () => {
    expect(isTooComplexForMarkdown(`${'  '.repeat(40)}wait -\n1999 to 2024: 25 years -`)).toBe(false);
  });
});
