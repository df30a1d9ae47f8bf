import { createStore, type StoreApi } from 'zustand/vanilla';
import type { DeputyClient, SideEffectsState } from '../../../../shared/contract';
import { toClientError } from '../../api/client-error';

export interface SideEffectsStoreState {
  /** Null until the Host has said (the stream answers at once). */
  state: SideEffectsState | null;
  isChanging: boolean;
  error: string | null;
}

export interface SideEffectsActions {
  /** Follows the switch wherever it is flipped (tray, another window, the HTTP API). Returns the unsubscribe. */
  connect(): () => void;
  setPaused(isPaused: boolean): Promise<void>;
}

export type SideEffectsStore = StoreApi<SideEffectsStoreState & SideEffectsActions>;

export function createSideEffectsStore(client: DeputyClient): SideEffectsStore {
  return createStore<SideEffectsStoreState & SideEffectsActions>()((set) => ({
    state: null,
    isChanging: false,
    error: null,
    connect: () => client.on('sideEffects.changed', {}, (event) => set({ state: event.state })),
    async setPaused(isPaused) {
      set({ isChanging: true, error: null });
      try {
        set({ state: await client.invoke('sideEffects.set', { isPaused }), isChanging: false });
      } catch (error) {
        set({ isChanging: false, error: toClientError(error).message });
      }
    },
  }));
}
