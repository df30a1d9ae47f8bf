import { lazy, Suspense, useCallback, useContext, useEffect, useRef } from 'react';
import { AuthorName } from './author-name';
import { CopyButton } from './CopyButton';
import { RUN_MARK_TEXT } from './run-marks';
import { StreamingCursor } from './streaming-cursor';
import type { RowProps } from './timeline-entry';
import type { TimelineItem } from './timeline';
import { useFrameText } from './use-frame-text';

type Message = Extract<TimelineItem, { kind: 'message' }>;

// Markdown (react-markdown, remark-gfm) is its own chunk: the window shows plain text until it has loaded.
const MarkdownText = lazy(() => import('./MarkdownText'));

export function MessageView({
  message,
  row,
  isFound = false,
}: {
  message: Message;
  row: RowProps;
  /** Opened from a search hit: marked, and focused so the keyboard goes on from here. */
  isFound?: boolean;
}) {
  const isUser = message.role === 'user';
  const author = useContext(AuthorName);
  const text = useFrameText(message.text, message.isStreaming);
  const element = useRef<HTMLLIElement | null>(null);
  const measure = row.ref;
  const ref = useCallback(
    (node: HTMLLIElement | null) => {
      element.current = node;
      if (typeof measure === 'function') measure(node);
    },
    [measure],
  );
  useEffect(() => {
    if (isFound) element.current?.focus({ preventScroll: true });
  }, [isFound]);
  return (
    <li
      className={`message message--${message.role}${isFound ? ' message--found' : ''}`}
      data-testid="message"
      data-role={message.role}
      data-streaming={message.isStreaming ? 'true' : undefined}
      data-found={isFound ? 'true' : undefined}
      tabIndex={isFound ? -1 : undefined}
      {...row}
      ref={ref}
    >
      <div className="message__author">
        {isUser ? 'You' : author}
        {message.isRecovered && ' '}
        {message.isRecovered && (
          <span className="run-badge" data-testid="recovered-badge">
            {RUN_MARK_TEXT.recovered}
          </span>
        )}
      </div>
      <div className="message__body">
        {isUser ? (
          <p className="message__plain">{message.text}</p>
        ) : (
          <Suspense
            fallback={
              <p className="message__plain">
                {text}
                {message.isStreaming && <StreamingCursor />}
              </p>
            }
          >
            <MarkdownText text={text} isStreaming={message.isStreaming} />
          </Suspense>
        )}
      </div>
      {!isUser && !message.isStreaming && (
        <div className="message__actions">
          <CopyButton text={message.text} label="Copy message" testId="message-copy" />
        </div>
      )}
    </li>
  );
}
