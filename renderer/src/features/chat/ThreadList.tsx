import { useChat } from '../../stores';
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
      <ul data-testid="thread-list">
        {threads.map((thread) => (
          <ThreadItem key={thread.id} thread={thread} isActive={thread.id === activeThreadId} />
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
