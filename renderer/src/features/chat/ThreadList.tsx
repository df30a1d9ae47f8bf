import { useId, useState } from 'react';
import { useChat } from '../../stores';
import { matchesQuery } from './thread-search';
import { ThreadItem } from './ThreadItem';

export function ThreadList() {
  const threads = useChat((state) => state.threads);
  const activeThreadId = useChat((state) => state.conversation.threadId);
  const hasMore = useChat((state) => state.nextBefore !== null);
  const isLoading = useChat((state) => state.isLoadingThreads);
  const error = useChat((state) => state.threadsError);
  const deleteError = useChat((state) => state.deleteError);
  const newConversation = useChat((state) => state.newConversation);
  const loadMore = useChat((state) => state.loadMoreThreads);
  const [query, setQuery] = useState('');
  const searchId = useId();
  const shown = threads.filter((thread) => matchesQuery(thread.title, query));

  return (
    <nav className="thread-list" aria-label="Conversations">
      <button
        type="button"
        className="button button--primary"
        data-testid="new-conversation"
        onClick={newConversation}
      >
        New conversation
      </button>
      {(error ?? deleteError) && (
        <p className="thread-list__error" role="alert">
          {error ?? deleteError}
        </p>
      )}
      <label className="visually-hidden" htmlFor={searchId}>
        Search conversations
      </label>
      <input
        id={searchId}
        type="search"
        className="thread-list__search"
        placeholder="Search conversations"
        data-testid="thread-search"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <ul data-testid="thread-list">
        {shown.map((thread) => (
          <ThreadItem key={thread.id} thread={thread} isActive={thread.id === activeThreadId} />
        ))}
      </ul>
      {threads.length === 0 && !isLoading && !error && (
        <p className="thread-list__empty">No conversations yet.</p>
      )}
      {threads.length > 0 && shown.length === 0 && (
        <p className="thread-list__empty" role="status">
          No conversation titles match “{query.trim()}”{hasMore ? ' among those loaded.' : '.'}
        </p>
      )}
      {hasMore && (
        <button type="button" className="button" onClick={() => void loadMore()} disabled={isLoading}>
          {isLoading ? 'Loading…' : query.trim() ? 'Search older ones too' : 'Show older'}
        </button>
      )}
    </nav>
  );
}
