/**
 * The deepest a line of an answer may nest blocks (quotes, list items, indents) and still be read as markdown.
 * Real answers nest a few levels. The parser and React recurse per level: a quote 10,000 levels deep overflowed
 * the stack, and a list nested 400 levels took seconds to parse, holding the window.
 */
export const MAX_MARKDOWN_NESTING = 32;

/**
 * Inline markup the parser pairs up (emphasis, links, code spans) past this many marks in one paragraph, where
 * they are more than a fifth of its characters. Its pairing is worse than linear: 32 KB of `*_` took four seconds
 * and 16,000 `*` in a row overflowed the stack, while a long real answer has a few hundred marks, spread out.
 */
export const MAX_DENSE_MARKS = 1_000;
const DENSE_SHARE = 0.2;
const MARKS = new Set(['*', '_', '[', ']', '(', ')', '`', '~', '<', '\\', '!']);
/**
 * Marks past which a paragraph is shown as text whatever their share: spread out among other words, 4,000 `*_` cost
 * the parser as much (44 KB of `*_aaaaaaaaa` took three seconds). Emphasis marks (`*`, `_`, `~`) cost the most; the
 * most in one paragraph of 1,034 real markdown files is 440 of them and 3,950 marks in all (a long table).
 */
export const MAX_MARKS = 8_000;
export const MAX_EMPHASIS_MARKS = 2_000;
const EMPHASIS_MARKS = new Set(['*', '_', '~']);

/**
 * Whether an answer is better shown as plain text than parsed as markdown: some line outside fenced code nests
 * deeper than MAX_MARKDOWN_NESTING (`nestingOf`), or some paragraph is mostly inline marks (MAX_DENSE_MARKS) or
 * holds more of them than any answer needs (MAX_MARKS, MAX_EMPHASIS_MARKS). One pass over the text.
 */
export function isTooComplexForMarkdown(text: string): boolean {
  let fence: Fence | null = null;
  let mayHoldHtml = false;
  let marks = 0;
  let emphasisMarks = 0;
  let characters = 0;
  const isDense = (): boolean =>
    (marks > MAX_DENSE_MARKS && marks > characters * DENSE_SHARE) ||
    marks > MAX_MARKS ||
    emphasisMarks > MAX_EMPHASIS_MARKS;
  for (const [index, line] of text.split('\n').entries()) {
    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    fence = mayHoldHtml ? null : fenceOpenedBy(line, index === 0);
    if (fence !== null) continue;
    if (/^ {0,3}</.test(line)) mayHoldHtml = true;
    if (nestingOf(line) > MAX_MARKDOWN_NESTING) return true;
    if (line.trim() === '') {
      if (isDense()) return true;
      marks = emphasisMarks = characters = 0;
      continue;
    }
    characters += line.length;
    for (const char of line) {
      if (MARKS.has(char)) marks += 1;
      if (EMPHASIS_MARKS.has(char)) emphasisMarks += 1;
    }
  }
  return isDense();
}

/** A fenced code block's opening: its character and how many of them. */
interface Fence {
  char: string;
  length: number;
}

/**
 * The fence a line opens, taken only where the parser surely opens one at the top level, so no line it parses as
 * markdown is passed over here as code: at no indent (indented, it may sit in a list item or close a fence opened
 * in one), or with up to three spaces on the text's first line; not after a line that may start raw HTML (a
 * comment, <pre>: the parser reads a fence there as HTML and may end the HTML before the fence ends); and in
 * backticks, with none in its info string.
 */
function fenceOpenedBy(line: string, isFirstLine: boolean): Fence | null {
  const found = (isFirstLine ? /^ {0,3}(`{3,}|~{3,})(.*)$/ : /^(`{3,}|~{3,})(.*)$/).exec(line);
  const [, run = '', info = ''] = found ?? [];
  if (run === '' || (run.startsWith('`') && info.includes('`'))) return null;
  return { char: run.charAt(0), length: run.length };
}

/** Whether a line closes a fence, as the parser reads one: as many of its characters or more, and nothing after. */
function closesFence(line: string, fence: Fence): boolean {
  const run = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line)?.[1];
  return run !== undefined && run.charAt(0) === fence.char && run.length >= fence.length;
}

/** A list marker is followed by a space, a tab or the line's end (an empty item, which may hold the next line). */
function endsMarker(next: string | undefined): boolean {
  return next === ' ' || next === '\t' || next === undefined;
}

/**
 * How deep a line nests: each `>` and each list marker is a level, and so are every two spaces (a tab: two) that
 * come before one. Spaces before the line's text are not: past four they make an indented code block, not a level.
 */
function nestingOf(line: string): number {
  let levels = 0;
  let spaces = 0;
  const marker = (): void => {
    levels += 1 + Math.floor(spaces / 2);
    spaces = 0;
  };
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index] ?? '';
    if (char === ' ') spaces += 1;
    else if (char === '\t') spaces += 2;
    else if (char === '>') marker();
    else if ((char === '-' || char === '*' || char === '+') && endsMarker(line[index + 1])) marker();
    else if (char >= '0' && char <= '9') {
      let end = index;
      while ((line[end] ?? '') >= '0' && (line[end] ?? '') <= '9') end += 1;
      if ((line[end] !== '.' && line[end] !== ')') || !endsMarker(line[end + 1])) break;
      marker();
      index = end;
    } else break;
  }
  return levels;
}
