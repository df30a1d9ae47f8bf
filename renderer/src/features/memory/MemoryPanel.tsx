import { useEffect, useId } from 'react';
import { useMemory, useStores } from '../../stores';
import { MemoryItem } from './MemoryItem';

/** Settings → Memory: what Deputy remembers about the user, newest first or by search, to correct or forget. */
export function MemoryPanel() {
  const { memory: store } = useStores();
  const queryText = useMemory((state) => state.queryText);
  const shownQuery = useMemory((state) => state.shownQuery);
  const memories = useMemory((state) => state.memories);
  const nextCursor = useMemory((state) => state.nextCursor);
  const isLoading = useMemory((state) => state.isLoading);
  const hasLoaded = useMemory((state) => state.hasLoaded);
  const loadError = useMemory((state) => state.loadError);
  const searchId = useId();

  // Memories change in chats behind this window: read them again every time the panel opens.
  useEffect(() => {
    const state = store.getState();
    void state.reload();
    return state.dispose;
  }, [store]);

  return (
    <section className="memory-panel" aria-label="Memory" data-testid="memory-panel">
      <label htmlFor={searchId}>Search memories</label>
      <input
        id={searchId}
        type="search"
        value={queryText}
        autoComplete="off"
        placeholder="Words to look for"
        data-testid="memory-search"
        onChange={(event) => store.getState().setQueryText(event.target.value)}
      />
      {loadError && (
        <p className="form-error" role="alert" data-testid="memory-load-error">
          {loadError}
        </p>
      )}
      {!hasLoaded && !loadError && <p role="status">Loading memories…</p>}
      {hasLoaded && memories.length === 0 && (
        <p className="memory-panel__empty" role="status" data-testid="memory-empty">
          {shownQuery
            ? `Nothing remembered matches “${shownQuery}”.`
            : 'Nothing remembered yet. Tell Deputy “remember that…” in a chat and it shows up here.'}
        </p>
      )}
      {memories.length > 0 && (
        <ul className="memory-panel__list" aria-busy={isLoading} data-testid="memory-list">
          {memories.map((memory) => (
            <MemoryItem key={memory.id} memory={memory} />
          ))}
        </ul>
      )}
      {nextCursor !== null && (
        <button
          type="button"
          className="button"
          disabled={isLoading}
          data-testid="memory-load-more"
          onClick={() => void store.getState().loadMore()}
        >
          {isLoading ? 'Loading…' : 'Load more'}
        </button>
      )}
    </section>
  );
}
