import { describe, expect, it } from 'vitest';
import { rehypeStreamingCursor } from '../../../renderer/src/features/chat/streaming-cursor';

type Node = { type: string; tagName?: string; value?: string; children?: Node[] };
const text = (value: string): Node => ({ type: 'text', value });
const el = (tagName: string, ...children: Node[]): Node => ({ type: 'element', tagName, children });
const isCursor = (node: Node | undefined) => node?.tagName === 'span';

/** The element the cursor went into, by the tags on the way down to it. */
function cursorPath(tree: Node): string {
  rehypeStreamingCursor()(tree);
  const path: string[] = [];
  let at = tree;
  while (!isCursor(at.children?.at(-1))) {
    const next = at.children?.findLast((child) => child.type === 'element');
    if (!next) return 'nowhere';
    path.push(next.tagName ?? '?');
    at = next;
  }
  return path.join(' > ') || 'root';
}

describe('where a streaming answer draws its cursor', () => {
  it('after the last word of the last paragraph, not after the paragraph', () => {
    expect(cursorPath(el('root', el('p', text('First.')), text('\n'), el('p', text('One two'))))).toBe('p');
  });

  it('after the last word of a list’s last item, and of a quote, a table and a line of code', () => {
    expect(
      cursorPath(el('root', el('ul', text('\n'), el('li', text('one')), el('li', text('two')), text('\n')))),
    ).toBe('ul > li');
    expect(cursorPath(el('root', el('blockquote', el('p', text('Sam said'))), text('\n')))).toBe(
      'blockquote > p',
    );
    expect(
      cursorPath(el('root', el('table', el('tbody', el('tr', el('td', text('a')), el('td', text('b'))))))),
    ).toBe('table > tbody > tr > td');
    expect(cursorPath(el('root', el('pre', el('code', text('npm run')))))).toBe('pre > code');
  });

  it('beside an element with nothing in it (a rule, a line break), in the element around it', () => {
    expect(cursorPath(el('root', el('p', text('Line'), el('br'))))).toBe('p');
    expect(cursorPath(el('root', el('p', text('Above')), el('hr')))).toBe('root');
  });
});
