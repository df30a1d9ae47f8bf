import { lazy, Suspense } from 'react';
import { CopyButton } from './CopyButton';
import { RUN_MARK_TEXT } from './run-marks';
import type { RowProps } from './timeline-entry';
import type { TimelineItem } from './timeline';
import { useFrameText } from './use-frame-text';

type Message = Extract<TimelineItem, { kind: 'message' }>;

// Markdown (react-markdown, remark-gfm) is its own chunk: the window shows plain text until it has loaded.
const MarkdownText = lazy(() => import('./MarkdownText'));

export function MessageView({ message, row }: { message: Message; row: RowProps }) {
  const isUser = message.role === 'user';
  const text = useFrameText(message.text, message.isStreaming);
  return (
    <li
      className={`message message--${message.role}`}
      data-testid="message"
      data-role={message.role}
      data-streaming={message.isStreaming ? 'true' : undefined}
      {...row}
    >
      <div className="message__author">
        {isUser ? 'You' : 'Deputy'}
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
          <Suspense fallback={<p className="message__plain">{text}</p>}>
            <MarkdownText text={text} isStreaming={message.isStreaming} />
          </Suspense>
        )}
        {message.isStreaming && <span className="message__cursor" aria-hidden="true" />}
      </div>
      {!isUser && !message.isStreaming && (
        <div className="message__actions">
          <CopyButton text={message.text} label="Copy message" testId="message-copy" />
        </div>
      )}
    </li>
  );
}
