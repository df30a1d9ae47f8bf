import { useEffect, useId, useMemo, useState } from 'react';
import { useChat, useStores } from '../../stores';
import { SearchResults } from './SearchResults';
import { ThreadItem } from './ThreadItem';
import { namedThreads } from './thread-names';

/** How long typing may pause before the host is asked: one search per word typed, not per key. */
const SEARCH_DELAY_MS = 200;

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
  const { search } = useStores();
  const isSearching = query.trim() !== '';
  const named = useMemo(() => namedThreads(threads), [threads]);
  useEffect(() => {
    const timer = setTimeout(() => void search.getState().search(query), query.trim() ? SEARCH_DELAY_MS : 0);
    return () => clearTimeout(timer);
  }, [query, search]);

  return (
    <nav className="thread-list" aria-label="Conversations">
      <button
        type="button"
        className="button button--primary"
        data-testid="new-conversation"
        onClick={() => {
          newConversation();
          // A new conversation is for typing in: the keyboard goes to its message box (in a narrow window, once
          // the drawer this button is in has closed).
          document.getElementById('composer-input')?.focus();
        }}
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
      {isSearching ? (
        <SearchResults />
      ) : (
        <>
          <ul data-testid="thread-list">
            {named.map(({ thread, name }) => (
              <ThreadItem
                key={thread.id}
                thread={thread}
                name={name}
                isActive={thread.id === activeThreadId}
              />
            ))}
          </ul>
          {threads.length === 0 && !isLoading && !error && (
            <p className="thread-list__empty">No conversations yet.</p>
          )}
          {hasMore && (
            <button type="button" className="button" onClick={() => void loadMore()} disabled={isLoading}>
              {isLoading ? 'Loading…' : 'Show older'}
            </button>
          )}
        </>
      )}
    </nav>
  );
}
