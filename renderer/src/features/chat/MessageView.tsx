import Markdown, { type Components } from 'react-markdown';
import { RUN_MARK_TEXT } from './run-marks';
import type { TimelineItem } from './timeline';

type Message = Extract<TimelineItem, { kind: 'message' }>;

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
};

export function MessageView({ message }: { message: Message }) {
  const isUser = message.role === 'user';
  return (
    <li
      className={`message message--${message.role}`}
      data-testid="message"
      data-role={message.role}
      data-streaming={message.isStreaming ? 'true' : undefined}
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
          <Markdown components={components} skipHtml>
            {message.text}
          </Markdown>
        )}
        {message.isStreaming && <span className="message__cursor" aria-hidden="true" />}
      </div>
    </li>
  );
}
