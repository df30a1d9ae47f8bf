import type { ReactNode } from 'react';
import type { ThreadSearchHit } from '../../../../shared/contract';
import { useChat, useSearch } from '../../stores';

/** The snippet with each matched word in <mark>, from ranges: the text is never read as markup. */
function Marked({ text, highlights }: { text: string; highlights: [number, number][] }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of highlights) {
    if (start < at || end > text.length) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(<mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  parts.push(text.slice(at));
  return <>{parts}</>;
}

function Hit({ hit, isActive }: { hit: ThreadSearchHit; isActive: boolean }) {
  const openThread = useChat((state) => state.openThread);
  return (
    <li className="thread-list__row" data-testid="search-hit" data-thread-id={hit.thread.id}>
      <button
        type="button"
        className="thread-list__item"
        aria-current={isActive ? 'page' : undefined}
        onClick={() => void openThread(hit.thread.id, hit.messageId ?? undefined)}
      >
        <span className="thread-list__title">{hit.thread.title}</span>
        {hit.snippet && (
          <span className="thread-list__snippet">
            <Marked text={hit.snippet} highlights={hit.highlights} />
          </span>
        )}
      </button>
    </li>
  );
}

/** Conversations whose title or messages hold every word typed, searched on the host (all of them, not only those loaded). */
export function SearchResults() {
  const query = useSearch((state) => state.query);
  const hits = useSearch((state) => state.hits);
  const isSearching = useSearch((state) => state.isSearching);
  const error = useSearch((state) => state.error);
  const activeThreadId = useChat((state) => state.conversation.threadId);
  return (
    <>
      {error && (
        <p className="thread-list__error" role="alert">
          {error}
        </p>
      )}
      <ul data-testid="search-results" aria-label={`Conversations matching “${query}”`}>
        {hits.map((hit) => (
          <Hit key={hit.thread.id} hit={hit} isActive={hit.thread.id === activeThreadId} />
        ))}
      </ul>
      <p className="thread-list__empty" role="status">
        {isSearching
          ? 'Searching…'
          : hits.length === 0 && !error
            ? `No conversation mentions “${query}”.`
            : `${hits.length} ${hits.length === 1 ? 'conversation' : 'conversations'}`}
      </p>
    </>
  );
}
