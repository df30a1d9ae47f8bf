import { useChat } from '../../stores';

const formatWhen = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};

export function ThreadList() {
  const threads = useChat((state) => state.threads);
  const activeThreadId = useChat((state) => state.conversation.threadId);
  const hasMore = useChat((state) => state.nextBefore !== null);
  const isLoading = useChat((state) => state.isLoadingThreads);
  const error = useChat((state) => state.threadsError);
  const openThread = useChat((state) => state.openThread);
  const newConversation = useChat((state) => state.newConversation);
  const loadMore = useChat((state) => state.loadMoreThreads);

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
      {error && (
        <p className="thread-list__error" role="alert">
          {error}
        </p>
      )}
      <ul data-testid="thread-list">
        {threads.map((thread) => (
          <li key={thread.id}>
            <button
              type="button"
              className="thread-list__item"
              data-testid="thread-item"
              data-thread-id={thread.id}
              aria-current={thread.id === activeThreadId ? 'page' : undefined}
              onClick={() => void openThread(thread.id)}
            >
              <span className="thread-list__title">{thread.title || 'Untitled conversation'}</span>
              <span className="thread-list__meta">
                {formatWhen(thread.updatedAt)}
                {thread.lastRunStatus === 'failed' && ' · failed'}
                {thread.lastRunStatus === 'awaiting_confirmation' && ' · needs approval'}
              </span>
            </button>
          </li>
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
    </nav>
  );
}
