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
 * Whether an answer is better shown as plain text than parsed as markdown: some line outside fenced code nests
 * deeper than MAX_MARKDOWN_NESTING (`nestingOf`), or some paragraph is mostly inline marks (MAX_DENSE_MARKS). One pass over the text.
 */
export function isTooComplexForMarkdown(text: string): boolean {
  let fence: string | null = null;
  let marks = 0;
  let characters = 0;
  const isDense = (): boolean => marks > MAX_DENSE_MARKS && marks > characters * DENSE_SHARE;
  for (const line of text.split('\n')) {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (opener) {
      if (fence === null) fence = opener.charAt(0);
      else if (opener.startsWith(fence)) fence = null;
      continue;
    }
    if (fence !== null) continue;
    if (nestingOf(line) > MAX_MARKDOWN_NESTING) return true;
    if (line.trim() === '') {
      if (isDense()) return true;
      marks = characters = 0;
      continue;
    }
    characters += line.length;
    for (const char of line) if (MARKS.has(char)) marks += 1;
  }
  return isDense();
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
    else if ((char === '-' || char === '*' || char === '+') && line[index + 1] === ' ') marker();
    else if (char >= '0' && char <= '9') {
      let end = index;
      while ((line[end] ?? '') >= '0' && (line[end] ?? '') <= '9') end += 1;
      if ((line[end] !== '.' && line[end] !== ')') || line[end + 1] !== ' ') break;
      marker();
      index = end;
    } else break;
  }
  return levels;
}
