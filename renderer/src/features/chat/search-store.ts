import { createStore, type StoreApi } from 'zustand/vanilla';
import type { DeputyClient, ThreadSearchHit } from '../../../../shared/contract';
import { toClientError } from '../../api/client-error';

export interface SearchState {
  /** The query the hits answer (the newest one sent). */
  query: string;
  hits: ThreadSearchHit[];
  isSearching: boolean;
  error: string | null;
}

export interface SearchActions {
  /** Searches titles and messages on the host; an answer to an older query than the newest is dropped. */
  search(query: string): Promise<void>;
}

export type SearchStore = StoreApi<SearchState & SearchActions>;

export function createSearchStore(client: DeputyClient): SearchStore {
  return createStore<SearchState & SearchActions>()((set, get) => ({
    query: '',
    hits: [],
    isSearching: false,
    error: null,

    async search(query) {
      const trimmed = query.trim();
      set({ query: trimmed, isSearching: trimmed !== '', error: null, ...(trimmed === '' && { hits: [] }) });
      if (trimmed === '') return;
      try {
        const { hits } = await client.invoke('threads.search', { query: trimmed });
        if (get().query === trimmed) set({ hits, isSearching: false });
      } catch (error) {
        if (get().query === trimmed) set({ error: toClientError(error).message, isSearching: false });
      }
    },
  }));
}
