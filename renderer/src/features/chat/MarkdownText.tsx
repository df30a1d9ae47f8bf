import { memo, type ReactElement, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { RenderGuard } from '../../components/RenderGuard';
import { CopyButton } from './CopyButton';
import { isTooComplexForMarkdown } from './markdown-limits';
import { markdownBlocks } from './markdown-blocks';
import { rehypeStreamingCursor, StreamingCursor } from './streaming-cursor';

/** The text inside a code block's nodes, for its copy button. */
function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (node && typeof node === 'object' && 'props' in node)
    return textOf((node as ReactElement<{ children?: ReactNode }>).props.children);
  return '';
}

// Raw HTML in model output is dropped (skipHtml) and react-markdown's default URL filter removes
// javascript: links; links open outside the window, and images become links so nothing loads by itself.
const components: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
  img: ({ src, alt }) =>
    typeof src === 'string' ? (
      <a href={src} target="_blank" rel="noreferrer noopener">
        {alt || src}
      </a>
    ) : null,
  pre: ({ children }) => (
    <div className="code-block">
      <CopyButton text={textOf(children).replace(/\n$/, '')} label="Copy code" testId="code-copy" />
      {/* Scrolls sideways on its own: focusable so the keyboard can scroll it too. */}
      <pre tabIndex={0}>{children}</pre>
    </div>
  ),
  // GitHub task-list boxes are read-only here, and named so a screen reader says what they mean.
  input: ({ type, checked }) =>
    type === 'checkbox' ? (
      <input type="checkbox" checked={checked ?? false} disabled aria-label={checked ? 'Done' : 'Not done'} />
    ) : null,
  // A wide table scrolls inside the message instead of widening the conversation.
  table: ({ children }) => (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Table">
      <table>{children}</table>
    </div>
  ),
};

const plugins = [remarkGfm];
const withCursor = [rehypeStreamingCursor];

/**
 * One block as markdown; as plain text when it nests deeper or packs more marks than any answer needs (markdown-limits.ts), or when
 * drawing it fails, so an answer that cannot be drawn still reads and the window around it stays. The block a
 * streaming answer is writing draws the cursor after its last word.
 */
const Block = memo(function Block({ text, hasCursor = false }: { text: string; hasCursor?: boolean }) {
  const plain = (
    <p className="message__plain" data-testid="markdown-as-text">
      {text}
      {hasCursor && <StreamingCursor />}
    </p>
  );
  if (isTooComplexForMarkdown(text)) return plain;
  return (
    <RenderGuard fallback={plain} resetKey={text}>
      <Markdown
        components={components}
        remarkPlugins={plugins}
        rehypePlugins={hasCursor ? withCursor : undefined}
        skipHtml
      >
        {text}
      </Markdown>
    </RenderGuard>
  );
});

/**
 * An answer's markdown, with GitHub's tables, task lists and strikethrough. While it streams, each finished
 * block keeps its rendering and only the last one, with the cursor, is parsed again; a finished answer is parsed
 * whole (a list split by blank lines is one list again).
 */
export default function MarkdownText({ text, isStreaming = false }: { text: string; isStreaming?: boolean }) {
  if (!isStreaming) return <Block text={text} />;
  const blocks = markdownBlocks(text);
  if (blocks.length === 0) return <StreamingCursor />;
  return blocks.map((block, index) => (
    <Block key={index} text={block} hasCursor={index === blocks.length - 1} />
  ));
}
