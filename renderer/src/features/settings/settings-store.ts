import { createStore, type StoreApi } from 'zustand/vanilla';
import type { DeputyClient, Settings, SettingsPatch } from '../../../../shared/contract';
import { toClientError } from '../../api/client-error';

export interface SettingsState {
  settings: Settings | null;
  loadError: string | null;
  isSaving: boolean;
  saveError: string | null;
  load(): Promise<void>;
  /** Resolves true when the host accepted the patch; otherwise `saveError` says why. */
  save(patch: SettingsPatch): Promise<boolean>;
  /** Sends a patch for a part of the screen that shows its own errors: resolves null, or the host's message. */
  apply(patch: SettingsPatch): Promise<string | null>;
  clearSaveError(): void;
}

export type SettingsStore = StoreApi<SettingsState>;

export function createSettingsStore(client: DeputyClient): SettingsStore {
  return createStore<SettingsState>()((set) => ({
    settings: null,
    loadError: null,
    isSaving: false,
    saveError: null,

    async load() {
      try {
        set({ settings: await client.invoke('settings.get', {}), loadError: null });
      } catch (error) {
        set({ loadError: toClientError(error).message });
      }
    },

    async save(patch) {
      set({ isSaving: true, saveError: null });
      try {
        set({ settings: await client.invoke('settings.set', patch) });
        return true;
      } catch (error) {
        set({ saveError: toClientError(error).message });
        return false;
      } finally {
        set({ isSaving: false });
      }
    },

    async apply(patch) {
      try {
        set({ settings: await client.invoke('settings.set', patch) });
        return null;
      } catch (error) {
        return toClientError(error).message;
      }
    },

    clearSaveError() {
      set({ saveError: null });
    },
  }));
}
