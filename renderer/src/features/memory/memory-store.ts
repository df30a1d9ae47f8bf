import { createStore, type StoreApi } from 'zustand/vanilla';
import type { DeputyClient, Memory } from '../../../../shared/contract';
import { toClientError } from '../../api/client-error';

export const MEMORY_PAGE_SIZE = 30;
export const SEARCH_DEBOUNCE_MS = 250;

/** What this window is doing with one memory. */
export interface MemoryActivity {
  inFlight: 'save' | 'delete' | null;
  error: string | null;
}

export interface MemoryState {
  /** What is typed in the search box; `shownQuery` is the one the list answers. */
  queryText: string;
  shownQuery: string;
  memories: Memory[];
  /** Newest-first listing only: the host pages a search by relevance in one go. */
  nextCursor: string | null;
  isLoading: boolean;
  hasLoaded: boolean;
  loadError: string | null;
  activity: Record<string, MemoryActivity>;
}

export interface MemoryActions {
  /** Lists again from the top for the current query (opening the tab, clearing a search). */
  reload(): Promise<void>;
  /** Takes what was typed at once and searches once typing pauses. */
  setQueryText(text: string): void;
  loadMore(): Promise<void>;
  /** Resolves true when the host saved the text; otherwise the memory's `activity.error` says why. */
  update(id: string, text: string): Promise<boolean>;
  remove(id: string): Promise<boolean>;
  clearError(id: string): void;
  /** Stops a pending debounced search (the panel closed). */
  dispose(): void;
}

export type MemoryStore = StoreApi<MemoryState & MemoryActions>;

export function createMemoryStore(
  client: DeputyClient,
  options: { debounceMs?: number; pageSize?: number } = {},
): MemoryStore {
  const debounceMs = options.debounceMs ?? SEARCH_DEBOUNCE_MS;
  const pageSize = options.pageSize ?? MEMORY_PAGE_SIZE;
  let timer: ReturnType<typeof setTimeout> | null = null;
  // Only the newest request may change the list: an older search answering late must not replace it.
  let generation = 0;

  return createStore<MemoryState & MemoryActions>()((set, get) => {
    const setActivity = (id: string, activity: MemoryActivity) =>
      set((state) => ({ activity: { ...state.activity, [id]: activity } }));

    async function list(query: string, cursor: string | null): Promise<void> {
      const current = ++generation;
      set({ isLoading: true, loadError: null });
      try {
        const page = await client.invoke('memory.list', {
          limit: pageSize,
          ...(query && { query }),
          ...(cursor !== null && { cursor }),
        });
        if (current !== generation) return;
        set((state) => ({
          memories: cursor === null ? page.memories : [...state.memories, ...page.memories],
          nextCursor: page.nextCursor,
          shownQuery: query,
          hasLoaded: true,
        }));
      } catch (error) {
        if (current === generation) set({ loadError: toClientError(error).message });
      } finally {
        if (current === generation) set({ isLoading: false });
      }
    }

    const forget = (id: string) =>
      set((state) => {
        const { [id]: _removed, ...activity } = state.activity;
        return { memories: state.memories.filter((item) => item.id !== id), activity };
      });

    const cancelTimer = () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    };

    return {
      queryText: '',
      shownQuery: '',
      memories: [],
      nextCursor: null,
      isLoading: false,
      hasLoaded: false,
      loadError: null,
      activity: {},

      reload() {
        cancelTimer();
        return list(get().queryText.trim(), null);
      },

      setQueryText(text) {
        set({ queryText: text });
        cancelTimer();
        timer = setTimeout(() => {
          timer = null;
          const query = text.trim();
          if (query !== get().shownQuery || !get().hasLoaded) void list(query, null);
        }, debounceMs);
      },

      async loadMore() {
        const { nextCursor, isLoading, shownQuery } = get();
        if (nextCursor === null || isLoading) return;
        await list(shownQuery, nextCursor);
      },

      async update(id, text) {
        if (get().activity[id]?.inFlight) return false;
        setActivity(id, { inFlight: 'save', error: null });
        try {
          const { memory } = await client.invoke('memory.update', { id, text });
          set((state) => ({ memories: state.memories.map((item) => (item.id === id ? memory : item)) }));
          setActivity(id, { inFlight: null, error: null });
          return true;
        } catch (error) {
          setActivity(id, { inFlight: null, error: toClientError(error).message });
          return false;
        }
      },

      async remove(id) {
        if (get().activity[id]?.inFlight) return false;
        setActivity(id, { inFlight: 'delete', error: null });
        try {
          await client.invoke('memory.delete', { id });
          forget(id);
          return true;
        } catch (error) {
          const failure = toClientError(error);
          // Already gone (deleted from another window): the list catches up instead of showing an error.
          if (failure.code === 'not_found') {
            forget(id);
            return true;
          }
          setActivity(id, { inFlight: null, error: failure.message });
          return false;
        }
      },

      clearError(id) {
        const activity = get().activity[id];
        if (activity?.error) setActivity(id, { ...activity, error: null });
      },

      dispose() {
        cancelTimer();
      },
    };
  });
}
