/** The blinking cursor after a streaming answer's last word. */
const CURSOR_CLASS = 'message__cursor';

export function StreamingCursor() {
  return <span className={CURSOR_CLASS} aria-hidden="true" />;
}

/** As much of a hast node (the tree react-markdown draws) as finding the last word needs. */
interface HastNode {
  type: string;
  value?: string;
  children?: HastNode[];
}

const isBlank = (node: HastNode) => node.type === 'text' && !node.value?.trim();

/**
 * A rehype plugin that puts the cursor inside the innermost last element (the last paragraph, list item, cell
 * or line of code), after its last word, so it follows the text inline instead of sitting on a line of its own
 * under the block.
 */
export function rehypeStreamingCursor() {
  return (tree: HastNode) => {
    let at = tree;
    for (;;) {
      const last = at.children?.findLast((child) => !isBlank(child));
      if (last?.type !== 'element' || !last.children?.length) break;
      at = last;
    }
    const cursor = {
      type: 'element',
      tagName: 'span',
      properties: { className: [CURSOR_CLASS], ariaHidden: 'true' },
      children: [],
    };
    at.children = [...(at.children ?? []), cursor];
  };
}
